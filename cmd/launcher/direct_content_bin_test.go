package launcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rlm direct --trace-content records the query, the model's reply and
// the answer in the trace; without the flag none of them is there.
func TestDirectTraceContentBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile, _ := typedInputs(t, dir)
	const query = "Which service failed first?"
	const reply = "billing failed first, at 10:01"
	cas := cassetteOf(t, dir, "direct.json", answer(query, reply))
	for _, c := range []struct {
		name    string
		content bool
	}{{"with content", true}, {"without", false}} {
		t.Run(c.name, func(t *testing.T) {
			tracePath := filepath.Join(t.TempDir(), "trace.json")
			args := []string{"direct", "--context", ctxFile, "--replay", cas, "--trace", tracePath, "--json", query}
			if c.content {
				args = append(args, "--trace-content")
			}
			if r := runBinary(t, nil, nil, args...); r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			data, err := os.ReadFile(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"reply":"` + reply, `"query":"` + query, `"answer":"` + reply} {
				if got := strings.Contains(strings.ReplaceAll(string(data), `": "`, `":"`), want); got != c.content {
					t.Errorf("trace has %s: %v, want %v", want, got, c.content)
				}
			}
		})
	}
}
