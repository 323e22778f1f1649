package builtin

import (
	"encoding/json"
	"fmt"
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

// fs_list of a directory whose entries do not all fit the tool's output
// limit returns the entries that fit, sorted, with the truncated flag,
// never oversized_output.
func TestListTruncatesToOutputLimit(t *testing.T) {
	rt, ws := setup(t)
	dir := filepath.Join(ws, "many")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 1200 {
		name := fmt.Sprintf("%04d-%s.txt", i, strings.Repeat("<long name>", 8))
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := invoke(t, rt, "fs_list", `{"path":"many"}`)
	if res.Status != tool.StatusOK {
		t.Fatalf("%s %v", res.Status, res.Error)
	}
	var l workspace.Listing
	if err := json.Unmarshal(res.Value, &l); err != nil || !l.Truncated || len(l.Entries) == 0 || len(l.Entries) >= 1000 {
		t.Fatalf("%d entries, truncated %v, %v", len(l.Entries), l.Truncated, err)
	}
	if !strings.HasPrefix(l.Entries[0].Name, "0000-") || !strings.HasPrefix(l.Entries[len(l.Entries)-1].Name, fmt.Sprintf("%04d-", len(l.Entries)-1)) {
		t.Fatalf("not the first entries in name order: %s ... %s", l.Entries[0].Name, l.Entries[len(l.Entries)-1].Name)
	}
}
