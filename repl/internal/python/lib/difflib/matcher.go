// Package difflib is the algorithmic kernel of CPython 3.12's difflib
// module: SequenceMatcher over sequences of comparable keys, and
// get_close_matches, unified_diff, context_diff, ndiff and Differ over
// lines, with CPython's exact results.
//
// Matching is quadratic in the worst case, as in CPython; the expensive
// calls take a context.Context and stop with its error when it is done.
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's
// difflib module does.
package difflib

import (
	"context"
	"fmt"
	"sort"
)

// Match is a matching block: a[A:A+Size] == b[B:B+Size].
type Match struct {
	A, B, Size int
}

// Opcode is one of get_opcodes()'s 5-tuples.
type Opcode struct {
	Tag            string // "replace", "delete", "insert" or "equal"
	I1, I2, J1, J2 int
}

// Error is a Python exception raised by the kernel: Type is "ValueError",
// or the type of an error a callback returned is kept as is.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

// SequenceMatcher compares two sequences of keys as CPython's
// SequenceMatcher does. Strings are compared as sequences of code points;
// other sequences as keys the caller makes (equal keys for equal items).
type SequenceMatcher[K comparable] struct {
	// IsJunk is the isjunk callback (nil for None). It is called once for
	// each distinct item of b, in order of first appearance, when b is set.
	IsJunk   func(K) (bool, error)
	AutoJunk bool

	a, b      []K
	b2j       map[K][]int
	bjunk     map[K]bool
	bpopular  map[K]bool
	fullb     map[K]int
	blocks    []Match
	opcodes   []Opcode
	scratch   [2][]int
	touched   [2][]int
	checkTick int
}

// NewSequenceMatcher returns SequenceMatcher(isjunk, a, b, autojunk).
func NewSequenceMatcher[K comparable](isjunk func(K) (bool, error), a, b []K, autojunk bool) (*SequenceMatcher[K], error) {
	m := &SequenceMatcher[K]{IsJunk: isjunk, AutoJunk: autojunk}
	m.SetSeq1(a)
	if err := m.SetSeq2(b); err != nil {
		return nil, err
	}
	return m, nil
}

// SetSeqs is set_seqs(a, b).
func (m *SequenceMatcher[K]) SetSeqs(a, b []K) error {
	m.SetSeq1(a)
	return m.SetSeq2(b)
}

// SetSeq1 is set_seq1(a).
func (m *SequenceMatcher[K]) SetSeq1(a []K) {
	m.a = a
	m.blocks, m.opcodes = nil, nil
}

// SetSeq2 is set_seq2(b): it indexes b (the b2j map), calling IsJunk, and
// drops popular items when AutoJunk is set and b has 200 items or more.
func (m *SequenceMatcher[K]) SetSeq2(b []K) error {
	m.b = b
	m.blocks, m.opcodes = nil, nil
	m.fullb = nil
	m.b2j = make(map[K][]int)
	var order []K
	for i, e := range b {
		idx, ok := m.b2j[e]
		if !ok {
			order = append(order, e)
		}
		m.b2j[e] = append(idx, i)
	}
	m.bjunk = map[K]bool{}
	if m.IsJunk != nil {
		for _, e := range order {
			j, err := m.IsJunk(e)
			if err != nil {
				return err
			}
			if j {
				m.bjunk[e] = true
			}
		}
		for e := range m.bjunk {
			delete(m.b2j, e)
		}
	}
	m.bpopular = map[K]bool{}
	n := len(b)
	if m.AutoJunk && n >= 200 {
		ntest := n/100 + 1
		for e, idx := range m.b2j {
			if len(idx) > ntest {
				m.bpopular[e] = true
			}
		}
		for e := range m.bpopular {
			delete(m.b2j, e)
		}
	}
	return nil
}

// B2J returns the b2j map: for each item of b that is neither junk nor
// popular, the indexes where it appears.
func (m *SequenceMatcher[K]) B2J() map[K][]int { return m.b2j }

// BJunk returns the set of junk items of b.
func (m *SequenceMatcher[K]) BJunk() map[K]bool { return m.bjunk }

// BPopular returns the set of popular items of b.
func (m *SequenceMatcher[K]) BPopular() map[K]bool { return m.bpopular }

func (m *SequenceMatcher[K]) tick(ctx context.Context) error {
	m.checkTick++
	if m.checkTick&1023 == 0 {
		return ctx.Err()
	}
	return nil
}

