package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rlm-go/rlm/corpus"
)

// elapsedMS matches the one field two runs of the same search may differ in.
var elapsedMS = regexp.MustCompile(`"elapsed_ms": [0-9]+`)

// rssHelperEnv makes this test binary, started with it, a helper that
// runs its arguments as a command and writes the command's peak resident
// set size to the file the variable names. The kernel counts in a
// process's peak the memory of the process it was started from, up to its
// exec (Go starts children with vfork), so a child started from the test
// process would carry the test's memory; one started from this small
// helper carries only the helper's few megabytes.
const rssHelperEnv = "RLM_TEST_RSS_OUT"

func init() {
	out := os.Getenv(rssHelperEnv)
	if out == "" {
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		os.WriteFile(out, []byte(strconv.FormatInt(ru.Maxrss, 10)), 0o600)
	}
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// maxRSS runs bin with args through the helper and returns its stdout and
// peak resident set size in bytes (-1 where the system reports none).
func maxRSS(t *testing.T, bin string, args ...string) ([]byte, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rssFile := filepath.Join(t.TempDir(), "rss")
	cmd := exec.CommandContext(ctx, self, append([]string{bin}, args...)...)
	cmd.Env = append(binaryEnv(), rssHelperEnv+"="+rssFile)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rlm %v: %v\n%s", args, err, errb.String())
	}
	kb, err := os.ReadFile(rssFile)
	if err != nil {
		return out, -1
	}
	n, err := strconv.ParseInt(string(kb), 10, 64)
	if err != nil || n <= 0 {
		return out, -1
	}
	return out, n << 10 // kilobytes on Linux
}

// TestContextSearchStreamsBinary: `rlm context search` (and `rlm context
// do` with a search) prints matches as it finds them instead of collecting
// the list, and prints byte for byte what the collected result encodes to
// (Store.Search and writeJSON in this process), for literal and regex
// searches, empty and truncated results. Streaming shows in memory:
// listing 80 000 matches (11 MB of values, 22 MB of JSON) peaks within
// 64 MiB of a count of the same file (measured: 3-16 MB more), where
// collecting the list and its encoding took 190 MB more. Under the race
// detector the file is a tenth and the memory check off.
func TestContextSearchStreamsBinary(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	lines := 120_000
	if raceEnabled {
		lines = 12_000 // the memory check is off; the race binary is slow
	}
	var b strings.Builder
	for i := range lines {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("é<&>\"x", 20)) // multi-byte and JSON-escaped characters
		if i%3 != 2 {
			b.WriteString(" needle")
		}
		b.WriteString(" end\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	big := corpus.Limits{MaxResults: 100000, MaxBytes: 16777216, TimeLimit: corpus.MaxTimeLimit}
	_, rssCount := maxRSS(t, bin, "context", "search", path, "needle", "--count", "--time-limit", "5m")
	for _, tc := range []struct {
		pattern string
		regex   bool
		lim     corpus.Limits
	}{
		{"needle", false, big},
		{"needle", false, corpus.Limits{MaxResults: 7, TimeLimit: corpus.MaxTimeLimit}},
		{"nothing here", false, corpus.Limits{TimeLimit: corpus.MaxTimeLimit}},
		{`(needle|nothing) end$`, true, big},
		{`^line`, true, corpus.Limits{MaxBytes: 1000, TimeLimit: corpus.MaxTimeLimit}},
	} {
		store := corpus.NewStore()
		h, err := store.AddFile(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := store.Search(context.Background(), h, tc.pattern, corpus.SearchOptions{Regex: tc.regex}, tc.lim)
		store.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := writeJSON(&want, r); err != nil {
			t.Fatal(err)
		}
		flags := []string{"--max-results", strconv.Itoa(tc.lim.MaxResults), "--max-bytes", strconv.Itoa(tc.lim.MaxBytes), "--time-limit", "5m"}
		args := []string{"context", "search", path, tc.pattern}
		if tc.regex {
			args = append(args, "--regex")
		}
		action, _ := json.Marshal(map[string]any{"type": "search", "pattern": tc.pattern, "regex": tc.regex})
		streamed, rss := maxRSS(t, bin, append(args, flags...)...)
		viaDo, _ := maxRSS(t, bin, append([]string{"context", "do", path, string(action)}, flags...)...)
		w := elapsedMS.ReplaceAll(want.Bytes(), nil)
		for name, got := range map[string][]byte{"search": streamed, "do": viaDo} {
			if g := elapsedMS.ReplaceAll(got, nil); !bytes.Equal(g, w) {
				t.Fatalf("%q: %s prints %d bytes, the collected result %d; they differ:\n%.2000s\n---\n%.2000s", tc.pattern, name, len(g), len(w), g, w)
			}
		}
		if tc.lim == big {
			if n := len(r.Value.([]corpus.Match)); n != lines*2/3 || r.Truncated {
				t.Fatalf("%q: %d matches, truncated %v; want %d", tc.pattern, n, r.Truncated, lines*2/3)
			}
			t.Logf("%q: peak RSS %d MB listing, %d MB counting", tc.pattern, rss>>20, rssCount>>20)
			if rss >= 0 && rssCount >= 0 && !raceEnabled && rss > rssCount+64<<20 {
				t.Errorf("%q: listing peaked at %d MB, counting at %d MB: the list is collected, not streamed", tc.pattern, rss>>20, rssCount>>20)
			}
		}
	}
}
