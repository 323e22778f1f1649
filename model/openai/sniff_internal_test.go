package openai

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestSniffEventStream(t *testing.T) {
	cases := map[string]bool{
		"data: {}\n\n": true, ": comment\n": true, "\n\r\n event: x\n": true, "id: 1\n": true, "retry: 10\n": true,
		"\xef\xbb\xbfdata: x": true,
		`{"id":"x"}`:          false, "[1]": false, "": false, "   ": false, "dat": false, "error": false, "<html>": false, "datum: x": false,
	}
	for in, want := range cases {
		br := bufio.NewReader(strings.NewReader(in))
		if got := sniffEventStream(br); got != want {
			t.Errorf("sniff(%q) = %v", in, got)
		}
		// Nothing is consumed.
		if rest, _ := io.ReadAll(br); string(rest) != in {
			t.Errorf("sniff(%q) consumed input: %q", in, rest)
		}
	}
	// A slow stream: sniffing needs only the field name, never more.
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		io.WriteString(pw, "da")
		io.WriteString(pw, "ta:")
		// The rest of the stream never comes while sniffing.
	}()
	if !sniffEventStream(bufio.NewReader(pr)) {
		t.Fatal("slow stream not recognized")
	}
	pw.Close()
}
