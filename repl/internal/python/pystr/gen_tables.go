//go:build ignore

// gen_tables writes tables.go from testdata/ucd.json, the character
// database recorded from CPython 3.12 by testdata/gen_ucd.py. Run it from
// this directory:
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_ucd.py
//	go run gen_tables.go
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"log"
	"os"
	"sort"
	"strconv"
)

type ucd struct {
	Version        string              `json:"unidata_version"`
	Category       [][3]any            `json:"category"`
	Bidirectional  [][3]any            `json:"bidirectional"`
	EastAsianWidth [][3]any            `json:"east_asian_width"`
	Combining      [][3]any            `json:"combining"`
	Flags          map[string][][2]int `json:"flags"`
	Decimal        [][2]int            `json:"decimal"`
	Digit          [][2]int            `json:"digit"`
	Numeric        [][2]any            `json:"numeric"`
	Lower          []caseEntry         `json:"lower"`
	Upper          []caseEntry         `json:"upper"`
	Title          []caseEntry         `json:"title"`
	Casefold       []caseEntry         `json:"casefold"`
	CJK            [][2]int            `json:"cjk_unified_ranges"`
	Aliases        [][3]any            `json:"aliases"`
	NamedSequences [][2]any            `json:"named_sequences"`
}

type caseEntry [2]any

const maxRune = 0x110000

// Flag bits, as in charinfo.go.
var flagNames = []string{
	"alpha", "decimal", "digit", "numeric", "space", "printable", "linebreak",
	"xid_start", "xid_continue", "lowercase", "uppercase", "cased",
	"case_ignorable", "mirrored",
}

type record struct {
	cat, bidi, eaw, ccc uint8
	flags               uint16
	digit               uint8
	lower, upper, title int32
	fold                int32
}

