package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/workspace"
)

// fs_read returns up to its file limit (8192 bytes) with a truncated flag,
// whatever the bytes are: content that JSON encodes longer than it is
// (markup, control characters, invalid UTF-8) is not an oversized output.
func TestReadTruncatesEscapeHeavyContent(t *testing.T) {
	rt, ws := setup(t)
	for _, c := range []struct{ name, content string }{
		{"html.txt", strings.Repeat("<a>&</a>\n", 2000)},
		{"control.bin", strings.Repeat("\x01\x02\t\n", 3000)},
		{"latin1.txt", strings.Repeat("caf\xe9 ", 3000)},
	} {
		if err := os.WriteFile(filepath.Join(ws, c.name), []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		res := invoke(t, rt, "fs_read", `{"path":"`+c.name+`"}`)
		if res.Status != tool.StatusOK {
			t.Errorf("%s: %s %v", c.name, res.Status, res.Error)
			continue
		}
		var f workspace.File
		if err := json.Unmarshal(res.Value, &f); err != nil || !f.Truncated || f.Bytes != int64(len(c.content)) {
			t.Errorf("%s: %+v %v", c.name, f, err)
		}
	}
}
