package corpus

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rlm-go/rlm/corpus/internal/find"
	"github.com/rlm-go/rlm/corpus/internal/teddy"
	"github.com/rlm-go/rlm/fault"
)

// SearchOptions selects the search mode.
type SearchOptions struct {
	// Regex makes the pattern an RE2 regular expression (Go regexp syntax)
	// in multi-line mode: ^ and $ match at line boundaries. Otherwise the
	// pattern is a literal, case-sensitive byte string.
	Regex bool
	// CountOnly returns the number of matching lines (an int64, like
	// grep -c) instead of the matches. It is not bounded by MaxResults.
	CountOnly bool
}

// Match is one matching line.
type Match struct {
	// Index is the 1-based line number.
	Index int64 `json:"index"`
	// Offset is the byte offset of the start of the line.
	Offset int64 `json:"offset"`
	// Match is the byte offset of the first match in the line.
	Match int64 `json:"match"`
	// Value is the line without its newline. A line longer than LineCap
	// bytes is cut to an excerpt of at most LineCap bytes containing the
	// start of the match; the last value of a result may also be cut by
	// MaxBytes. Either way Truncated is set.
	Value     string `json:"value"`
	Truncated bool   `json:"truncated,omitempty"`
	// File names the file holding the line, in a composite context (see
	// AddFiles) or a view of one; FileLine is the line's 1-based number
	// within that file, set when searching the composite itself.
	File     string `json:"file,omitempty"`
	FileLine int64  `json:"file_line,omitempty"`
	// Page is the 1-based number of the PDF page holding the line, in the
	// text of a PDF (see AddFile, AddFiles) or a view of it.
	Page int `json:"page,omitempty"`
}

// regexWindow is the span a regular expression searches per call, so that
// the context and time limit are checked that often.
const regexWindow = 1 << 20

// Search finds the lines of h matching pattern. Lines are separated by '\n'
// and each matching line is reported once, in order, as a Match; with
// opt.CountOnly the value is the number of matching lines instead. An empty
// pattern, a literal pattern containing '\n', or a regular expression that
// does not compile fails with Kind invalid_pattern.
//
// MaxResults bounds the matches and MaxBytes the total bytes of their
// values; the result is truncated if a further match exists or a value was
// cut. Literal search runs bytes.Index over the whole text and counts
// newlines only between consecutive matches; it never scans line by line.
func (s *Store) Search(ctx context.Context, h Handle, pattern string, opt SearchOptions, lim Limits) (Result, error) {
	return s.search(ctx, h, pattern, opt, lim, nil)
}

// SearchEach is Search in list mode that hands each match to yield as it
// is found, in order, instead of collecting them: memory stays one match,
// whatever MaxResults and MaxBytes allow. The result's Value is the number
// of matches yielded (an int64); Truncated and Accounting are as for
// Search. An error from yield stops the search and is returned as is.
func (s *Store) SearchEach(ctx context.Context, h Handle, pattern string, regex bool, lim Limits, yield func(Match) error) (Result, error) {
	return s.search(ctx, h, pattern, SearchOptions{Regex: regex}, lim, yield)
}

