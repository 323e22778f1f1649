package pystr

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// The character database recorded from CPython 3.12 by testdata/gen_ucd.py
// (regenerate with /root/.pyenv/versions/3.12.1/bin/python3.12
// testdata/gen_ucd.py, then go run gen_tables.go).

type ucdRecord struct {
	Version        string              `json:"unidata_version"`
	Category       [][3]any            `json:"category"`
	Bidirectional  [][3]any            `json:"bidirectional"`
	EastAsianWidth [][3]any            `json:"east_asian_width"`
	Combining      [][3]any            `json:"combining"`
	Flags          map[string][][2]int `json:"flags"`
	Decimal        [][2]int            `json:"decimal"`
	Digit          [][2]int            `json:"digit"`
	Numeric        [][2]any            `json:"numeric"`
	Lower          [][2]any            `json:"lower"`
	Upper          [][2]any            `json:"upper"`
	Title          [][2]any            `json:"title"`
	Casefold       [][2]any            `json:"casefold"`
	Swapcase       [][2]any            `json:"swapcase"`
	Capitalize     [][2]any            `json:"capitalize"`
	NameHash       []string            `json:"name_hash"`
	Aliases        [][3]any            `json:"aliases"`
	NamedSequences [][2]any            `json:"named_sequences"`
	NFC            []string            `json:"normalize_NFC"`
	NFD            []string            `json:"normalize_NFD"`
	NFKC           []string            `json:"normalize_NFKC"`
	NFKD           []string            `json:"normalize_NFKD"`
	ReprHash       []string            `json:"repr_hash"`
}

var ucdData *ucdRecord

func loadUCD(t *testing.T) *ucdRecord {
	t.Helper()
	if ucdData != nil {
		return ucdData
	}
	b, err := os.ReadFile("testdata/ucd.json")
	if err != nil {
		t.Fatal(err)
	}
	var u ucdRecord
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	ucdData = &u
	return ucdData
}

const maxCP = 0x110000

func isSurrogate(r rune) bool { return 0xD800 <= r && r < 0xE000 }

// expandRuns returns each code point's value of [start, end, value] runs.
func expandRuns(runs [][3]any) []string {
	out := make([]string, maxCP)
	for _, r := range runs {
		v := r[2]
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case float64:
			s = strconv.Itoa(int(v))
		}
		for cp := int(r[0].(float64)); cp <= int(r[1].(float64)); cp++ {
			out[cp] = s
		}
	}
	return out
}

func expandSet(runs [][2]int) []bool {
	out := make([]bool, maxCP)
	for _, r := range runs {
		for cp := r[0]; cp <= r[1]; cp++ {
			out[cp] = true
		}
	}
	return out
}

func TestVersion(t *testing.T) {
	u := loadUCD(t)
	if UnidataVersion != u.Version || UnidataVersion != "15.0.0" {
		t.Errorf("UnidataVersion %q, recorded %q", UnidataVersion, u.Version)
	}
	// Names and normalization come from golang.org/x/text, whose tables
	// follow the Go release: they must be those of Python 3.12.
	if runenames.UnicodeVersion != "15.0.0" || norm.Version != "15.0.0" {
		t.Errorf("golang.org/x/text tables are Unicode %s (names), %s (normalization); Python 3.12 has 15.0.0",
			runenames.UnicodeVersion, norm.Version)
	}
	if unicode.Version != "15.0.0" {
		t.Logf("note: Go's unicode package is Unicode %s; pystr does not use it for its answers", unicode.Version)
	}
}

func TestEveryCodePointProperties(t *testing.T) {
	u := loadUCD(t)
	props := []struct {
		name string
		runs [][3]any
		fn   func(rune) string
	}{
		{"category", u.Category, Category},
		{"bidirectional", u.Bidirectional, Bidirectional},
		{"east_asian_width", u.EastAsianWidth, EastAsianWidth},
		{"combining", u.Combining, func(r rune) string { return strconv.Itoa(Combining(r)) }},
	}
	for _, p := range props {
		want := expandRuns(p.runs)
		bad := 0
		for cp := rune(0); cp < maxCP; cp++ {
			if got := p.fn(cp); got != want[cp] {
				if bad++; bad <= 5 {
					t.Errorf("%s(%U) = %q, want %q", p.name, cp, got, want[cp])
				}
			}
		}
	}
}

