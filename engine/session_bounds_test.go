package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl"
)

// A saved session is read under the bounds json.loads meets in a cell:
// an integer of more than repl.MaxIntDigits digits (int()'s limit) and a
// value whose JSON text is over the value bound are refused with
// invalid_session naming the bound, before any conversion (a 2M-digit
// integer took 12-16 s to parse, quadratic in its digits).
func TestResumeSessionBounds(t *testing.T) {
	digits := func(n int) string { return "1" + strings.Repeat("7", n-1) }
	session := func(globals, history string) string {
		return `{"version": 1, "history": [` + history + `], "globals": {` + globals + `}}`
	}
	const small = 1 << 10 // the value bound of the "value bound" cases
	for _, tc := range []struct {
		name  string
		saved string
		bound string // "": resumes
		size  int64  // digits or bytes of the refused value
		at    string // detail name
	}{
		{"2M-digit int", session(`"x": `+digits(2_000_000), ``), boundDigits, 2_000_000, "x"},
		{"int at the limit", session(`"x": `+digits(repl.MaxIntDigits), ``), "", 0, ""},
		{"negative int at the limit", session(`"x": -`+digits(repl.MaxIntDigits), ``), "", 0, ""},
		{"int over the limit", session(`"x": `+digits(repl.MaxIntDigits+1), ``), boundDigits, repl.MaxIntDigits + 1, "x"},
		{"negative int over the limit", session(`"x": -`+digits(repl.MaxIntDigits+1), ``), boundDigits, repl.MaxIntDigits + 1, "x"},
		{"nested int over the limit", session(`"x": {"a": [1, `+digits(5000)+`]}`, ``), boundDigits, 5000, "x"},
		{"long float is a float", session(`"x": 1.`+strings.Repeat("0", 5000)+`1`, ``), "", 0, ""},
		{"answer over the limit", session(``, `{"query": "q", "answer": [`+digits(5000)+`]}`), boundDigits, 5000, "history"},
		{"str over the value bound", session(`"s": "`+strings.Repeat("a", small)+`"`, ``), boundBytes, small + 2, "s"},
		{"answer over the value bound", session(``, `{"query": "q", "answer": "`+strings.Repeat("a", small)+`"}`), boundBytes, small + 2, "history"},
		{"whitespace is not counted", session(`"l": [`+strings.Repeat("1,            ", 60)+`1]`, ``), "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := codeCfg()
			if strings.Contains(tc.name, "value bound") || strings.Contains(tc.name, "whitespace") {
				cfg.Code.MaxValueBytes = small
			}
			f := newFixture(t, haystack, cfg)
			s, err := f.eng.ResumeSession([]byte(tc.saved), f.h)
			if tc.bound == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			fe := fault.As(err)
			if fe == nil || fe.Kind != KindInvalidSession || s != nil {
				t.Fatalf("want invalid_session, got %v", err)
			}
			size := fe.Detail["digits"]
			if tc.bound == boundBytes {
				size = fe.Detail["bytes"]
			}
			if fe.Detail["bound"] != tc.bound || size != tc.size || fe.Detail["name"] != tc.at {
				t.Fatalf("detail %v, want bound %s, size %d, name %s", fe.Detail, tc.bound, tc.size, tc.at)
			}
		})
	}
}

// Save leaves out what ResumeSession would refuse (listed in skipped), so
// a saved session always resumes: an integer over int()'s digit limit,
// a value over the value bound, an answer holding such an integer.
func TestSaveSkipsOutOfBoundValues(t *testing.T) {
	cfg := codeCfg()
	cfg.Code.MaxValueBytes = 5 << 10
	f := newFixture(t, haystack, cfg,
		reply("Query: a", py(`big = 10**5000`, `ok = 10**4299`, `s = {"a": "x" * 3000, "b": "y" * 3000}`, `t = "a" * 100`, `FINAL(1)`)),
	)
	s, err := f.eng.NewSession(f.h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	// FINAL refuses such an integer (its text is out of bounds); an
	// answer kept by another host is skipped alike.
	s.history[0].Answer = []any{json.Number("1" + strings.Repeat("0", 4400))}
	data, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	var saved SavedSession
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&saved); err != nil {
		t.Fatal(err)
	}
	slices.Sort(saved.Skipped)
	if want := []string{"big", "history[0]", "s"}; !slices.Equal(saved.Skipped, want) {
		t.Fatalf("skipped %v, want %v", saved.Skipped, want)
	}
	r, err := f.eng.ResumeSession(data, f.h)
	if err != nil {
		t.Fatalf("the saved session does not resume: %v", err)
	}
	if _, ok, _ := r.st.embedded.Get("big"); ok {
		t.Fatal("big was restored")
	}
	g, ok, err := r.st.embedded.Get("ok")
	if n, _ := g.(json.Number); !ok || err != nil || len(n) != 4300 {
		t.Fatalf("ok: %v %v %.20v", ok, err, g)
	}
	if h := r.History(); len(h) != 1 || h[0].Answer != nil {
		t.Fatalf("history %v", h)
	}
}