func (s *Store) search(ctx context.Context, h Handle, pattern string, opt SearchOptions, lim Limits, yield func(Match) error) (Result, error) {
	var re *lineRegex
	lit, foldLit := "", ""
	var set litSet
	hasSet := false
	switch {
	case pattern == "":
		return Result{}, newErr(KindInvalidPattern, "empty pattern")
	case opt.Regex:
		var err error
		if re, err = compileLineRegex(pattern); err != nil {
			return Result{}, newErr(KindInvalidPattern, err.Error()).With("pattern", pattern)
		}
		if lit = requiredLiteral(pattern); lit == "" {
			foldLit = requiredFoldLiteral(pattern)
		}
		set, hasSet = requiredLitSet(pattern)
		if pre, ok := prefixLitSet(pattern); ok && (!hasSet || !better(set, pre)) {
			set, hasSet = pre, true // as selective, and RE2 starts at the literal
		}
	case strings.IndexByte(pattern, '\n') >= 0:
		return Result{}, newErr(KindInvalidPattern, "literal pattern contains a newline").With("pattern", pattern)
	}
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		rd := newReader(o.e, s.testWindow, s.testReadMin)
		defer rd.close()
		sr := searcher{op: o, rd: rd, data: o.e.data, count: opt.CountOnly, budget: o.lim.MaxBytes, line: 1, yield: yield}
		if !opt.CountOnly && yield == nil {
			sr.matches = []Match{}
		}
		var f *find.Finder
		switch {
		case re == nil:
			f = sr.finder(pattern, false)
		case lit != "":
			f = sr.finder(lit, false)
		case foldLit != "":
			f = sr.finder(foldLit, true)
		}
		parallel := opt.CountOnly && len(sr.data) >= cmp.Or(s.testParallelMin, parallelMin) && runtime.GOMAXPROCS(0) > 1
		var each func(w *searcher) error
		switch {
		case re == nil:
			each = func(w *searcher) error { return w.literal(f, nil) }
		case f != nil && sr.rare(f):
			each = func(w *searcher) error { return w.literal(f, re.std) }
		default:
			if hasSet {
				sr.useSet(set, re.dfa != nil, s.testCandidates, s.testNoTeddy) // the regex then runs on candidate lines
			}
			each = func(w *searcher) error { return w.regex(re) }
		}
		var err error
		if parallel {
			err = sr.countParallel(each, s.testWindow, s.testReadMin)
		} else {
			err = each(&sr)
		}
		if err == nil {
			err = sr.yieldErr
		}
		if err != nil {
			return Result{}, err
		}
		if yield != nil {
			return o.result(sr.listed, sr.truncated), nil
		}
		if opt.CountOnly {
			o.acc.ItemsInspected = sr.n
			return o.result(sr.n, false), nil
		}
		return o.result(sr.matches, sr.truncated), nil
	})
}

// searcher holds the state of one search.
type searcher struct {
	*op
	rd      *reader
	data    []byte
	count   bool    // count only
	n       int64   // matching lines found
	matches []Match // when !count and yield is nil
	// yield, when set, takes each match instead of matches; yieldErr is
	// the error it returned, which stops the search.
	yield     func(Match) error
	yieldErr  error
	listed    int64 // matches listed (collected or yielded)
	budget    int   // remaining MaxBytes
	truncated bool
	line      int64 // line number of the line starting at counted
	counted   int   // offset up to which newlines have been counted
	// setFinders, when set, find the literals of a required literal set:
	// the regex runs only on the lines holding one (cands, per searcher).
	setFinders []*find.Finder
	setTeddy   *teddy.Set // finds the set's literals instead, when set
	setPrefix  bool       // every match starts with a literal of the set
	cands      *candidates
	dfa        *lineDFA // the regex's automaton, when it has one (lazily)
}

// sampleSize is how much of the text's start the literal finder samples
// to learn which bytes are rare.
const sampleSize = 64 << 10

// finder returns the finder of pat (ignoring ASCII case with fold), its
// rare bytes chosen by their frequency in the first sampleSize bytes of
// the text.
func (sr *searcher) finder(pat string, fold bool) *find.Finder {
	if fold {
		return find.NewFoldHist([]byte(pat), sr.sampleHist())
	}
	return find.NewHist([]byte(pat), sr.sampleHist())
}

// sampleHist returns the byte histogram of the text's first sampleSize
// bytes, kept with the text after its first search: histogramming 64 KiB
// was most of the cost of a search of a small text. A text that changes
// afterwards (a file rewritten) keeps the old histogram, which chooses
// only which byte the finder looks for first, never what it finds.
func (sr *searcher) sampleHist() *find.Hist {
	if h := sr.rd.e.sample.Load(); h != nil {
		return h
	}
	sample, err := sr.rd.read(0, sampleSize)
	if err != nil {
		return find.Histogram(nil) // the search itself reports it
	}
	h := find.Histogram(sample)
	sr.rd.e.sample.Store(h)
	return h
}

// rare reports whether lit is rare enough in the text's first sampleSize
// bytes (at most one occurrence per 4 KiB) to be worth searching for
// before running the regex on the lines holding it; for a common one the
// regex engine on whole windows is faster.
func (sr *searcher) rare(f *find.Finder) bool {
	sample, err := sr.rd.read(0, sampleSize)
	if err != nil {
		return true // the search itself reports it
	}
	limit, n := len(sample)/4096, 0
	for i := f.Index(sample); i >= 0 && n <= limit; i = f.Index(sample) {
		n++
		sample = sample[i+len(f.Needle()):]
	}
	return n <= limit
}

