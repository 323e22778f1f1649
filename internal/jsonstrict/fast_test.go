package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

var fastSeeds = []string{
	`{}`, `[]`, `{"a":1,"a":2}`, `[1,"x",null,true,false]`, `{"a":{"b":[{"c":1e999}]}}`,
	`"\u0000"`, `[[[[[`, ` {"a" : [ 1 , 2.5e-3 , -0 , 0.0 , 1E+2 ] } `, `"a\"b\\c\/\b\f\n\r\t\u00e9\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\xfe\"", "\"caf\xc3\xa9\"", `{"k/~":1}`, `01`, `-`, `1.`, `.5`, `1e`, `[1,]`, `{"a":1,}`,
	`tru`, `nul`, `truex`, `[1 2]`, `{"a" 1}`, `{1:2}`, "\"a\tb\"", `"\x"`, `"\u12"`, `123456789012345678901234567890`,
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	`{"a":1} {"b":2}`, ``, ` `, `nullx`, `"\u2028"`,
}

// TestFastMatchesReference pins the fast path to the reference decoder.
func TestFastMatchesReference(t *testing.T) {
	for _, s := range fastSeeds {
		checkFast(t, []byte(s))
	}
}

func FuzzFastMatchesReference(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data) })
}

func checkFast(t *testing.T, data []byte) {
	t.Helper()
	want, werr := decodeReference(data)
	if got, ok := decodeFast(data, false); ok {
		if werr != nil {
			t.Fatalf("%q: fast accepted, reference failed: %v", data, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: fast %#v, reference %#v", data, got, want)
		}
	}
	// Standard mode against encoding/json itself.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var std any
	serr := dec.Decode(&std)
	if serr == nil {
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			serr = errors.New("trailing")
		}
	}
	got, err := DecodeStandard(data)
	if (err == nil) != (serr == nil) {
		t.Fatalf("%q: DecodeStandard err %v, encoding/json err %v", data, err, serr)
	}
	if err == nil && !reflect.DeepEqual(got, std) {
		t.Fatalf("%q: DecodeStandard %#v, encoding/json %#v", data, got, std)
	}
}