// FindLongestMatch is find_longest_match(alo, ahi, blo, bhi). The bounds
// must satisfy 0 <= alo <= ahi <= len(a) and 0 <= blo <= bhi <= len(b)
// (CPython would raise IndexError for some others: the wrapper refuses
// them).
func (m *SequenceMatcher[K]) FindLongestMatch(ctx context.Context, alo, ahi, blo, bhi int) (Match, error) {
	a, b := m.a, m.b
	if alo < 0 || ahi > len(a) || blo < 0 || bhi > len(b) {
		return Match{}, &Error{"IndexError", "find_longest_match bounds out of range"}
	}
	besti, bestj, bestsize := alo, blo, 0
	if len(m.scratch[0]) < len(b)+1 {
		m.scratch[0] = make([]int, len(b)+1)
		m.scratch[1] = make([]int, len(b)+1)
	}
	// prev[j+1] is j2len[j] of the previous row (0 when absent);
	// touched lists the entries to clear.
	prev, cur := m.scratch[0], m.scratch[1]
	tprev, tcur := m.touched[0][:0], m.touched[1][:0]
	for i := alo; i < ahi; i++ {
		for _, j := range m.b2j[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			if err := m.tick(ctx); err != nil {
				for _, t := range tprev {
					prev[t] = 0
				}
				for _, t := range tcur {
					cur[t] = 0
				}
				return Match{}, err
			}
			k := prev[j] + 1
			cur[j+1] = k
			tcur = append(tcur, j+1)
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		for _, t := range tprev {
			prev[t] = 0
		}
		prev, cur = cur, prev
		tprev, tcur = tcur, tprev[:0]
	}
	for _, t := range tprev {
		prev[t] = 0
	}
	m.touched[0], m.touched[1] = tprev[:0], tcur[:0]
	isJunk := func(k K) bool { return m.bjunk[k] }
	for besti > alo && bestj > blo && !isJunk(b[bestj-1]) && a[besti-1] == b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && !isJunk(b[bestj+bestsize]) && a[besti+bestsize] == b[bestj+bestsize] {
		bestsize++
	}
	for besti > alo && bestj > blo && isJunk(b[bestj-1]) && a[besti-1] == b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && isJunk(b[bestj+bestsize]) && a[besti+bestsize] == b[bestj+bestsize] {
		bestsize++
	}
	return Match{besti, bestj, bestsize}, nil
}

// GetMatchingBlocks is get_matching_blocks(): the non-adjacent matching
// blocks in order, ending with the dummy (len(a), len(b), 0).
func (m *SequenceMatcher[K]) GetMatchingBlocks(ctx context.Context) ([]Match, error) {
	if m.blocks != nil {
		return m.blocks, nil
	}
	la, lb := len(m.a), len(m.b)
	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, la, 0, lb}}
	var blocks []Match
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x, err := m.FindLongestMatch(ctx, q.alo, q.ahi, q.blo, q.bhi)
		if err != nil {
			return nil, err
		}
		i, j, k := x.A, x.B, x.Size
		if k > 0 {
			blocks = append(blocks, x)
			if q.alo < i && q.blo < j {
				queue = append(queue, span{q.alo, i, q.blo, j})
			}
			if i+k < q.ahi && j+k < q.bhi {
				queue = append(queue, span{i + k, q.ahi, j + k, q.bhi})
			}
		}
	}
	sort.Slice(blocks, func(x, y int) bool {
		p, q := blocks[x], blocks[y]
		if p.A != q.A {
			return p.A < q.A
		}
		if p.B != q.B {
			return p.B < q.B
		}
		return p.Size < q.Size
	})
	var out []Match
	i1, j1, k1 := 0, 0, 0
	for _, x := range blocks {
		if i1+k1 == x.A && j1+k1 == x.B {
			k1 += x.Size
		} else {
			if k1 > 0 {
				out = append(out, Match{i1, j1, k1})
			}
			i1, j1, k1 = x.A, x.B, x.Size
		}
	}
	if k1 > 0 {
		out = append(out, Match{i1, j1, k1})
	}
	out = append(out, Match{la, lb, 0})
	m.blocks = out
	return out, nil
}

// GetOpcodes is get_opcodes().
func (m *SequenceMatcher[K]) GetOpcodes(ctx context.Context) ([]Opcode, error) {
	if m.opcodes != nil {
		return m.opcodes, nil
	}
	blocks, err := m.GetMatchingBlocks(ctx)
	if err != nil {
		return nil, err
	}
	i, j := 0, 0
	ops := []Opcode{}
	for _, x := range blocks {
		tag := ""
		switch {
		case i < x.A && j < x.B:
			tag = "replace"
		case i < x.A:
			tag = "delete"
		case j < x.B:
			tag = "insert"
		}
		if tag != "" {
			ops = append(ops, Opcode{tag, i, x.A, j, x.B})
		}
		i, j = x.A+x.Size, x.B+x.Size
		if x.Size > 0 {
			ops = append(ops, Opcode{"equal", x.A, i, x.B, j})
		}
	}
	m.opcodes = ops
	return ops, nil
}

