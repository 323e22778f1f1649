package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// AUDIT: docs/direct-runtime.md: more calls than
// --max-native-calls-per-batch is native_call/native_batch_too_large, and
// "the run ends with a native_batch_refused event".
func TestDirectBatchCapIsNativeBatchTooLarge(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "ctx.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
	cas := directCassette(t, dir,
		directReply("", [3]string{"a", "context_search", `{"query":"one"}`}, [3]string{"b", "context_search", `{"query":"two"}`},
			[3]string{"c", "context_search", `{"query":"three"}`}),
		directReply("unreachable"))
	out, errOut, code := runCLI(t, "", "direct", "--replay", cas, "--json", "--context", ctxFile,
		"--allow", "context:search", "--max-native-calls-per-batch", "2", "find the needle")
	if code != 1 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	var d struct {
		Error  struct{ Phase, Kind string }  `json:"error"`
		Events []struct{ Type, Kind string } `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range d.Events {
		types = append(types, e.Type)
	}
	if d.Error.Phase != "native_call" || d.Error.Kind != "native_batch_too_large" || !strings.Contains(strings.Join(types, ","), "native_batch_refused") {
		t.Fatalf("error %s/%s events %v; want native_call/native_batch_too_large and a native_batch_refused event", d.Error.Phase, d.Error.Kind, types)
	}
}
