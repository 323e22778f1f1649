package httpcall

import (
	"net/url"
	"testing"
	"time"
)

func TestBackoffBounds(t *testing.T) {
	p := Policy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, MaxAfter: 5 * time.Second}
	for n := 1; n <= 10; n++ {
		ceil := min(100*time.Millisecond<<(n-1), time.Second)
		for range 50 {
			if d := p.Backoff(n, Outcome{}); d < 0 || d > ceil {
				t.Fatalf("retry %d: backoff %v outside [0,%v]", n, d, ceil)
			}
		}
	}
	if d := p.Backoff(1, Outcome{HasAfter: true, After: time.Hour}); d != 5*time.Second {
		t.Fatalf("Retry-After not capped: %v", d)
	}
	if d := p.Backoff(4, Outcome{HasAfter: true, After: 0}); d != 0 {
		t.Fatalf("Retry-After 0 gave %v", d)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:pw@example.com/v1?key=s#f": "https://example.com/v1",
		"http://[::1":                         "(unparseable)",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPort(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want int
	}{
		{"https://api.openai.com/v1", 443},
		{"http://localhost/v1", 80},
		{"http://127.0.0.1:11434/v1", 11434},
		{"https://user:secret@[::1]:8443/v1?key=x", 8443},
		{"ftp://example.com/", 0},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := Port(u); got != tc.want {
			t.Errorf("Port(%s) = %d, want %d", tc.url, got, tc.want)
		}
	}
}