// literal searches for the needle of f, which holds no newline. With
// verify set, the needle is a literal every match of verify contains (see
// requiredLiteral): a line holding it matches only if verify matches the
// line on its own.
func (sr *searcher) literal(f *find.Finder, verify *regexp.Regexp) error {
	data := sr.data
	np := len(f.Needle())
	n := len(data)
	sr.rd.need(2 * np) // a window must hold more than the needle to advance
	floor := 0         // a line start at or before pos
	for pos := 0; pos < n; {
		if err := sr.progress(pos); err != nil {
			return err
		}
		w, err := sr.rd.read(pos, max(scanWindow, 4*np))
		if err != nil {
			return err
		}
		off, end := pos, pos+len(w)
		next := -1 // where the next window starts, when a line runs past this one
		cur := f.Cursor(w)
		for i := 0; ; {
			j := cur.Next(i)
			if j < 0 {
				break
			}
			m := off + j
			le := sr.lineEnd(w, off, m+np)
			sr.scanned(le)
			if sr.count && verify == nil {
				sr.n++
			} else if ls := sr.lineStart(w, off, floor, m); verify == nil {
				if !sr.add(w, off, ls, m, le) {
					return nil
				}
			} else if loc := verify.FindIndex(sr.rd.at(w, off, ls, le)); loc != nil {
				if sr.count {
					sr.n++
				} else if !sr.add(w, off, ls, ls+loc[0], le) {
					return nil
				}
			}
			floor = le + 1
			if floor+np > end {
				next = min(floor, n)
				break
			}
			i = floor - off
		}
		if end == n && next < 0 {
			break
		}
		if next < 0 {
			next = max(floor, end-np+1)
			floor = sr.lastLineStart(w, off, floor, next)
		}
		sr.countWindow(w, off, next)
		pos = next
		sr.scanned(min(pos, n))
	}
	sr.scanned(n)
	return nil
}

// lineEnd returns the offset of the first '\n' at or after from, or the
// text's end, looking in the window w (holding the bytes from off) first.
func (sr *searcher) lineEnd(w []byte, off, from int) int {
	end := off + len(w)
	if from <= end {
		if j := bytes.IndexByte(w[from-off:], '\n'); j >= 0 {
			return from + j
		}
		from = end
	}
	if j := bytes.IndexByte(sr.data[from:], '\n'); j >= 0 {
		return from + j
	}
	return len(sr.data)
}

// lineStart returns the start of the line holding m, given floor, a line
// start at or before m.
func (sr *searcher) lineStart(w []byte, off, floor, m int) int {
	lo := max(floor, off)
	if j := bytes.LastIndexByte(w[lo-off:m-off], '\n'); j >= 0 {
		return lo + j + 1
	}
	if floor >= off {
		return floor
	}
	return floor + bytes.LastIndexByte(sr.data[floor:off], '\n') + 1
}

// backScan bounds how far lastLineStart looks back for a newline.
const backScan = 4 << 10

// lastLineStart returns a line start at or before to (and at or after
// floor, a line start), found in the window's last backScan bytes before
// to; floor when there is none.
func (sr *searcher) lastLineStart(w []byte, off, floor, to int) int {
	lo := max(floor, off, to-backScan)
	if lo >= to {
		return floor
	}
	if j := bytes.LastIndexByte(w[lo-off:to-off], '\n'); j >= 0 {
		return lo + j + 1
	}
	return floor
}

// countWindow, in list mode over transient windows (copies, or mapped
// pages released behind the scan; see reader), counts the newlines before
// next that lie in w, before w is overwritten or released (the line number of a later
// match is counted from there). In-memory texts count lazily in add.
func (sr *searcher) countWindow(w []byte, off, next int) {
	if !sr.count && sr.rd.copies() {
		sr.countTo(w, off, next)
	}
}

// countTo advances the line count to offset to.
func (sr *searcher) countTo(w []byte, off, to int) {
	if to <= sr.counted {
		return
	}
	end := off + len(w)
	c := sr.counted
	if c < off {
		sr.line += int64(bytes.Count(sr.data[c:min(off, to)], nl))
		c = min(off, to)
	}
	if c < to && c < end {
		e := min(to, end)
		sr.line += int64(bytes.Count(w[c-off:e-off], nl))
		c = e
	}
	if c < to {
		sr.line += int64(bytes.Count(sr.data[c:to], nl))
	}
	sr.counted = to
}

// requiredLiteral returns the longest case-sensitive literal without a
// newline that every match of the regular expression contains, or "".
func requiredLiteral(pattern string) string { return requiredLit(pattern, false) }

