//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corpus

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestTruncatedContextFile (issue 18 item 8): a mapped context file
// truncated during a run makes every operation that reads the lost part
// fail with Kind context_changed instead of killing the process with
// SIGBUS. The store stays usable for its other texts.
func TestTruncatedContextFile(t *testing.T) {
	line := "2026-12-02 INFO request served in 12 ms ERROR none\n"
	text := strings.Repeat(line, (4<<20)/len(line)) // 4 MiB, many pages
	for _, shrink := range []struct {
		name string
		size int64
	}{{"to_empty", 0}, {"to_one_page", 4096}} {
		t.Run(shrink.name, func(t *testing.T) {
			path := writeTemp(t, text)
			s := NewStore()
			defer s.Close()
			ctx := context.Background()
			h, err := s.AddFile(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			// (no Metadata call here: it would cache the line count)
			// A view near the end, registered before the truncation.
			tailView, err := s.Sub(ctx, h, int64(len(text))-1000, 500)
			if err != nil {
				t.Fatal(err)
			}
			other, _ := s.AddString("other", "still fine\n")
			if err := os.Truncate(path, shrink.size); err != nil {
				t.Fatal(err)
			}
			size := int64(len(text))
			ops := []struct {
				name string
				run  func() error
			}{
				{"head", func() error { _, err := s.Head(ctx, tailView, 10, Limits{}); return err }},
				{"tail", func() error { _, err := s.Tail(ctx, h, 100, Limits{}); return err }},
				{"slice", func() error { _, err := s.Slice(ctx, h, size-5000, 100, Limits{}); return err }},
				{"peek_metadata", func() error { _, err := s.Peek(ctx, h, PeekMetadata, 0, Limits{}); return err }},
				{"metadata", func() error { _, err := s.Metadata(ctx, tailView); return err }},
				{"search_literal", func() error { _, err := s.Search(ctx, h, "absent", SearchOptions{}, Limits{}); return err }},
				{"search_regex", func() error {
					_, err := s.Search(ctx, h, `ERROR\s+x`, SearchOptions{Regex: true, CountOnly: true}, Limits{})
					return err
				}},
				{"partition_bytes_text", func() error {
					_, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyBytes, Size: 1 << 20, WithText: true}, Limits{MaxBytes: 1 << 20})
					return err
				}},
				{"partition_lines_handles", func() error {
					_, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyLines, Size: 10000, WithHandles: true}, Limits{})
					return err
				}},
				{"map", func() error { _, err := s.Map(ctx, h, TransformUppercase, Limits{MaxResults: 100000}); return err }},
				{"reduce_count", func() error { _, err := s.Reduce(ctx, h, ReducerCount, Limits{}); return err }},
				{"do_search", func() error {
					_, err := s.Do(ctx, h, Action{Type: ActionSearch, Pattern: "absent"}, Limits{})
					return err
				}},
				{"sub", func() error { _, err := s.Sub(ctx, h, size-100, 10); return err }},
				{"text", func() error { _, err := s.Text(tailView, 1<<20); return err }},
				{"view", func() error {
					return s.View(h, func(b []byte) error { _ = bytes.Count(b, []byte("\n")); return nil })
				}},
			}
			before := s.Len()
			for _, op := range ops {
				err := op.run()
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Kind != KindContextChanged {
					t.Errorf("%s: err %v, want kind %s", op.name, err, KindContextChanged)
					continue
				}
				wantKind(t, err, KindContextChanged)
				if fe.Detail["path"] != path || fault.HintOf(err) == "" {
					t.Errorf("%s: detail %v hint %q", op.name, fe.Detail, fault.HintOf(err))
				}
			}
			if s.Len() != before {
				t.Errorf("failed operations left %d handles behind", s.Len()-before)
			}
			// Other texts are unaffected, and so is a fault outside any
			// mapping (it still panics).
			if r, err := s.Head(ctx, other, 0, Limits{}); err != nil || r.Value.(Span).Text != "still fine\n" {
				t.Errorf("other text: %v %v", r, err)
			}
			if err := s.View(h, func([]byte) error { return errViewOwn }); !errors.Is(err, errViewOwn) {
				t.Errorf("View lost f's own error: %v", err)
			}
		})
	}
}

var errViewOwn = errors.New("own")

// TestGuardPassesOtherPanics: guard recovers only faults on its mapping.
func TestGuardPassesOtherPanics(t *testing.T) {
	path := writeTemp(t, strings.Repeat("x", 8192))
	s := NewStore()
	defer s.Close()
	h, err := s.AddFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the original panic", r)
		}
	}()
	_ = s.View(h, func([]byte) error { panic("boom") })
}