// GetGroupedOpcodes is get_grouped_opcodes(n), as a list of groups.
func (m *SequenceMatcher[K]) GetGroupedOpcodes(ctx context.Context, n int) ([][]Opcode, error) {
	ops, err := m.GetOpcodes(ctx)
	if err != nil {
		return nil, err
	}
	return groupOpcodes(ops, n), nil
}

// groupOpcodes groups codes; like CPython, it trims the first and last
// "equal" opcodes in place, so that the matcher's later get_opcodes() and
// get_grouped_opcodes() see the trimmed ones.
func groupOpcodes(codes []Opcode, n int) [][]Opcode {
	if len(codes) == 0 {
		codes = []Opcode{{"equal", 0, 1, 0, 1}}
	}
	if c := codes[0]; c.Tag == "equal" {
		codes[0] = Opcode{c.Tag, max(c.I1, c.I2-n), c.I2, max(c.J1, c.J2-n), c.J2}
	}
	if c := codes[len(codes)-1]; c.Tag == "equal" {
		codes[len(codes)-1] = Opcode{c.Tag, c.I1, min(c.I2, c.I1+n), c.J1, min(c.J2, c.J1+n)}
	}
	nn := n + n
	var groups [][]Opcode
	var group []Opcode
	for _, c := range codes {
		i1, j1 := c.I1, c.J1
		if c.Tag == "equal" && c.I2-c.I1 > nn {
			group = append(group, Opcode{c.Tag, i1, min(c.I2, i1+n), j1, min(c.J2, j1+n)})
			groups = append(groups, group)
			group = nil
			i1, j1 = max(i1, c.I2-n), max(j1, c.J2-n)
		}
		group = append(group, Opcode{c.Tag, i1, c.I2, j1, c.J2})
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].Tag == "equal") {
		groups = append(groups, group)
	}
	return groups
}

func calculateRatio(matches, length int) float64 {
	if length > 0 {
		return 2.0 * float64(matches) / float64(length)
	}
	return 1.0
}

// Ratio is ratio().
func (m *SequenceMatcher[K]) Ratio(ctx context.Context) (float64, error) {
	blocks, err := m.GetMatchingBlocks(ctx)
	if err != nil {
		return 0, err
	}
	matches := 0
	for _, x := range blocks {
		matches += x.Size
	}
	return calculateRatio(matches, len(m.a)+len(m.b)), nil
}

// QuickRatio is quick_ratio().
func (m *SequenceMatcher[K]) QuickRatio() float64 {
	if m.fullb == nil {
		m.fullb = make(map[K]int)
		for _, e := range m.b {
			m.fullb[e]++
		}
	}
	avail := make(map[K]int)
	matches := 0
	for _, e := range m.a {
		numb, ok := avail[e]
		if !ok {
			numb = m.fullb[e]
		}
		avail[e] = numb - 1
		if numb > 0 {
			matches++
		}
	}
	return calculateRatio(matches, len(m.a)+len(m.b))
}

// RealQuickRatio is real_quick_ratio().
func (m *SequenceMatcher[K]) RealQuickRatio() float64 {
	la, lb := len(m.a), len(m.b)
	return calculateRatio(min(la, lb), la+lb)
}

// GetCloseMatches is get_close_matches(word, possibilities, n, cutoff) for
// strings. The ValueError messages show n and cutoff as given; nRepr and
// cutoffRepr are their reprs.
func GetCloseMatches(ctx context.Context, word string, possibilities []string, n int, cutoff float64, nRepr, cutoffRepr string) ([]string, error) {
	if !(n > 0) {
		return nil, &Error{"ValueError", fmt.Sprintf("n must be > 0: %s", nRepr)}
	}
	if !(0.0 <= cutoff && cutoff <= 1.0) {
		return nil, &Error{"ValueError", fmt.Sprintf("cutoff must be in [0.0, 1.0]: %s", cutoffRepr)}
	}
	type scored struct {
		score float64
		x     string
	}
	var result []scored
	s := &SequenceMatcher[rune]{AutoJunk: true}
	if err := s.SetSeq2([]rune(word)); err != nil {
		return nil, err
	}
	for _, x := range possibilities {
		s.SetSeq1([]rune(x))
		if s.RealQuickRatio() >= cutoff && s.QuickRatio() >= cutoff {
			r, err := s.Ratio(ctx)
			if err != nil {
				return nil, err
			}
			if r >= cutoff {
				result = append(result, scored{r, x})
			}
		}
	}
	sort.SliceStable(result, func(i, j int) bool {
		if result[i].score != result[j].score {
			return result[i].score > result[j].score
		}
		return result[i].x > result[j].x
	})
	if len(result) > n {
		result = result[:n]
	}
	out := make([]string, len(result))
	for i, r := range result {
		out[i] = r.x
	}
	return out, nil
}
