package syntax

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// The recorded files come from CPython 3.12.1; regenerate them with
//
//	cd testdata && /root/.pyenv/versions/3.12.1/bin/python3.12 gen.py
//
// (see testdata/gen.py). Tests never run Python.

type validCase struct {
	Src  string `json:"src"`
	Dump string `json:"dump"`
	Pos  string `json:"pos"`
}

type invalidCase struct {
	Src     string  `json:"src"`
	Type    string  `json:"type"`
	Msg     string  `json:"msg"`
	Line    int     `json:"line"`
	Col     int     `json:"col"`
	EndLine int     `json:"end_line"`
	EndCol  int     `json:"end_col"`
	Text    *string `json:"text"`    // nil where CPython gives None
	Details bool    `json:"details"` // args holds the location tuple
}

type evalCase struct {
	Src   string `json:"src"`
	Dump  string `json:"dump"`
	Error string `json:"error"`
	Msg   string `json:"msg"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func TestValidCorpus(t *testing.T) {
	var cases []validCase
	readJSON(t, "valid.json", &cases)
	bad, badPos := 0, 0
	for _, c := range cases {
		m, err := Parse(c.Src)
		if err != nil {
			bad++
			t.Errorf("Parse(%q): %v", c.Src, err)
			continue
		}
		if got := Dump(m); got != c.Dump {
			bad++
			t.Errorf("Parse(%q):\n got %s\nwant %s", c.Src, got, c.Dump)
			continue
		}
		if got := DumpPos(m); got != c.Pos {
			badPos++
			t.Errorf("positions of %q:\n%s", c.Src, firstDiff(got, c.Pos))
		}
	}
	t.Logf("%d cases: %d trees differ, %d positions differ", len(cases), bad, badPos)
}

func TestInvalidCorpus(t *testing.T) { testInvalid(t, "invalid.json") }

// TestMutatedCorpus checks sources made by mutating valid snippets (see
// testdata/gen.py).
func TestMutatedCorpus(t *testing.T) { testInvalid(t, "mutated.json") }

func testInvalid(t *testing.T, file string) {
	var cases []invalidCase
	readJSON(t, file, &cases)
	msgOK, colOK, endOK, textOK, withText := 0, 0, 0, 0, 0
	for _, c := range cases {
		_, err := Parse(c.Src)
		if err == nil {
			t.Errorf("Parse(%q) succeeded; CPython: %s: %s", c.Src, c.Type, c.Msg)
			continue
		}
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("Parse(%q): error %T, want *Error", c.Src, err)
			continue
		}
		if e.Type != c.Type || e.Line != c.Line {
			t.Errorf("Parse(%q):\n got %s %q line %d col %d\nwant %s %q line %d col %d", c.Src, e.Type, e.Msg, e.Line, e.Col, c.Type, c.Msg, c.Line, c.Col)
			continue
		}
		if e.Msg == c.Msg {
			msgOK++
		} else if testing.Verbose() {
			t.Logf("message of %q:\n got %q\nwant %q", c.Src, e.Msg, c.Msg)
		}
		if e.Col == c.Col {
			colOK++
		} else if testing.Verbose() {
			t.Logf("column of %q: got %d, want %d (%s)", c.Src, e.Col, c.Col, c.Msg)
		}
		if e.EndLine == c.EndLine && e.EndCol == c.EndCol {
			endOK++
		} else if testing.Verbose() {
			t.Logf("end of %q: got %d:%d, want %d:%d (%s)", c.Src, e.EndLine, e.EndCol, c.EndLine, c.EndCol, c.Msg)
		}
		// SyntaxError.text: None (compiler errors, no location) or the
		// line, with its newline or without as CPython gives it.
		if c.Text != nil {
			withText++
		}
		if c.Details == e.NoDetails && e.Line > 0 && e.Type != "RecursionError" {
			t.Errorf("Parse(%q): NoDetails %v, CPython's args have the location: %v (%s)", c.Src, e.NoDetails, c.Details, c.Msg)
		}
		if c.Text == nil && (e.NoText || e.Line == 0) || c.Text != nil && !e.NoText && e.Text == *c.Text {
			textOK++
		} else if testing.Verbose() {
			want := "None"
			if c.Text != nil {
				want = strconv.Quote(*c.Text)
			}
			t.Logf("text of %q: got %q (none %v), want %s (%s)", c.Src, e.Text, e.NoText, want, c.Msg)
		}
	}
	n := len(cases)
	t.Logf("%s: %d cases: type and line match for all; message %d (%.1f%%), offset %d (%.1f%%), end %d (%.1f%%), text %d (%.1f%%; %d have a text)",
		file, n, msgOK, pct(msgOK, n), colOK, pct(colOK, n), endOK, pct(endOK, n), textOK, pct(textOK, n), withText)
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(b) }

func TestEvalCorpus(t *testing.T) {
	var cases []evalCase
	readJSON(t, "eval.json", &cases)
	for _, c := range cases {
		e, err := ParseExpr(c.Src)
		if c.Error != "" {
			pe, ok := err.(*Error)
			if !ok {
				t.Errorf("ParseExpr(%q) = %v, want %s %q", c.Src, err, c.Error, c.Msg)
				continue
			}
			if pe.Type != c.Error || pe.Line != c.Line || pe.Msg != c.Msg {
				t.Errorf("ParseExpr(%q): got %s %q line %d, want %s %q line %d", c.Src, pe.Type, pe.Msg, pe.Line, c.Error, c.Msg, c.Line)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", c.Src, err)
			continue
		}
		if got := Dump(e); got != c.Dump {
			t.Errorf("ParseExpr(%q):\n got %s\nwant %s", c.Src, got, c.Dump)
		}
	}
}

// firstDiff shows where got and want part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := i - 120
	if from < 0 {
		from = 0
	}
	g, w := got[from:], want[from:]
	if len(g) > 200 {
		g = g[:200]
	}
	if len(w) > 200 {
		w = w[:200]
	}
	return " got ..." + g + "\nwant ..." + w
}
