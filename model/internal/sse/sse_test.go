package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func readAll(t testing.TB, r io.Reader, maxLine int) ([]Event, error) {
	t.Helper()
	sr := NewReader(r, maxLine)
	var out []Event
	for {
		ev, err := sr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Event
	}{
		{"empty", "", nil},
		{"one", "data: {\"a\":1}\n\n", []Event{{Data: `{"a":1}`}}},
		{"done", "data: x\n\ndata: [DONE]\n\n", []Event{{Data: "x"}, {Data: "[DONE]"}}},
		{"comments", ": OPENROUTER PROCESSING\n\n:ping\ndata: a\n\n", []Event{{Data: "a"}}},
		{"multiline", "data: a\ndata: b\ndata:c\n\n", []Event{{Data: "a\nb\nc"}}},
		{"crlf", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", []Event{{Data: "a"}, {Data: "b"}, {Data: "c"}}},
		{"no space", "data:x\n\n", []Event{{Data: "x"}}},
		{"two spaces", "data:  x\n\n", []Event{{Data: " x"}}},
		{"event and id", "event: error\nid: 7\ndata: boom\n\n", []Event{{Type: "error", ID: "7", Data: "boom"}}},
		{"no data dropped", "event: ping\n\ndata: a\n\n", []Event{{Data: "a"}}},
		{"unterminated last", "data: a\n\ndata: b", []Event{{Data: "a"}, {Data: "b"}}},
		{"field no colon", "data\n\n", []Event{{Data: ""}}},
		{"unknown fields", "retry: 10\nfoo: bar\ndata: a\n\n", []Event{{Data: "a"}}},
		{"blank lines", "\n\n\ndata: a\n\n\n", []Event{{Data: "a"}}},
		// One leading byte-order mark is skipped (it used to make the
		// first field name unknown, losing the first event).
		{"byte order mark", "\xef\xbb\xbfdata: a\n\ndata: b\n\n", []Event{{Data: "a"}, {Data: "b"}}},
		{"byte order mark only once", "\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n", []Event{{Data: "b"}}},
		{"not a byte order mark", "\xef\xbbdata: a\n\ndata: b\n\n", []Event{{Data: "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in)), iotest.DataErrReader(strings.NewReader(tt.in))} {
				got, err := readAll(t, r, 0)
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("got %#v, want %#v", got, tt.want)
				}
			}
		})
	}
}

func TestLineTooLong(t *testing.T) {
	_, err := readAll(t, strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 32)
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v, want ErrLineTooLong", err)
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom))
	got, err := readAll(t, r, 0)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if len(got) != 1 || got[0].Data != "a" {
		t.Fatalf("events before error = %#v", got)
	}
}

// TestQuadraticToolCallAssemblySplitLines is issue 18 item 2 (the reader
// part): a long line dripped a byte at a time is searched once, not once
// per read.
func TestQuadraticToolCallAssemblySplitLines(t *testing.T) {
	const n = 1 << 20
	in := "data: " + strings.Repeat("x", n) + "\n\n"
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)), 0)
	ev, err := r.Next()
	if err != nil || len(ev.Data) != n {
		t.Fatalf("got %d bytes, %v", len(ev.Data), err)
	}
	if r.split.steps > 2*len(in) {
		t.Fatalf("searched %d bytes for a %d-byte stream: not linear", r.split.steps, len(in))
	}
}

func FuzzSSEParser(f *testing.F) {
	seeds := []string{
		"data: {\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n",
		": comment\r\n\r\ndata: a\r\ndata: b\r\n\r\n",
		"event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n",
		"data:\rdata:\r\r",
		"id: 1\x00\ndata: x",
		"\n\n\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		events, err := readAll(t, strings.NewReader(string(in)), 1<<16)
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			t.Fatalf("unexpected error %v", err)
		}
		total := 0
		for _, ev := range events {
			if strings.ContainsRune(ev.Data, '\r') || strings.ContainsRune(ev.Type, '\n') || strings.ContainsRune(ev.ID, 0) {
				t.Fatalf("line terminator leaked into %#v", ev)
			}
			total += len(ev.Data)
		}
		if total > len(in) {
			t.Fatalf("data %d bytes from %d input bytes", total, len(in))
		}
		// Byte-at-a-time reads must give the same events, and the line
		// splitting stays linear (the watchdog: bytes searched are bounded
		// by the input's size).
		r := NewReader(iotest.OneByteReader(strings.NewReader(string(in))), 1<<16)
		var again []Event
		var err2 error
		for {
			ev, e := r.Next()
			if e != nil {
				if e != io.EOF {
					err2 = e
				}
				break
			}
			again = append(again, ev)
		}
		if r.split.steps > 2*len(in)+2 {
			t.Fatalf("searched %d bytes for %d input bytes", r.split.steps, len(in))
		}
		if (err == nil) != (err2 == nil) || (err == nil && !reflect.DeepEqual(events, again)) {
			t.Fatalf("chunked read differs: %#v/%v vs %#v/%v", events, err, again, err2)
		}
	})
}

// TestLineAtLimit checks the line bound exactly: a line of maxLine bytes
// is read whatever its line ending (or none, at end of input), and a line
// of maxLine+1 bytes is ErrLineTooLong. The scanner's buffer also held the
// line ending, so a line of exactly maxLine bytes (maxLine-1 with CRLF)
// used to fail.
func TestLineAtLimit(t *testing.T) {
	const maxLine = 32
	at := "data: " + strings.Repeat("x", maxLine-len("data: "))
	over := at + "x"
	for _, end := range []string{"\n", "\r", "\r\n"} {
		for _, r := range []func(string) io.Reader{
			func(s string) io.Reader { return strings.NewReader(s) },
			func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		} {
			got, err := readAll(t, r(at+end+end), maxLine)
			if err != nil || len(got) != 1 || got[0].Data != at[len("data: "):] {
				t.Errorf("line of %d bytes ending %q: got %v, %v", maxLine, end, got, err)
			}
			if _, err := readAll(t, r(over+end+end), maxLine); !errors.Is(err, ErrLineTooLong) {
				t.Errorf("line of %d bytes ending %q: err = %v, want ErrLineTooLong", maxLine+1, end, err)
			}
		}
	}
	for _, in := range []string{at, at + "\r", "\xef\xbb\xbf" + at + "\r\n"} {
		if got, err := readAll(t, strings.NewReader(in), maxLine); err != nil || len(got) != 1 {
			t.Errorf("last line %q of %d bytes: got %v, %v", in, maxLine, got, err)
		}
	}
	if _, err := readAll(t, strings.NewReader(over), maxLine); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("last line of %d bytes: err = %v, want ErrLineTooLong", maxLine+1, err)
	}
}
