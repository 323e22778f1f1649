package plan

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

func TestEncodeJSON(t *testing.T) {
	h := corpus.Handle{ID: "ctx-3", Version: 2}
	tests := []struct {
		in   Value
		want string
	}{
		{nil, `null`},
		{true, `true`},
		{int64(-3), `-3`},
		{2.5, `2.5`},
		{1e21, `1e+21`},
		{1e-7, `1e-7`},
		{100.0, `100`},
		{"<a&b>\n\"é", `"<a&b>\n\"é"`},
		{h, `{"handle":"ctx-3@2"}`},
		{[]any{int64(1), "x", []any{}}, `[1,"x",[]]`},
		{map[string]any{"b": int64(1), "a": map[string]any{"h": h}}, `{"a":{"h":{"handle":"ctx-3@2"}},"b":1}`},
		{[]int{1, 2}, `[1,2]`},
		{struct {
			A int `json:"a"`
		}{7}, `{"a":7}`},
	}
	for _, tt := range tests {
		got, err := EncodeJSON(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("EncodeJSON(%#v) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []Value{math.NaN(), math.Inf(1), []any{make(chan int)}, func() {}} {
		if _, err := EncodeJSON(bad); fault.KindOf(err) != KindTypeError {
			t.Errorf("EncodeJSON(%T): want type_error, got %v", bad, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	h := corpus.Handle{ID: "ctx-1", Version: 1}
	v, err := Normalize(map[string]any{
		"ints":   []int32{1, 2},
		"u":      uint8(7),
		"f":      float32(0.5),
		"handle": &h,
		"chunks": []corpus.Chunk{{Index: 1, Start: 2, Length: 3, Handle: &h}},
		"nil":    (*corpus.Handle)(nil),
		"bytes":  []byte("hi"),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := EncodeJSON(v)
	want := `{"bytes":"aGk=","chunks":[{"handle":{"handle":"ctx-1@1"},"index":1,"length":3,"start":2}],"f":0.5,"handle":{"handle":"ctx-1@1"},"ints":[1,2],"nil":null,"u":7}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if _, ok := v.(map[string]any)["handle"].(corpus.Handle); !ok {
		t.Fatal("*corpus.Handle must become corpus.Handle")
	}
	chunk := v.(map[string]any)["chunks"].([]any)[0].(map[string]any)
	if _, ok := chunk["handle"].(corpus.Handle); !ok {
		t.Fatal("a handle inside a struct must stay a handle")
	}
	// json.Marshaler and embedded structs go through encoding/json.
	type inner struct {
		X int `json:"x"`
	}
	type outer struct {
		inner
		Y   string `json:"y,omitempty"`
		Z   int    `json:"-"`
		N   int    `json:"n,string"`
		low int
	}
	for _, tc := range []struct {
		in   any
		want string
	}{
		{outer{inner: inner{1}, Z: 3, low: 4}, `{"n":"0","x":1}`}, // an unexported field is left out
		{struct{ A, B int }{1, 2}, `{"A":1,"B":2}`},
		{fault.Wrap(errors.New("io"), fault.PhaseTool, "k", "m").With("a", 1), `{"cause":"io","detail":{"a":1},"kind":"k","message":"m","phase":"tool"}`},
		{struct {
			S []int `json:"s,omitempty"`
			P *int  `json:"p"`
		}{}, `{"p":null}`},
	} {
		in, want := tc.in, tc.want
		n, err := Normalize(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := EncodeJSON(n); got != want {
			t.Errorf("Normalize(%T) = %s, want %s", in, got, want)
		}
	}
}

func TestPreview(t *testing.T) {
	h := corpus.Handle{ID: "ctx-3", Version: 1}
	long := strings.Repeat("abcdefghij", 100)
	list := make([]any, 50)
	for i := range list {
		list[i] = map[string]any{"index": int64(i), "handle": h}
	}
	tests := []struct {
		name string
		v    Value
		max  int
		want string
	}{
		{"small", map[string]any{"a": int64(1)}, 100, `{"a":1}`},
		{"handle", h, 100, `{"handle":"ctx-3@1"}`},
		{"long string", long, 40, `"abcdefghijabcdefghijabc… (1000 bytes)`},
		{"list", list, 120, `(50 items) [{"handle":{"handle":"ctx-3@1"},"index":0},{"handle":{"handle":"ctx-3@1"},"index":1}, …]`},
		{"object", map[string]any{"text": long, "n": int64(3)}, 60, `(2 keys) {"n":3,"text":"abcdefghijabcde… (1000 bytes)}`},
		{"number cut", int64(1234567), 4, `1234`},
		{"huge list bounded", make([]any, 100000), 20, `(100000 items) […]`},
		{"escapes not split", strings.Repeat("\n", 100), 30, `"\n\n\n\n\n\n\n… (100 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Preview(tt.v, tt.max)
			if got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
			if len(got) > tt.max {
				t.Fatalf("preview is %d bytes, over %d", len(got), tt.max)
			}
		})
	}
	// Multi-byte text is cut on a character boundary at every size.
	s := strings.Repeat("é世🙂", 50)
	for n := 1; n < 120; n++ {
		got := Preview([]any{s, s}, n)
		if len(got) > n || !utf8.ValidString(got) {
			t.Fatalf("size %d: %q", n, got)
		}
	}
	if got := Preview(long, 0); len(got) > DefaultPreviewBytes {
		t.Fatalf("default size: %d bytes", len(got))
	}
}
