package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/rlm-go/rlm/fault"
)

func TestHandleString(t *testing.T) {
	h := Handle{ID: "ctx-3", Version: 1}
	if got := h.String(); got != "ctx-3@1" {
		t.Fatalf("String = %q", got)
	}
	b, _ := json.Marshal(h)
	if string(b) != `{"id":"ctx-3","version":1}` {
		t.Fatalf("JSON = %s", b)
	}
	p, err := ParseHandle("ctx-3@1")
	if err != nil || p != h {
		t.Fatalf("ParseHandle = %v, %v", p, err)
	}
	for _, bad := range []string{"", "ctx-3", "ctx-3@0", "ctx-03@1", "x-3@1", "ctx-@1", "ctx-3@x", "ctx-+3@1"} {
		_, err := ParseHandle(bad)
		wantKind(t, err, KindUnknownHandle)
	}
}

func TestHandleLifecycle(t *testing.T) {
	ctx := context.Background()
	s, h := newTestStore(t, "alpha\nbeta\n")
	tests := []struct {
		name string
		h    Handle
		kind string
	}{
		{"live", h, ""},
		{"wrong version", Handle{ID: h.ID, Version: 2}, string(KindStaleHandle)},
		{"never issued", Handle{ID: "ctx-99", Version: 1}, string(KindUnknownHandle)},
		{"malformed", Handle{ID: "nope", Version: 1}, string(KindUnknownHandle)},
		{"zero", Handle{}, string(KindUnknownHandle)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Metadata(ctx, tt.h)
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantKind(t, err, faultKind(tt.kind))
		})
	}
	if err := s.Delete(h); err != nil {
		t.Fatal(err)
	}
	_, err := s.Metadata(ctx, h)
	wantKind(t, err, KindStaleHandle)
	wantKind(t, s.Delete(h), KindStaleHandle)
	_, err = s.Text(h, 100)
	wantKind(t, err, KindStaleHandle)
}

