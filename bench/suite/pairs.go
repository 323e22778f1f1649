package suite

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Pair is an unordered pair of user ids, stored in canonical order (the
// numerically, else lexically, smaller first).
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
}

// NewPair returns the pair of a and b in canonical order.
func NewPair(a, b string) Pair {
	if pairLess(b, a) {
		a, b = b, a
	}
	return Pair{A: a, B: b}
}

func pairLess(x, y string) bool {
	nx, ex := strconv.ParseInt(x, 10, 64)
	ny, ey := strconv.ParseInt(y, 10, 64)
	if ex == nil && ey == nil {
		return nx < ny
	}
	return x < y
}

// pairPattern matches "(a, b)" or "[a, b]" with optional quotes around ids.
var pairPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[(\[]\s*['"]?([A-Za-z0-9_.-]+)['"]?\s*,\s*['"]?([A-Za-z0-9_.-]+)['"]?\s*[)\]]`)
})

// ParsePairs returns the set of pairs written anywhere in s as "(a, b)" or
// "[a, b]", canonical and sorted; pairs (a, a) are dropped.
func ParsePairs(s string) []Pair {
	set := map[Pair]bool{}
	for _, m := range pairPattern().FindAllStringSubmatch(s, -1) {
		if m[1] != m[2] {
			set[NewPair(m[1], m[2])] = true
		}
	}
	out := make([]Pair, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y Pair) int {
		switch {
		case x == y:
			return 0
		case pairLess(x.A, y.A) || (x.A == y.A && pairLess(x.B, y.B)):
			return -1
		}
		return 1
	})
	return out
}

// decodePairs decodes one OOLONG-Pairs task: a row with OOLONG-synth's
// columns whose question is one of the RLM paper's pairwise queries over a
// trec_coarse window and whose answer is the gold pair list (a string such
// as "[(12, 34), (12, 56)]" or a JSON array of two-element arrays).
func decodePairs(r *record) (Task, error) {
	t := Task{Suite: OolongPairs, AnswerType: "pairs", Meta: map[string]string{}}
	var err error
	if t.ID, err = r.id("id"); err != nil {
		return t, err
	}
	if t.Context, err = r.str("context_window_text"); err != nil {
		return t, err
	}
	if t.Query, err = r.str("question"); err != nil {
		return t, err
	}
	raw, ok := r.raw("answer")
	if !ok {
		return t, r.fail("answer", "missing field answer")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t.Answer = s
	} else {
		var arr [][]json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return t, r.fail("answer", "answer is neither a string nor an array of pairs")
		}
		var b strings.Builder
		b.WriteByte('[')
		for i, p := range arr {
			if len(p) != 2 {
				return t, r.fail("answer", "an answer pair does not have two ids")
			}
			sub := &record{fields: map[string]json.RawMessage{"a": p[0], "b": p[1]}, file: r.file, line: r.line, index: r.index}
			a, err1 := sub.id("a")
			b2, err2 := sub.id("b")
			if err1 != nil || err2 != nil {
				return t, r.fail("answer", "an answer pair id is neither a string nor an integer")
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(" + a + ", " + b2 + ")")
		}
		b.WriteByte(']')
		t.Answer = b.String()
	}
	t.Pairs = ParsePairs(t.Answer)
	if len(t.Pairs) == 0 && strings.Trim(strings.TrimSpace(t.Answer), "[]") != "" {
		return t, r.fail("answer", "answer holds no (a, b) pair")
	}
	ds, err := r.optStr("dataset")
	if err != nil {
		return t, err
	}
	if ds == "" {
		ds = "trec_coarse"
	}
	t.Meta["dataset"] = ds
	t.Subset = ds
	if _, ok := r.raw("context_len"); ok {
		n, err := r.integer("context_len")
		if err != nil {
			return t, err
		}
		t.Meta["context_len"] = strconv.FormatInt(n, 10)
		t.Subset += "/" + t.Meta["context_len"]
	}
	if _, ok := r.raw("context_window_id"); ok {
		cw, err := r.id("context_window_id")
		if err != nil {
			return t, err
		}
		t.Meta["context_window_id"] = cw
	}
	task, err := r.optStr("task")
	if err != nil {
		return t, err
	}
	if task != "" {
		t.Meta["task"] = task
	}
	return t, nil
}

// PairsF1 returns the F1 of got against want (sets of pairs); two empty
// sets score 1.
func PairsF1(got, want []Pair) (f1, precision, recall float64) {
	if len(got) == 0 && len(want) == 0 {
		return 1, 1, 1
	}
	w := map[Pair]bool{}
	for _, p := range want {
		w[p] = true
	}
	g := map[Pair]bool{}
	hit := 0
	for _, p := range got {
		if g[p] {
			continue
		}
		g[p] = true
		if w[p] {
			hit++
		}
	}
	if hit == 0 {
		return 0, 0, 0
	}
	precision = float64(hit) / float64(len(g))
	recall = float64(hit) / float64(len(w))
	return 2 * precision * recall / (precision + recall), precision, recall
}

func scorePairs(t Task, answer string) Result {
	got := ParsePairs(answer)
	f1, p, r := PairsF1(got, t.Pairs)
	return Result{
		Score: f1,
		Exact: f1 == 1,
		Detail: map[string]any{
			"precision": p, "recall": r, "predicted": len(got), "gold": len(t.Pairs),
		},
	}
}