func TestEveryCodePointPredicates(t *testing.T) {
	u := loadUCD(t)
	one := func(f func(string) bool) func(rune) bool {
		return func(r rune) bool { return f(string(r)) }
	}
	preds := map[string]func(rune) bool{
		"alpha":        one(IsAlpha),
		"decimal":      one(IsDecimal),
		"digit":        one(IsDigit),
		"numeric":      one(IsNumeric),
		"space":        one(IsSpace),
		"printable":    one(IsPrintable),
		"linebreak":    func(r rune) bool { return len(SplitLines("a"+string(r)+"a", false)) == 2 },
		"xid_start":    one(IsIdentifier),
		"xid_continue": func(r rune) bool { return IsIdentifier("a" + string(r)) },
		"islower":      one(IsLower),
		"isupper":      one(IsUpper),
		"istitle":      one(IsTitle),
		"mirrored":     func(r rune) bool { return Mirrored(r) == 1 },
		"lowercase":    func(r rune) bool { return hasFlag(r, fLowercase) },
		"uppercase":    func(r rune) bool { return hasFlag(r, fUppercase) },
		// Cased and case-ignorable, through the behaviour they drive.
		"cased": func(r rune) bool { return strings.HasSuffix(Title(string(r)+"a"), "a") },
		"case_ignorable": func(r rune) bool {
			if hasFlag(r, fCased) {
				return strings.HasSuffix(Lower(" "+string(r)+"Σ"), "σ")
			}
			return []rune(Lower("AΣ" + string(r) + "A"))[1] == 'σ'
		},
	}
	for name, f := range preds {
		runs, ok := u.Flags[name]
		if !ok {
			t.Fatalf("no recorded flag %s", name)
		}
		want := expandSet(runs)
		bad := 0
		for cp := rune(0); cp < maxCP; cp++ {
			if isSurrogate(cp) {
				continue
			}
			if got := f(cp); got != want[cp] {
				if bad++; bad <= 5 {
					t.Errorf("%s(%U) = %v, want %v", name, cp, got, want[cp])
				}
			}
		}
	}
	// isalnum and isascii follow from the others.
	alnum := expandSet(u.Flags["alpha"])
	for _, n := range []string{"decimal", "digit", "numeric"} {
		for cp, v := range expandSet(u.Flags[n]) {
			alnum[cp] = alnum[cp] || v
		}
	}
	for cp := rune(0); cp < maxCP; cp++ {
		if !isSurrogate(cp) && IsAlnum(string(cp)) != alnum[cp] {
			t.Errorf("IsAlnum(%U) = %v", cp, !alnum[cp])
		}
	}
}

func TestEveryCodePointValues(t *testing.T) {
	u := loadUCD(t)
	dec, dig := map[rune]int{}, map[rune]int{}
	num := map[rune]float64{}
	for _, d := range u.Decimal {
		dec[rune(d[0])] = d[1]
	}
	for _, d := range u.Digit {
		dig[rune(d[0])] = d[1]
	}
	for _, n := range u.Numeric {
		v, err := strconv.ParseFloat(n[1].(string), 64)
		if err != nil {
			t.Fatal(err)
		}
		num[rune(n[0].(float64))] = v
	}
	for cp := rune(0); cp < maxCP; cp++ {
		d, err := Decimal(cp)
		if w, ok := dec[cp]; ok != (err == nil) || ok && d != w {
			t.Errorf("Decimal(%U) = %d, %v; want %d, %v", cp, d, err, w, ok)
		}
		d, err = Digit(cp)
		if w, ok := dig[cp]; ok != (err == nil) || ok && d != w {
			t.Errorf("Digit(%U) = %d, %v; want %d, %v", cp, d, err, w, ok)
		}
		f, err := Numeric(cp)
		if w, ok := num[cp]; ok != (err == nil) || ok && f != w {
			t.Errorf("Numeric(%U) = %v, %v; want %v, %v", cp, f, err, w, ok)
		}
	}
}