func TestReplace(t *testing.T) {
	s, h := newTestStore(t, "one\n")
	sub, err := s.Sub(context.Background(), h, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := s.Replace(h, "two\nlines\n")
	if err != nil {
		t.Fatal(err)
	}
	if h2.ID != h.ID || h2.Version != 2 {
		t.Fatalf("Replace = %v", h2)
	}
	_, err = s.Text(h, 100)
	wantKind(t, err, KindStaleHandle)
	if got, _ := s.Text(h2, 100); got != "two\nlines\n" {
		t.Fatalf("Text(h2) = %q", got)
	}
	if got, _ := s.Text(sub, 100); got != "one" {
		t.Fatalf("sub of old version = %q", got)
	}
}

func TestMetadata(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		text  string
		lines int64
	}{
		{"", 0},
		{"a", 1},
		{"a\n", 1},
		{"a\nb", 2},
		{"\n\n", 2},
		{"héllo\nwörld\n", 2},
	}
	for _, tt := range tests {
		s, h := newTestStore(t, tt.text)
		for range 2 { // second call uses the cached count
			m, err := s.Metadata(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			if m.Lines != tt.lines || m.Bytes != int64(len(tt.text)) || m.Kind != TextKindText || m.Name != "test" {
				t.Errorf("Metadata(%q) = %+v", tt.text, m)
			}
		}
	}
}

func TestAddFile(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	defer s.Close()
	text := "line one\nliné two\n"
	p := writeTemp(t, text)
	h, err := s.AddFile(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != TextKindFile || m.Path != p || m.Name != "ctx.txt" || m.Bytes != int64(len(text)) || m.Lines != 2 {
		t.Fatalf("Metadata = %+v", m)
	}
	if got, err := s.Text(h, 1<<20); err != nil || got != text {
		t.Fatalf("Text = %q, %v", got, err)
	}
	empty, err := s.AddFile(ctx, writeTemp(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Text(empty, 1); err != nil || got != "" {
		t.Fatalf("empty Text = %q, %v", got, err)
	}
	_, err = s.AddFile(ctx, p+".missing")
	wantKind(t, err, fault.KindIO)
	_, err = s.AddFile(ctx, t.TempDir())
	wantKind(t, err, fault.KindIO)
}

func TestAddReader(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	defer s.Close()
	h, err := s.AddReader(ctx, "r", iotest.OneByteReader(strings.NewReader("abc\n")))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Text(h, 10); got != "abc\n" {
		t.Fatalf("Text = %q", got)
	}
	_, err = s.AddReader(ctx, "bad", iotest.ErrReader(errors.New("boom")))
	wantKind(t, err, fault.KindIO)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.AddReader(cctx, "c", strings.NewReader("x"))
	wantKind(t, err, fault.KindCancelled)
}

func TestText(t *testing.T) {
	s, h := newTestStore(t, "12345")
	if got, err := s.Text(h, 5); err != nil || got != "12345" {
		t.Fatalf("Text = %q, %v", got, err)
	}
	_, err := s.Text(h, 4)
	wantKind(t, err, KindOutputTooLarge)
	fe := faultAs(err)
	if fe.Detail["bytes"] != 5 || fe.Detail["limit"] != 4 {
		t.Fatalf("detail = %v", fe.Detail)
	}
	_, err = s.Text(h, 0)
	wantKind(t, err, KindInvalidLimit)
}

func TestSub(t *testing.T) {
	ctx := context.Background()
	text := "héllo wörld\nsecond line\n" // é and ö are 2 bytes
	tests := []struct {
		name          string
		start, length int64
		want          string
		kind          string
	}{
		{"plain", 0, 5, "héll", ""},
		{"start inside é snaps back", 2, 4, "éllo", ""},
		{"end inside ö snaps back", 7, 2, "w", ""},
		{"clipped", 14, 100, "second line\n", ""},
		{"empty at end", int64(len(text)), 10, "", ""},
		{"zero length", 3, 0, "", ""},
		{"start past end", int64(len(text)) + 1, 1, "", string(KindOutOfRange)},
		{"negative start", -1, 1, "", string(KindOutOfRange)},
		{"negative length", 0, -1, "", string(KindOutOfRange)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := newTestStore(t, text)
			sub, err := s.Sub(ctx, h, tt.start, tt.length)
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Text(sub, 1000)
			if err != nil || got != tt.want {
				t.Fatalf("Text(sub) = %q, %v; want %q", got, err, tt.want)
			}
			m, err := s.Metadata(ctx, sub)
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != TextKindSub || m.Parent == nil || *m.Parent != h || text[m.Offset:m.Offset+m.Bytes] != tt.want {
				t.Fatalf("Metadata(sub) = %+v", m)
			}
		})
	}
}

// TestSubOutlivesParent checks that a sub-context of a mapped file keeps the
// mapping alive after its parent is deleted, and that the mapping goes away
// with the last reference.
func TestSubOutlivesParent(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	defer s.Close()
	h, err := s.AddFile(ctx, writeTemp(t, "first\nsecond\nthird\n"))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := s.Sub(ctx, h, 6, 7)
	if err != nil {
		t.Fatal(err)
	}
	subsub, err := s.Sub(ctx, sub, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, release, err := s.Bytes(subsub)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(h); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Text(sub, 100); err != nil || got != "second\n" {
		t.Fatalf("Text(sub) after parent delete = %q, %v", got, err)
	}
	if err := s.Delete(sub); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(subsub); err != nil {
		t.Fatal(err)
	}
	// The Bytes reference still holds the mapping.
	if string(b) != "sec" {
		t.Fatalf("Bytes = %q", b)
	}
	release()
	release() // idempotent
	if s.Len() != 0 {
		t.Fatalf("Len = %d", s.Len())
	}
}

func TestClose(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	h, err := s.AddFile(ctx, writeTemp(t, "data\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, release, err := s.Bytes(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if string(b) != "data\n" { // still mapped: a reference is out
		t.Fatalf("Bytes after Close = %q", b)
	}
	release()
	_, err = s.Text(h, 10)
	wantKind(t, err, KindStaleHandle)
	_, err = s.AddString("x", "y")
	wantKind(t, err, KindStoreClosed)
	_, err = s.AddFile(ctx, writeTemp(t, "z"))
	wantKind(t, err, KindStoreClosed)
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	defer s.Close()
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "line %d of the text, with ünïcode\n", i)
	}
	h, err := s.AddFile(ctx, writeTemp(t, text.String()))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				sub, err := s.Sub(ctx, h, int64(i*100), 500)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Search(ctx, sub, "ü", SearchOptions{CountOnly: true}, Limits{}); err != nil {
					t.Error(err)
				}
				if _, err := s.Partition(ctx, sub, PartitionOptions{Strategy: StrategyLines, Size: 3, WithHandles: g%2 == 0}, Limits{}); err != nil {
					t.Error(err)
				}
				if err := s.Delete(sub); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 100 {
			if _, err := s.Metadata(ctx, h); err != nil {
				t.Error(err)
			}
		}
	})
	wg.Wait()
}
