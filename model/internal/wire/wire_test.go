package wire

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, header, value string
		want                time.Duration
		ok                  bool
	}{
		{"absent", "", "", 0, false},
		{"seconds", "Retry-After", "3", 3 * time.Second, true},
		{"zero", "Retry-After", "0", 0, true},
		{"negative", "Retry-After", "-3", 0, false},
		{"garbage", "Retry-After", "soon", 0, false},
		{"huge", "Retry-After", "99999999999", 1e6 * time.Second, true},
		{"date", "Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{"past date", "Retry-After", now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"ms", "Retry-After-Ms", "250", 250 * time.Millisecond, true},
		{"ms fraction", "retry-after-ms", "1.5", 1500 * time.Microsecond, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set(tt.header, tt.value)
		}
		got, ok := ParseRetryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %v,%v want %v,%v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTruncateUTF8(t *testing.T) {
	s := "aé" // 3 bytes
	if got := Truncate(s, 2); got != "a…" {
		t.Fatalf("truncate = %q", got)
	}
	if got := Truncate(s, 3); got != s {
		t.Fatalf("truncate = %q", got)
	}
}

// TestBoundedReaderExactLimit checks that a body of exactly the limit is
// not reported as too large.
func TestBoundedReaderExactLimit(t *testing.T) {
	b := &BoundedReader{R: strings.NewReader("abcd"), Left: 4}
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "abcd" {
		t.Fatalf("got %q, %v", got, err)
	}
	b = &BoundedReader{R: strings.NewReader("abcde"), Left: 4}
	if _, err := io.ReadAll(b); err != ErrTooLarge {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// TestParseRetryAfterBeyondRange checks that a Retry-After (or
// retry-after-ms) too large for its integer or duration type is capped
// like any other huge value, not ignored: ignoring it made the provider
// retry after a short jittered backoff although the server asked to wait.
func TestParseRetryAfterBeyondRange(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, header, value string
		want                time.Duration
		ok                  bool
	}{
		{"seconds beyond int64", "Retry-After", "99999999999999999999", 1e6 * time.Second, true},
		{"negative beyond int64", "Retry-After", "-99999999999999999999", 0, false},
		{"ms beyond duration", "Retry-After-Ms", "1e13", 1e6 * time.Second, true},
		{"ms beyond duration digits", "Retry-After-Ms", "99999999999999999999", 1e6 * time.Second, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		h.Set(tt.header, tt.value)
		got, ok := ParseRetryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %v,%v want %v,%v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
