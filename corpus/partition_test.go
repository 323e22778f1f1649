package corpus

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPartition(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		text      string
		opt       PartitionOptions
		lim       Limits
		want      []Chunk // Index is filled in by position
		truncated bool
		kind      string
	}{
		{
			name: "bytes cuts at line end in last tenth",
			text: strings.Repeat("x", 18) + "\n" + strings.Repeat("y", 30),
			opt:  PartitionOptions{Strategy: StrategyBytes, Size: 20},
			want: []Chunk{{Start: 0, Length: 19}, {Start: 19, Length: 20}, {Start: 39, Length: 10}},
		},
		{
			name: "bytes ignores line end before last tenth",
			text: "ab\n" + strings.Repeat("y", 30),
			opt:  PartitionOptions{Strategy: StrategyBytes, Size: 20},
			want: []Chunk{{Start: 0, Length: 20}, {Start: 20, Length: 13}},
		},
		{
			name: "bytes snaps back to rune start",
			text: "aaaa€€€",
			opt:  PartitionOptions{Strategy: StrategyBytes, Size: 5},
			want: []Chunk{{Start: 0, Length: 4}, {Start: 4, Length: 3}, {Start: 7, Length: 3}, {Start: 10, Length: 3}},
		},
		{
			name: "bytes smaller than a character",
			text: "€😀a",
			opt:  PartitionOptions{Strategy: StrategyBytes, Size: 1},
			want: []Chunk{{Start: 0, Length: 3}, {Start: 3, Length: 4}, {Start: 7, Length: 1}},
		},
		{
			name: "lines",
			text: "a\nb\nc\nd\ne",
			opt:  PartitionOptions{Strategy: StrategyLines, Size: 2},
			want: []Chunk{{Start: 0, Length: 4}, {Start: 4, Length: 4}, {Start: 8, Length: 1}},
		},
		{
			name: "lines final newline",
			text: "a\nb\n",
			opt:  PartitionOptions{Strategy: StrategyLines, Size: 1},
			want: []Chunk{{Start: 0, Length: 2}, {Start: 2, Length: 2}},
		},
		{
			name: "empty text",
			text: "",
			opt:  PartitionOptions{Strategy: StrategyLines, Size: 1},
			want: []Chunk{},
		},
		{
			name:      "max results",
			text:      "a\nb\nc\n",
			opt:       PartitionOptions{Strategy: StrategyLines, Size: 1},
			lim:       Limits{MaxResults: 2},
			want:      []Chunk{{Start: 0, Length: 2}, {Start: 2, Length: 2}},
			truncated: true,
		},
		{
			name: "with text",
			text: "añ\nb\n",
			opt:  PartitionOptions{Strategy: StrategyLines, Size: 1, WithText: true},
			want: []Chunk{{Start: 0, Length: 4, Text: ptr("añ\n")}, {Start: 4, Length: 2, Text: ptr("b\n")}},
		},
		{
			name:      "with text cut by max bytes",
			text:      "a\nñb\nc\n",
			opt:       PartitionOptions{Strategy: StrategyLines, Size: 1, WithText: true},
			lim:       Limits{MaxBytes: 3},
			want:      []Chunk{{Start: 0, Length: 2, Text: ptr("a\n")}, {Start: 2, Length: 4, Text: ptr(""), Truncated: true}},
			truncated: true,
		},
		{name: "bad strategy", text: "x", opt: PartitionOptions{Strategy: "words", Size: 1}, kind: string(KindInvalidAction)},
		{name: "zero size", text: "x", opt: PartitionOptions{Strategy: StrategyBytes}, kind: string(KindInvalidAction)},
		{name: "bad limit", text: "x", opt: PartitionOptions{Strategy: StrategyBytes, Size: 1}, lim: Limits{MaxBytes: -1}, kind: string(KindInvalidLimit)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := newTestStore(t, tt.text)
			r, err := s.Partition(ctx, h, tt.opt, tt.lim)
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Value.([]Chunk)
			if len(got) != len(tt.want) || r.Truncated != tt.truncated {
				t.Fatalf("got %+v truncated=%v, want %+v truncated=%v", got, r.Truncated, tt.want, tt.truncated)
			}
			for i, c := range got {
				w := tt.want[i]
				w.Index = int64(i)
				if c.Index != w.Index || c.Start != w.Start || c.Length != w.Length || c.Truncated != w.Truncated ||
					(c.Text == nil) != (w.Text == nil) || (c.Text != nil && *c.Text != *w.Text) {
					t.Errorf("chunk %d = %+v, want %+v", i, c, w)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestPartitionHandles(t *testing.T) {
	ctx := context.Background()
	text := "one\ntwö\nthree\n"
	s, h := newTestStore(t, text)
	r, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyLines, Size: 1, WithHandles: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	chunks := r.Value.([]Chunk)
	if err := s.Delete(h); err != nil { // chunks outlive the parent
		t.Fatal(err)
	}
	for _, c := range chunks {
		got, err := s.Text(*c.Handle, 100)
		if err != nil || got != text[c.Start:c.Start+c.Length] {
			t.Fatalf("chunk %d text = %q, %v", c.Index, got, err)
		}
		m, err := s.Metadata(ctx, *c.Handle)
		if err != nil || m.Kind != TextKindSub || m.Offset != c.Start || *m.Parent != h {
			t.Fatalf("chunk %d metadata = %+v, %v", c.Index, m, err)
		}
	}
}

// checkPartition verifies the partition invariants: chunks cover text
// exactly, in order, without overlap or empty chunks, every boundary is a
// character start when text is valid UTF-8, and bytes chunks respect size.
func checkPartition(t *testing.T, text []byte, opt PartitionOptions, chunks []Chunk) {
	t.Helper()
	var pos int64
	valid := utf8.Valid(text)
	for i, c := range chunks {
		if c.Index != int64(i) || c.Start != pos || c.Length <= 0 {
			t.Fatalf("chunk %d = %+v at pos %d", i, c, pos)
		}
		pos += c.Length
		if valid && pos < int64(len(text)) && !utf8.RuneStart(text[pos]) {
			t.Fatalf("chunk %d ends inside a character at %d", i, pos)
		}
		if opt.Strategy == StrategyBytes && c.Length > max(opt.Size, utf8.UTFMax) {
			t.Fatalf("chunk %d length %d exceeds size %d", i, c.Length, opt.Size)
		}
	}
	if pos != int64(len(text)) {
		t.Fatalf("chunks cover %d of %d bytes", pos, len(text))
	}
}

func TestPartitionLarge(t *testing.T) {
	ctx := context.Background()
	text := bigText() // several scan windows
	s, h := newTestStore(t, text)
	for _, opt := range []PartitionOptions{
		{Strategy: StrategyBytes, Size: 1 << 20},
		{Strategy: StrategyLines, Size: 100_000},
	} {
		r, err := s.Partition(ctx, h, opt, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		checkPartition(t, []byte(text), opt, r.Value.([]Chunk))
	}
}
