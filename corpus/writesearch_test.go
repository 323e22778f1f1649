package corpus

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// WriteSearch writes what json.Encoder with a two-space indent writes for
// the search's Result, byte for byte, once the accounting (elapsed times
// differ between two runs) is set aside.
func TestWriteSearchIsTheResultsJSON(t *testing.T) {
	text := "alpha ERROR one\nbeta ok\n<gamma> ERROR & two\n" + strings.Repeat("noise\n", 50) + "delta ERROR three\n"
	for _, tc := range []struct {
		name, pattern string
		regex         bool
		lim           Limits
	}{
		{"matches", "ERROR", false, Limits{}},
		{"none", "absent", false, Limits{}},
		{"truncated", "ERROR", false, Limits{MaxResults: 2}},
		{"regex", `(?i)error \w+$`, true, Limits{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, h := newTestStore(t, text)
			var got bytes.Buffer
			if err := s.WriteSearch(context.Background(), &got, h, tc.pattern, tc.regex, tc.lim); err != nil {
				t.Fatal(err)
			}
			r, err := s.Search(context.Background(), h, tc.pattern, SearchOptions{Regex: tc.regex}, tc.lim)
			if err != nil {
				t.Fatal(err)
			}
			var decoded Result
			if err := json.Unmarshal(got.Bytes(), &decoded); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got.String())
			}
			r.Accounting = decoded.Accounting
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("got\n%s\nwant\n%s", got.String(), want.String())
			}
		})
	}
}

// A search refused before a match was found writes nothing.
func TestWriteSearchRefusedWritesNothing(t *testing.T) {
	s, h := newTestStore(t, "x\n")
	var got bytes.Buffer
	err := s.WriteSearch(context.Background(), &got, h, "", false, Limits{})
	if fe := faultAs(err); fe == nil || fe.Kind != KindInvalidPattern || got.Len() != 0 {
		t.Fatalf("err %v, wrote %q", err, got.String())
	}
}