// requiredFoldLiteral returns the longest ASCII literal without a newline
// that every match of the regular expression contains ignoring ASCII case,
// lower-cased, or "". A case-insensitive literal holding k or s does not
// count: their case folds include non-ASCII runes (U+212A KELVIN SIGN,
// U+017F LATIN SMALL LETTER LONG S) that an ASCII search would miss.
func requiredFoldLiteral(pattern string) string { return requiredLit(pattern, true) }

func requiredLit(pattern string, fold bool) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	var walk func(*syntax.Regexp) string
	walk = func(re *syntax.Regexp) string {
		switch re.Op {
		case syntax.OpLiteral:
			folded := re.Flags&syntax.FoldCase != 0
			// U+FFFD also matches an invalid byte (Go reads it as
			// U+FFFD): its bytes need not be in the text.
			if slices.Contains(re.Rune, '\n') || slices.Contains(re.Rune, utf8.RuneError) || folded && !fold {
				return ""
			}
			if fold && slices.ContainsFunc(re.Rune, func(r rune) bool {
				return r >= utf8.RuneSelf || folded && strings.ContainsRune("kKsS", r)
			}) {
				return ""
			}
			if fold {
				return strings.ToLower(string(re.Rune))
			}
			return string(re.Rune)
		case syntax.OpCapture, syntax.OpPlus:
			return walk(re.Sub[0])
		case syntax.OpRepeat:
			if re.Min >= 1 {
				return walk(re.Sub[0])
			}
		case syntax.OpConcat:
			best := ""
			for _, sub := range re.Sub {
				if l := walk(sub); len(l) > len(best) {
					best = l
				}
			}
			return best
		}
		return ""
	}
	return walk(re)
}

// scanned records in the operation's accounting that the scan has read
// the text up to pos, so that a search stopped by its time limit or by
// cancellation reports the bytes it read.
func (sr *searcher) scanned(pos int) {
	sr.acc.BytesInspected = max(sr.acc.BytesInspected, int64(pos))
}

// regex searches for re over windows of whole lines. re cannot match a
// newline (see lineOnly), so every match lies within one line and the
// first match starting in a line is that line's first match.
func (sr *searcher) regex(re *lineRegex) error {
	n := len(sr.data)
	for pos := 0; pos < n; {
		if err := sr.progress(pos); err != nil {
			return err
		}
		w, err := sr.rd.lines(pos, regexWindow)
		if err != nil {
			return err
		}
		if !sr.regexIn(re, w, pos) {
			return nil
		}
		sr.countWindow(w, pos, pos+len(w))
		pos += len(w)
		sr.scanned(pos)
		if len(w) > regexWindow { // one line longer than a window: progress may not check again
			if err := sr.check(); err != nil {
				return err
			}
		}
	}
	sr.scanned(n)
	return nil
}

// parallelMin is the smallest text a regex count splits between cores.
const parallelMin = 8 << 20

// maxWorkers bounds the goroutines of a parallel regex count.
const maxWorkers = 4

// countParallel counts the matching lines with one goroutine per core (at
// most maxWorkers), each running each (a literal or regex search) on a
// contiguous run of whole lines with its own reader and checking the
// context and time limit itself. A regex engine runs at a few hundred
// MB/s, well below memory speed, so its count scales with the cores; a
// literal count gains less (the scan nears memory speed on one core) but
// still some. Each goroutine runs under the guard of the text.
func (sr *searcher) countParallel(each func(w *searcher) error, window, readMin int) error {
	data := sr.data
	p := min(runtime.GOMAXPROCS(0), maxWorkers)
	bounds := []int{0}
	for i := 1; i < p; i++ {
		b := max(bounds[len(bounds)-1], i*len(data)/p)
		if j := bytes.IndexByte(data[b:], '\n'); j >= 0 && b+j+1 < len(data) {
			if b+j+1 > bounds[len(bounds)-1] {
				bounds = append(bounds, b+j+1)
			}
		}
	}
	bounds = append(bounds, len(data))
	ctx, cancel := context.WithCancel(sr.ctx)
	defer cancel()
	counts := make([]int64, len(bounds)-1)
	inspected := make([]int64, len(bounds)-1)
	errs := make([]error, len(bounds)-1)
	var wg sync.WaitGroup
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo, hi := bounds[i], bounds[i+1]
			e := sr.e
			se := &entry{h: e.h, kind: e.kind, data: data[lo:hi:hi], back: e.back, path: e.path, files: e.files, base: e.base + int64(lo)}
			o := &op{ctx: ctx, lim: sr.lim, begin: sr.begin, deadline: sr.deadline, e: se, nextCheck: scanWindow}
			_, errs[i] = guard(se, func() (struct{}, error) {
				rd := newReader(se, window, readMin)
				defer rd.close()
				w := searcher{op: o, rd: rd, data: se.data, count: true, line: 1, setFinders: sr.setFinders, setTeddy: sr.setTeddy, setPrefix: sr.setPrefix}
				err := each(&w)
				counts[i], inspected[i] = w.n, o.acc.BytesInspected
				return struct{}{}, err
			})
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for i := range counts {
		sr.n += counts[i]
	}
	for i := range inspected {
		sr.acc.BytesInspected += inspected[i]
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			if fe := fault.As(err); fe != nil {
				fe.With("bytes_inspected", sr.acc.BytesInspected) // the whole text's, not one worker's part
			}
			return err
		}
	}
	if err := sr.check(); err != nil {
		return err
	}
	sr.acc.BytesInspected = int64(len(data))
	return nil
}

