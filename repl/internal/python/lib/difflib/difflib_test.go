package difflib

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// testdata/cases.json records CPython 3.12's results; regenerate with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json

type recCase struct {
	Kind      string               `json:"kind"`
	A         json.RawMessage      `json:"a"`
	B         json.RawMessage      `json:"b"`
	Junk      *string              `json:"junk"`
	AutoJunk  bool                 `json:"autojunk"`
	Longest   []int                `json:"longest"`
	Sub       []any                `json:"sub"`
	Blocks    [][]int              `json:"blocks"`
	Opcodes   [][]any              `json:"opcodes"`
	Grouped   map[string][][][]any `json:"grouped"`
	Ratio     string               `json:"ratio"`
	Quick     string               `json:"quick"`
	RealQuick string               `json:"realquick"`
	B2J       [][]any              `json:"b2j"`
	BJunk     []string             `json:"bjunk"`
	BPopular  []string             `json:"bpopular"`
	Word      string               `json:"word"`
	N         int                  `json:"n"`
	Cutoff    float64              `json:"cutoff"`
	KW        map[string]string    `json:"kw"`
	Out       json.RawMessage      `json:"out"`
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// norm re-encodes recorded JSON so that it compares with js's output.
func norm(raw json.RawMessage) string {
	var v any
	json.Unmarshal(raw, &v)
	return js(v)
}

func floatRepr(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func opsJSON(ops []Opcode) []any {
	out := []any{}
	for _, o := range ops {
		out = append(out, []any{o.Tag, o.I1, o.I2, o.J1, o.J2})
	}
	return out
}

func TestRecorded(t *testing.T) {
	ctx := context.Background()
	f, err := os.Open("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	counts := map[string]int{}
	for sc.Scan() {
		var c recCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		counts[c.Kind]++
		var as, bs string
		var al, bl []string
		json.Unmarshal(c.A, &as)
		json.Unmarshal(c.B, &bs)
		json.Unmarshal(c.A, &al)
		json.Unmarshal(c.B, &bl)
		check := func(what, got, want string) {
			if got != want {
				t.Errorf("%s(%s, %s) %s:\n got %s\nwant %s", c.Kind, c.A, c.B, what, got, want)
			}
		}
		switch c.Kind {
		case "matcher":
			var junk func(rune) (bool, error)
			if c.Junk != nil {
				set := *c.Junk
				junk = func(r rune) (bool, error) { return strings.ContainsRune(set, r), nil }
			}
			m, err := NewSequenceMatcher(junk, []rune(as), []rune(bs), c.AutoJunk)
			if err != nil {
				t.Fatal(err)
			}
			lm, _ := m.FindLongestMatch(ctx, 0, len([]rune(as)), 0, len([]rune(bs)))
			check("longest", js([]int{lm.A, lm.B, lm.Size}), js(c.Longest))
			if c.Sub != nil {
				b := func(i int) int { return int(c.Sub[i].(float64)) }
				sm, _ := m.FindLongestMatch(ctx, b(0), b(1), b(2), b(3))
				check("sub longest", js([]int{sm.A, sm.B, sm.Size}), js(c.Sub[4]))
			}
			blocks, _ := m.GetMatchingBlocks(ctx)
			var bj [][]int
			for _, x := range blocks {
				bj = append(bj, []int{x.A, x.B, x.Size})
			}
			check("blocks", js(bj), js(c.Blocks))
			ops, _ := m.GetOpcodes(ctx)
			check("opcodes", js(opsJSON(ops)), js(c.Opcodes))
			// In CPython's order: each call trims the cached opcodes.
			for _, ns := range []string{"0", "1", "3"} {
				want := c.Grouped[ns]
				n, _ := strconv.Atoi(ns)
				groups, _ := m.GetGroupedOpcodes(ctx, n)
				got := []any{}
				for _, g := range groups {
					got = append(got, opsJSON(g))
				}
				check("grouped "+ns, js(got), js(want))
			}
			r, _ := m.Ratio(ctx)
			check("ratio", floatRepr(r), c.Ratio)
			check("quick", floatRepr(m.QuickRatio()), c.Quick)
			check("realquick", floatRepr(m.RealQuickRatio()), c.RealQuick)
			b2j := [][]any{}
			for k, v := range m.B2J() {
				b2j = append(b2j, []any{string(k), v})
			}
			sort.Slice(b2j, func(i, j int) bool { return b2j[i][0].(string) < b2j[j][0].(string) })
			check("b2j", js(b2j), js(c.B2J))
			set := func(s map[rune]bool) []string {
				out := []string{}
				for k := range s {
					out = append(out, string(k))
				}
				sort.Strings(out)
				return out
			}
			check("bjunk", js(set(m.BJunk())), js(c.BJunk))
			check("bpopular", js(set(m.BPopular())), js(c.BPopular))
		case "close":
			out, err := GetCloseMatches(ctx, c.Word, []string{"ape", "apple", "peach", "puppy", "applet", "appel", "aple", "pineapple", "happy", "zebra", "ape ", "Apple", "pplea"},
				c.N, c.Cutoff, fmt.Sprint(c.N), floatRepr(c.Cutoff))
			var got any = out
			if err != nil {
				var e *Error
				errors.As(err, &e)
				got = e.Type + ": " + e.Msg
			}
			check("close "+c.Word, js(got), norm(c.Out))
		case "unified", "context":
			o := DefaultDiffOptions()
			o.N = c.N
			if len(c.KW) > 0 {
				o.FromFile, o.ToFile, o.FromFileDate, o.ToFileDate, o.LineTerm = c.KW["fromfile"], c.KW["tofile"], c.KW["fromfiledate"], c.KW["tofiledate"], c.KW["lineterm"]
			}
			var out []string
			if c.Kind == "unified" {
				out, err = UnifiedDiff(ctx, al, bl, o)
			} else {
				out, err = ContextDiff(ctx, al, bl, o)
			}
			if err != nil {
				t.Fatal(err)
			}
			if out == nil {
				out = []string{}
			}
			check("diff", js(out), norm(c.Out))
		case "ndiff", "differ_linejunk":
			d := NDiff()
			if c.Kind == "differ_linejunk" {
				d = &Differ{LineJunk: func(s string) (bool, error) { return IsLineJunk(s), nil }}
			}
			out, err := d.Compare(ctx, al, bl)
			if err != nil {
				t.Fatal(err)
			}
			if out == nil {
				out = []string{}
			}
			check("compare", js(out), norm(c.Out))
		case "restore":
			delta, _ := NDiff().Compare(ctx, al, bl)
			r1, _ := Restore(delta, 1)
			r2, _ := Restore(delta, 2)
			if r1 == nil {
				r1 = []string{}
			}
			if r2 == nil {
				r2 = []string{}
			}
			check("restore", js([]any{r1, r2}), norm(c.Out))
		case "linejunk":
			check("IS_LINE_JUNK", js(IsLineJunk(as)), norm(c.Out))
		}
	}
	t.Logf("recorded cases: %v", counts)
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := []rune(strings.Repeat("abcd", 2000))
	m, _ := NewSequenceMatcher[rune](nil, a, a[1:], false)
	if _, err := m.GetOpcodes(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("GetOpcodes on a cancelled context: %v", err)
	}
	// The matcher still works afterwards.
	r, err := m.Ratio(context.Background())
	if err != nil || r < 0.99 {
		t.Fatalf("Ratio = %v, %v", r, err)
	}
}

func BenchmarkRatio(b *testing.B) {
	x := []rune(strings.Repeat("the quick brown fox jumps over the lazy dog ", 20))
	y := []rune(strings.Repeat("the quick brown cat jumps over the lazy dog ", 20))
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		m, _ := NewSequenceMatcher[rune](nil, x, y, true)
		m.Ratio(ctx)
	}
}

func BenchmarkNDiff(b *testing.B) {
	var x, y []string
	for i := 0; i < 200; i++ {
		x = append(x, fmt.Sprintf("line %d of the file\n", i))
		y = append(y, fmt.Sprintf("line %d of the file\n", i+i%7))
	}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		NDiff().Compare(ctx, x, y)
	}
}