func TestEveryCodePointCase(t *testing.T) {
	u := loadUCD(t)
	maps := []struct {
		name    string
		entries [][2]any
		fn      func(string) string
	}{
		{"lower", u.Lower, Lower},
		{"upper", u.Upper, Upper},
		{"title", u.Title, Title},
		{"casefold", u.Casefold, Casefold},
		{"swapcase", u.Swapcase, SwapCase},
		{"capitalize", u.Capitalize, Capitalize},
	}
	for _, m := range maps {
		want := map[rune]string{}
		for _, e := range m.entries {
			var rs []rune
			for _, x := range e[1].([]any) {
				rs = append(rs, rune(x.(float64)))
			}
			want[rune(e[0].(float64))] = string(rs)
		}
		bad := 0
		for cp := rune(0); cp < maxCP; cp++ {
			if isSurrogate(cp) {
				continue
			}
			w, ok := want[cp]
			if !ok {
				w = string(cp)
			}
			if got := m.fn(string(cp)); got != w {
				if bad++; bad <= 5 {
					t.Errorf("%s(%U) = %+q, want %+q", m.name, cp, got, w)
				}
			}
		}
	}
}

// blockHash hashes fn over the code points of each block of 256, as
// testdata/gen_ucd.py.
func blockHash(fn func(rune) string) []string {
	var out []string
	for b := rune(0); b < maxCP; b += 256 {
		h := sha256.New()
		for cp := b; cp < b+256; cp++ {
			if !isSurrogate(cp) {
				h.Write([]byte(fn(cp)))
			}
			h.Write([]byte{0})
		}
		out = append(out, hex.EncodeToString(h.Sum(nil))[:16])
	}
	return out
}

func compareBlocks(t *testing.T, name string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d blocks, want %d", name, len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("%s differs in block %#x-%#x", name, i*256, i*256+255)
			}
		}
	}
}

func TestEveryCodePointNames(t *testing.T) {
	u := loadUCD(t)
	compareBlocks(t, "name", blockHash(func(r rune) string {
		n, _ := Name(r)
		return n
	}), u.NameHash)
	// Every name looks up its character.
	for cp := rune(0); cp < maxCP; cp += 1 {
		n, err := Name(cp)
		if err != nil {
			continue
		}
		got, err := Lookup(n)
		if err != nil || got != string(cp) {
			t.Errorf("Lookup(%q) = %+q, %v; want %U", n, got, err, cp)
		}
	}
	for _, a := range u.Aliases {
		name, cp := a[0].(string), rune(a[1].(float64))
		if got, err := Lookup(name); err != nil || got != string(cp) {
			t.Errorf("Lookup(alias %q) = %+q, %v", name, got, err)
		}
		if got, err := LookupCodePoint(strings.ToLower(name)); err != nil || got != cp {
			t.Errorf("LookupCodePoint(alias %q) = %U, %v", name, got, err)
		}
	}
	for _, a := range u.NamedSequences {
		name := a[0].(string)
		var rs []rune
		for _, x := range a[1].([]any) {
			rs = append(rs, rune(x.(float64)))
		}
		if got, err := Lookup(name); err != nil || got != string(rs) {
			t.Errorf("Lookup(sequence %q) = %+q, %v", name, got, err)
		}
		if _, err := LookupCodePoint(name); err == nil {
			t.Errorf("LookupCodePoint(sequence %q) succeeded", name)
		}
	}
}

func TestEveryCodePointNormalize(t *testing.T) {
	u := loadUCD(t)
	for _, f := range []struct {
		form string
		want []string
	}{{"NFC", u.NFC}, {"NFD", u.NFD}, {"NFKC", u.NFKC}, {"NFKD", u.NFKD}} {
		compareBlocks(t, f.form, blockHash(func(r rune) string {
			s, err := Normalize(f.form, string(r))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}), f.want)
	}
}

func TestEveryCodePointRepr(t *testing.T) {
	u := loadUCD(t)
	compareBlocks(t, "repr", blockHash(func(r rune) string {
		q := Repr(string(r))
		return q[1 : len(q)-1]
	}), u.ReprHash)
}