// regexIn searches the window w of whole lines starting at off and
// reports whether the search should go on.
func (sr *searcher) regexIn(re *lineRegex, w []byte, off int) bool {
	if sr.usesSet() {
		return sr.regexCandidates(re, w, off)
	}
	// An empty match at the window's end is the next line's start, or no
	// line at all after the final newline.
	atEnd := func(m int) bool {
		return m == len(w) && (off+len(w) < len(sr.data) || len(w) > 0 && w[len(w)-1] == '\n')
	}
	if locs, ok := re.findAll(w); ok {
		next := 0 // the start of the first line not yet matched
		for _, loc := range locs {
			if loc[0] < next {
				continue
			}
			if atEnd(loc[0]) {
				break
			}
			var goOn bool
			if next, goOn = sr.regexHit(w, off, loc[0]); !goOn {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(w); { // i is always a line start
		loc := re.std.FindIndex(w[i:])
		if loc == nil || atEnd(i+loc[0]) {
			break
		}
		var goOn bool
		if i, goOn = sr.regexHit(w, off, i+loc[0]); !goOn {
			return false
		}
	}
	return true
}

// regexHit records the line of w holding the match at m (a window offset)
// and returns the offset of the next line and whether to go on.
func (sr *searcher) regexHit(w []byte, off, m int) (int, bool) {
	ls := bytes.LastIndexByte(w[:m], '\n') + 1
	le := len(w)
	if j := bytes.IndexByte(w[m:], '\n'); j >= 0 {
		le = m + j
	}
	sr.scanned(off + le)
	if sr.count {
		sr.n++
		return le + 1, true
	}
	return le + 1, sr.add(w, off, off+ls, off+m, off+le)
}

// add records the line [ls, le) whose first match is at m and reports
// whether the search should go on. w holds the text's bytes from off.
func (sr *searcher) add(w []byte, off, ls, m, le int) bool {
	sr.acc.ItemsInspected++
	if sr.listed == int64(sr.lim.MaxResults) || sr.budget == 0 {
		sr.truncated = true
		return false
	}
	sr.countTo(w, off, ls)
	vs, ve := ls, le
	if le-ls > LineCap {
		line := sr.rd.at(w, off, ls, le)
		if m+1-ls > LineCap/2 {
			vs = ls + snapBack(line, m-LineCap/4-ls)
		}
		ve = ls + snapBack(line, min(le, vs+LineCap)-ls)
	}
	mt := Match{Index: sr.line, Offset: int64(ls), Match: int64(m), Truncated: vs > ls || ve < le}
	if f := fileAt(sr.e.files, sr.e.base+int64(ls)); f != nil {
		mt.File = f.Name
		if sr.e.kind == TextKindFiles {
			mt.FileLine = sr.line - f.Line + 1
		}
	}
	if p := pageAt(sr.e.pages, sr.e.base+int64(ls)); p != nil {
		mt.Page = p.Page
	}
	text := sr.rd.at(w, off, vs, ve)
	if len(text) > sr.budget {
		text = cutText(text, sr.budget)
		mt.Truncated = true
		sr.truncated = true
	}
	sr.budget -= len(text)
	sr.acc.BytesReturned += int64(len(text))
	mt.Value = string(text)
	sr.listed++
	if sr.yield != nil {
		if sr.yieldErr = sr.yield(mt); sr.yieldErr != nil {
			return false
		}
	} else {
		sr.matches = append(sr.matches, mt)
	}
	return !sr.truncated
}
