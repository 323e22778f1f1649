package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

func TestContextCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "ctx.txt")
	text := "alpha beta\ngamma\nδέλτα alpha\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		value string // JSON of "value", when code is 0
		trunc bool
		kind  string // error kind printed on stderr, when code is not 0
	}{
		{"metadata", []string{"metadata", path}, 0, "", false, ""},
		{"head", []string{"peek", path, "--head", "5"}, 0, `{"start":0,"length":5,"text":"alpha"}`, false, ""},
		{"tail snaps forward", []string{"peek", path, "--tail", "12"}, 0, `{"start":23,"length":11,"text":"τα alpha\n"}`, false, ""},
		{"slice", []string{"slice", path, "6", "4"}, 0, `{"start":6,"length":4,"text":"beta"}`, false, ""},
		{"slice out of range", []string{"slice", path, "999", "1"}, 1, "", false, `"kind":"out_of_range"`},
		{"slice bad number", []string{"slice", path, "x", "1"}, 1, "", false, `"kind":"invalid"`},
		{"search", []string{"search", path, "alpha", "--max-results", "1"}, 0,
			`[{"index":1,"offset":0,"match":0,"value":"alpha beta"}]`, true, ""},
		{"search count", []string{"search", path, "alpha", "--count"}, 0, `2`, false, ""},
		{"search regex", []string{"search", path, "^g", "--regex"}, 0, `[{"index":2,"offset":11,"match":11,"value":"gamma"}]`, false, ""},
		{"search max bytes", []string{"search", path, "a", "--max-bytes", "12"}, 0,
			`[{"index":1,"offset":0,"match":0,"value":"alpha beta"},{"index":2,"offset":11,"match":12,"value":"ga","truncated":true}]`, true, ""},
		{"search bad regex", []string{"search", path, "(", "--regex"}, 1, "", false, `"kind":"invalid_pattern"`},
		{"search bad limit", []string{"search", path, "a", "--max-results", "-1"}, 1, "", false, `"kind":"invalid_limit"`},
		{"partition lines", []string{"partition", path, "--lines", "2"}, 0,
			`[{"index":0,"start":0,"length":17},{"index":1,"start":17,"length":17}]`, false, ""},
		{"partition bytes snaps to rune", []string{"partition", path, "--bytes", "20", "--with-text"}, 0,
			`[{"index":0,"start":0,"length":19,"text":"alpha beta\ngamma\nδ"},{"index":1,"start":19,"length":15,"text":"έλτα alpha\n"}]`, false, ""},
		{"do reduce", []string{"do", path, `{"type":"reduce","reducer":"count"}`}, 0, `3`, false, ""},
		{"do bad json", []string{"do", path, `{`}, 1, "", false, `"kind":"malformed"`},
		{"missing file", []string{"metadata", path + ".none"}, 1, "", false, `"kind":"io_error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append(append([]string{"context"}, tt.args...), "--json"), strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if code != 0 {
				if got := `"kind":"` + jsonErrorKind(stdout.Bytes()) + `"`; got != tt.kind {
					t.Fatalf("stdout %q: error %s, want %s", stdout.String(), got, tt.kind)
				}
				return
			}
			var res struct {
				Value      json.RawMessage `json:"value"`
				Truncated  bool            `json:"truncated"`
				Accounting map[string]int64
			}
			if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
			}
			for _, k := range []string{"bytes_inspected", "items_inspected", "bytes_returned", "elapsed_ms"} {
				if _, ok := res.Accounting[k]; !ok {
					t.Errorf("accounting lacks %q: %s", k, stdout.String())
				}
			}
			if res.Truncated != tt.trunc {
				t.Errorf("truncated = %v, want %v", res.Truncated, tt.trunc)
			}
			if tt.value == "" {
				return
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, res.Value); err != nil {
				t.Fatal(err)
			}
			if compact.String() != tt.value {
				t.Errorf("value = %s\nwant    %s", compact.String(), tt.value)
			}
		})
	}
}

func TestContextMetadataCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "m.txt")
	if err := os.WriteFile(path, []byte("a\nb"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"context", "metadata", path}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var res struct {
		Value struct {
			Kind  string `json:"kind"`
			Bytes int64  `json:"bytes"`
			Lines int64  `json:"lines"`
			Path  string `json:"path"`
		} `json:"value"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Value.Kind != "file" || res.Value.Bytes != 3 || res.Value.Lines != 2 || res.Value.Path != path {
		t.Fatalf("metadata = %+v", res.Value)
	}
}

// A single --context that is a pipe (a shell's <(zcat log.gz)) is read as
// a stream, as stdin is; it was refused as not a regular file (io_error),
// while two or more such paths were read.
func TestContextFromPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		io.WriteString(w, "one\ntwo needle\nthree\n")
		w.Close()
	}()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"context", "search", fifo, "needle"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "two needle") {
		t.Fatalf("search of the pipe: %s", stdout.String())
	}
}