func main() {
	data, err := os.ReadFile("testdata/ucd.json")
	if err != nil {
		log.Fatal(err)
	}
	var u ucd
	if err := json.Unmarshal(data, &u); err != nil {
		log.Fatal(err)
	}
	recs := make([]record, maxRune)

	catNames, cats := enumRuns(u.Category)
	bidiNames, bidis := enumRuns(u.Bidirectional)
	eawNames, eaws := enumRuns(u.EastAsianWidth)
	for _, r := range u.Combining {
		for cp := num(r[0]); cp <= num(r[1]); cp++ {
			recs[cp].ccc = uint8(num(r[2]))
		}
	}
	for cp := range recs {
		recs[cp].cat = cats[cp]
		recs[cp].bidi = bidis[cp]
		recs[cp].eaw = eaws[cp]
		recs[cp].digit = 0xFF
	}
	for i, name := range flagNames {
		runs, ok := u.Flags[name]
		if !ok {
			log.Fatalf("no flag %s", name)
		}
		for _, r := range runs {
			for cp := r[0]; cp <= r[1]; cp++ {
				recs[cp].flags |= 1 << i
			}
		}
	}
	for _, d := range u.Digit {
		recs[d[0]].digit = uint8(d[1])
	}
	for _, d := range u.Decimal {
		if recs[d[0]].digit != uint8(d[1]) {
			log.Fatalf("decimal %x differs from digit", d[0])
		}
	}
	// Numeric values of characters that have no digit value.
	var numCP []int
	var numVal []string
	for _, n := range u.Numeric {
		cp := num(n[0])
		v, err := strconv.ParseFloat(n[1].(string), 64)
		if err != nil {
			log.Fatal(err)
		}
		if d := recs[cp].digit; d != 0xFF {
			if float64(d) != v {
				log.Fatalf("numeric %x differs from digit", cp)
			}
			continue
		}
		numCP = append(numCP, cp)
		numVal = append(numVal, strconv.FormatFloat(v, 'g', -1, 64))
	}

	// Case mappings: a delta, or an index in specialCase with caseSpecial set.
	var specials []string
	specialIndex := map[string]int{}
	setCase := func(entries []caseEntry, field func(*record) *int32) {
		for _, e := range entries {
			cp := num(e[0])
			var cps []rune
			for _, x := range e[1].([]any) {
				cps = append(cps, rune(num(x)))
			}
			var v int32
			if len(cps) == 1 {
				v = int32(cps[0]) - int32(cp)
			} else {
				s := string(cps)
				i, ok := specialIndex[s]
				if !ok {
					i = len(specials)
					specials = append(specials, s)
					specialIndex[s] = i
				}
				v = caseSpecial | int32(i)
			}
			*field(&recs[cp]) = v
		}
	}
	setCase(u.Lower, func(r *record) *int32 { return &r.lower })
	setCase(u.Upper, func(r *record) *int32 { return &r.upper })
	setCase(u.Title, func(r *record) *int32 { return &r.title })
	setCase(u.Casefold, func(r *record) *int32 { return &r.fold })

	// Unique records, then a two-level index chosen for the smallest size.
	recIndex := map[record]int{}
	var uniq []record
	idx := make([]int, maxRune)
	for cp, r := range recs {
		i, ok := recIndex[r]
		if !ok {
			i = len(uniq)
			uniq = append(uniq, r)
			recIndex[r] = i
		}
		idx[cp] = i
	}
	if len(uniq) > 1<<16 {
		log.Fatal("too many records")
	}
	// Three levels: recordIndex1 by the high bits picks a block of
	// recordIndex2, which by the middle bits picks a block of recordIndex3.
	best := struct {
		s1, s2, size int
		i1, i2, i3   []int
	}{size: 1 << 62}
	for s1 := 5; s1 <= 11; s1++ {
		i1, rest := split(idx, s1)
		for s2 := 2; s2 < s1; s2++ {
			i2, i3 := split(rest, s2)
			size := len(i1)*width(max(i1)) + len(i2)*width(max(i2)) + len(i3)*width(max(i3))
			if size < best.size {
				best.s1, best.s2, best.size, best.i1, best.i2, best.i3 = s1, s2, size, i1, i2, i3
			}
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"go run gen_tables.go\" from testdata/ucd.json; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package pystr\n\n")
	fmt.Fprintf(&b, "// unidataVersion is the Unicode version of the tables, as Python's unicodedata.unidata_version.\n")
	fmt.Fprintf(&b, "const unidataVersion = %q\n\n", u.Version)
	fmt.Fprintf(&b, "const (\n\trecordShift1 = %d\n\trecordShift2 = %d\n)\n\n", best.s1, best.s2)
	writeStrings(&b, "categoryNames", catNames)
	for i, c := range catNames {
		if c == "Lt" {
			fmt.Fprintf(&b, "// catLt is the index of \"Lt\" in categoryNames.\nconst catLt = %d\n\n", i)
		}
	}
	writeStrings(&b, "bidiNames", bidiNames)
	writeStrings(&b, "eastAsianWidthNames", eawNames)
	fmt.Fprintf(&b, "var records = [...]charInfo{\n")
	for _, r := range uniq {
		fmt.Fprintf(&b, "\t{%d, %d, %d, %d, %#x, %d, %d, %d, %d, %d},\n", r.cat, r.bidi, r.eaw, r.ccc, r.flags, r.digit, r.lower, r.upper, r.title, r.fold)
	}
	fmt.Fprintf(&b, "}\n\n")
	writeInts(&b, "recordIndex1", best.i1)
	writeInts(&b, "recordIndex2", best.i2)
	writeInts(&b, "recordIndex3", best.i3)
	writeStrings(&b, "specialCase", specials)
	writeInts(&b, "numericCodePoints", numCP)
	fmt.Fprintf(&b, "var numericValues = [...]float64{")
	for i, v := range numVal {
		if i%8 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s,", v)
	}
	fmt.Fprintf(&b, "\n}\n\n")
	var cjk []int
	for _, r := range u.CJK {
		cjk = append(cjk, r[0], r[1])
	}
	fmt.Fprintf(&b, "// cjkUnified holds the ranges (first, last) of the code points named\n// \"CJK UNIFIED IDEOGRAPH-XXXX\".\n")
	writeInts(&b, "cjkUnified", cjk)
	fmt.Fprintf(&b, "var nameAliases = [...]nameAlias{\n")
	for _, a := range u.Aliases {
		fmt.Fprintf(&b, "\t{%q, %#x},\n", a[0].(string), num(a[1]))
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "var namedSequences = [...]namedSequence{\n")
	for _, a := range u.NamedSequences {
		var cps []rune
		for _, x := range a[1].([]any) {
			cps = append(cps, rune(num(x)))
		}
		fmt.Fprintf(&b, "\t{%q, %q},\n", a[0].(string), string(cps))
	}
	fmt.Fprintf(&b, "}\n")
	writeCodecs(&b)
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.WriteFile("tables.go", b.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile("tables.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("records %d, shifts %d/%d, index %d+%d+%d entries (%d bytes), specials %d, numeric %d\n",
		len(uniq), best.s1, best.s2, len(best.i1), len(best.i2), len(best.i3), best.size, len(specials), len(numCP))
}

const caseSpecial = 1 << 30

func num(v any) int {
	switch v := v.(type) {
	case float64:
		return int(v)
	case int:
		return v
	}
	log.Fatalf("not a number: %v", v)
	return 0
}

// enumRuns numbers the distinct string values of runs, in order of first
// appearance, and returns each code point's number.
func enumRuns(runs [][3]any) ([]string, []uint8) {
	var names []string
	index := map[string]int{}
	out := make([]uint8, maxRune)
	for _, r := range runs {
		s := fmt.Sprint(r[2])
		i, ok := index[s]
		if !ok {
			i = len(names)
			names = append(names, s)
			index[s] = i
		}
		for cp := num(r[0]); cp <= num(r[1]); cp++ {
			out[cp] = uint8(i)
		}
	}
	return names, out
}

// split turns idx into a first-level table of block numbers and a second
// level of distinct blocks of 1<<shift entries.
func split(idx []int, shift int) (i1, i2 []int) {
	size := 1 << shift
	blocks := map[string]int{}
	for start := 0; start < len(idx); start += size {
		key := fmt.Sprint(idx[start : start+size])
		n, ok := blocks[key]
		if !ok {
			n = len(i2) >> shift
			blocks[key] = n
			i2 = append(i2, idx[start:start+size]...)
		}
		i1 = append(i1, n)
	}
	return i1, i2
}

func max(v []int) int {
	m := 0
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	return m
}

func width(m int) int {
	switch {
	case m < 1<<8:
		return 1
	case m < 1<<16:
		return 2
	}
	return 4
}

func goType(m int) string {
	switch width(m) {
	case 1:
		return "uint8"
	case 2:
		return "uint16"
	}
	return "uint32"
}

func writeInts(b *bytes.Buffer, name string, v []int) {
	fmt.Fprintf(b, "var %s = [...]%s{", name, goType(max(v)))
	for i, x := range v {
		if i%16 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%d,", x)
	}
	fmt.Fprintf(b, "\n}\n\n")
}

func writeStrings(b *bytes.Buffer, name string, v []string) {
	fmt.Fprintf(b, "var %s = [...]string{", name)
	for i, x := range v {
		if i%8 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%q,", x)
	}
	fmt.Fprintf(b, "\n}\n\n")
}

type codecNames struct {
	Supported map[string]string `json:"supported"`
	Aliases   map[string]string `json:"aliases"`
	CP1252    []int             `json:"cp1252"`
	Aliases2  []string          `json:"known_aliases"`
	Modules   []string          `json:"known_modules"`
}

func writeCodecs(b *bytes.Buffer) {
	data, err := os.ReadFile("testdata/codecs.json")
	if err != nil {
		log.Fatal(err)
	}
	var c codecNames
	if err := json.Unmarshal(data, &c); err != nil {
		log.Fatal(err)
	}
	var keys []string
	for k := range c.Aliases {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "// codecAliases maps the aliases of the supported codecs (Python's\n// encodings.aliases), sorted, to their module names.\n")
	fmt.Fprintf(b, "var codecAliases = [...][2]string{\n")
	for _, k := range keys {
		fmt.Fprintf(b, "\t{%q, %q},\n", k, c.Aliases[k])
	}
	fmt.Fprintf(b, "}\n\n")
	keys = keys[:0]
	for k := range c.Supported {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "// codecNames maps the module names of the supported codecs, sorted,\n// to the names codecs.lookup reports.\n")
	fmt.Fprintf(b, "var codecNames = [...][2]string{\n")
	for _, k := range keys {
		fmt.Fprintf(b, "\t{%q, %q},\n", k, c.Supported[k])
	}
	fmt.Fprintf(b, "}\n\n")
	fmt.Fprintf(b, "// cp1252High maps the bytes 0x80-0x9F of cp1252; 0 for undefined.\n")
	var high []int
	for _, v := range c.CP1252[0x80:0xA0] {
		high = append(high, max([]int{v, 0}))
	}
	writeInts(b, "cp1252High", high)
	for i, v := range c.CP1252 {
		if (i < 0x80 || i >= 0xA0) && v != i {
			log.Fatalf("cp1252 byte %#x is not latin-1", i)
		}
	}
	fmt.Fprintf(b, "// knownAliases and knownModules list, sorted, the encoding aliases and\n// codec modules Python has.\n")
	sort.Strings(c.Aliases2)
	sort.Strings(c.Modules)
	writeStrings(b, "knownAliases", c.Aliases2)
	writeStrings(b, "knownModules", c.Modules)
}
