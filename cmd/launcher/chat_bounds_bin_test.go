package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chat --resume reads a saved session under int()'s bounds: a saved
// 2M-digit integer is refused with invalid_session naming the bound,
// before it is parsed (the parse took 12-16 s, quadratic in the digits,
// and the session then resumed with a value int() would refuse).
func TestChatResumeRefusesHugeIntBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\n"), 0o644)
	saved := filepath.Join(dir, "session.json")
	huge := "1" + strings.Repeat("3", 2_000_000-1)
	os.WriteFile(saved, []byte(`{"version": 1, "history": [], "globals": {"n": 7, "x": `+huge+`}}`), 0o644)
	cas := writeCassette(t, dir) // no model call is made
	out, errOut, code := binRun(t, builtBinary(t), "chat", "--context", ctxFile, "--replay", cas, "--resume", saved, "--json")
	var doc struct {
		Status string `json:"status"`
		Error  struct {
			Kind   string         `json:"kind"`
			Detail map[string]any `json:"detail"`
		} `json:"error"`
	}
	if code != 1 || json.Unmarshal([]byte(out), &doc) != nil || doc.Error.Kind != "invalid_session" {
		t.Fatalf("exit %d: %.300s\n%.300s", code, out, errOut)
	}
	if d := doc.Error.Detail; d["bound"] != "int_max_str_digits" || d["limit"] != 4300.0 || d["digits"] != 2e6 || d["name"] != "x" {
		t.Fatalf("detail %v", d)
	}
}
