package textwrap

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// testdata/cases.json records CPython 3.12's results; regenerate with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
//
// "HANG" marks inputs on which CPython never returns; the kernel refuses
// them with ErrLoopsForever.

type recCase struct {
	Fn   string          `json:"fn"`
	Text string          `json:"text"`
	Opts map[string]any  `json:"opts"`
	Out  json.RawMessage `json:"out"`
}

func wrapperFor(opts map[string]any) Wrapper {
	w := NewWrapper()
	for k, v := range opts {
		switch k {
		case "width":
			w.Width = int(v.(float64))
		case "initial_indent":
			w.InitialIndent = v.(string)
		case "subsequent_indent":
			w.SubsequentIndent = v.(string)
		case "expand_tabs":
			w.ExpandTabs = v.(bool)
		case "replace_whitespace":
			w.ReplaceWhitespace = v.(bool)
		case "fix_sentence_endings":
			w.FixSentenceEndings = v.(bool)
		case "break_long_words":
			w.BreakLongWords = v.(bool)
		case "drop_whitespace":
			w.DropWhitespace = v.(bool)
		case "break_on_hyphens":
			switch b := v.(type) {
			case bool:
				w.BreakOnHyphens = b
			case float64:
				w.BreakOnHyphens, w.SimpleSplit = b != 0, true
			}
		case "tabsize":
			w.TabSize = int(v.(float64))
		case "max_lines":
			w.MaxLines, w.HasMaxLines = int(v.(float64)), true
		case "placeholder":
			w.Placeholder = v.(string)
		case "prefix":
		default:
			panic("unknown option " + k)
		}
	}
	return w
}

func encode(v any, err error) string {
	var e *Error
	if errors.As(err, &e) {
		if e.Msg == ErrLoopsForever {
			v = "HANG"
		} else {
			v = e.Type + ": " + e.Msg
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRecorded(t *testing.T) {
	f, err := os.Open("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c recCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		w := wrapperFor(c.Opts)
		var got string
		switch c.Fn {
		case "wrap":
			got = encode(w.Wrap(c.Text))
		case "fill":
			got = encode(w.Fill(c.Text))
		case "shorten":
			got = encode(Shorten(c.Text, w))
		case "dedent":
			got = encode(Dedent(c.Text), nil)
		case "indent":
			got = encode(Indent(c.Text, c.Opts["prefix"].(string), nil))
		case "indent_all":
			got = encode(Indent(c.Text, c.Opts["prefix"].(string), func(string) (bool, error) { return true, nil }))
		}
		var want any
		json.Unmarshal(c.Out, &want)
		if got != encode(want, nil) {
			t.Errorf("%s(%q, %v):\n got %s\nwant %s", c.Fn, c.Text, c.Opts, got, encode(want, nil))
		}
	}
	t.Logf("%d recorded cases", n)
}

func TestLimit(t *testing.T) {
	w := NewWrapper()
	w.Width = 1
	w.SubsequentIndent = strings.Repeat(" ", 1000)
	_, err := w.Wrap(strings.Repeat("x", 100000))
	var e *Error
	if !errors.As(err, &e) || e.Type != "LimitError" {
		t.Fatalf("got %v, want a LimitError", err)
	}
}

func BenchmarkFill(b *testing.B) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog; well-known e-mail -- and so on. ", 50)
	w := NewWrapper()
	for i := 0; i < b.N; i++ {
		w.Fill(text)
	}
}

// FuzzWrap checks that no text or options panic or hang the wrapper.
func FuzzWrap(f *testing.F) {
	f.Add("Hello there -- you goof-ball, use the -b option!", 10, "* ", "  ", uint16(0xffff), 3)
	f.Fuzz(func(t *testing.T, text string, width int, ind, sub string, flags uint16, maxLines int) {
		w := NewWrapper()
		w.Width = width%100 - 5
		w.InitialIndent, w.SubsequentIndent = ind, sub
		w.ExpandTabs = flags&1 != 0
		w.ReplaceWhitespace = flags&2 != 0
		w.FixSentenceEndings = flags&4 != 0
		w.BreakLongWords = flags&8 != 0
		w.DropWhitespace = flags&16 != 0
		w.BreakOnHyphens = flags&32 != 0
		w.SimpleSplit = flags&64 != 0
		w.HasMaxLines = flags&128 != 0
		w.MaxLines = maxLines % 10
		w.TabSize = int(flags>>8) % 9
		w.Wrap(text)
		Shorten(text, w)
		Dedent(text)
		Indent(text, ind, nil)
	})
}
