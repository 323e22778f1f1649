package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/workspace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func setup(t *testing.T) (*tool.Runtime, string) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("s"), 0o644)
	os.Symlink("../secret.txt", filepath.Join(ws, "out"))
	root, err := workspace.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	reg := tool.NewRegistry()
	if err := Register(reg, root, Options{}); err != nil {
		t.Fatal(err)
	}
	j, err := effect.Open(filepath.Join(dir, "effects.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return tool.NewRuntime(reg, tool.Config{Journal: j}), ws
}

var caps = capability.MustSet("tool:fs_read", "tool:fs_list", "tool:fs_write")

func invoke(t *testing.T, rt *tool.Runtime, name, args string) tool.Result {
	t.Helper()
	res, err := rt.Invoke(context.Background(), tool.Call{Name: name, Args: json.RawMessage(args),
		Invocation: tool.Invocation{Capabilities: caps, AuthorityContext: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWorkspaceTools(t *testing.T) {
	rt, ws := setup(t)
	cases := []struct {
		name, tool, args string
		status           tool.Status
		kind             fault.Kind
		value            string
	}{
		{"read", "fs_read", `{"path":"a.txt"}`, tool.StatusOK, "", `{"path":"a.txt","content":"hello","bytes":5,"truncated":false}`},
		{"read escape", "fs_read", `{"path":"../secret.txt"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"read symlink escape", "fs_read", `{"path":"out"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"read absolute", "fs_read", `{"path":"/etc/passwd"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"read nul", "fs_read", `{"path":"a\u0000"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"read dir", "fs_read", `{"path":"sub"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"read missing", "fs_read", `{"path":"nope.txt"}`, tool.StatusError, tool.KindHandlerFailed, ""},
		{"list", "fs_list", `{"path":"."}`, tool.StatusOK, "", ""},
		{"write escape pends nothing", "fs_write", `{"path":"../x","content":"y"}`, tool.StatusError, workspace.KindConfinementDenied, ""},
		{"write pends", "fs_write", `{"path":"new.txt","content":"y"}`, tool.StatusApprovalRequired, "", ""},
	}
	for _, c := range cases {
		res := invoke(t, rt, c.tool, c.args)
		if res.Status != c.status || fault.KindOf(res.Error) != c.kind {
			t.Errorf("%s: %s %v", c.name, res.Status, res.Error)
			continue
		}
		if c.value != "" && string(res.Value) != c.value {
			t.Errorf("%s: value %s", c.name, res.Value)
		}
	}
	if len(rt.Authority().List("t")) != 1 {
		t.Fatal("confinement failure created a pending operation")
	}
	rt.Authority().Set("t", authority.AllowSession)
	res := invoke(t, rt, "fs_write", `{"path":"sub/new.txt","content":"y"}`)
	if res.Status != tool.StatusOK {
		t.Fatalf("%+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "sub", "new.txt")); string(b) != "y" {
		t.Fatal("not written")
	}
}

// TestHardLinksOutOfWorkspace is issue 18 item 4 through the tools: fs_read
// and fs_write refuse a hard link to a file outside the workspace, and the
// write is refused before an approval is asked for.
func TestHardLinksOutOfWorkspace(t *testing.T) {
	rt, ws := setup(t)
	outside := filepath.Join(filepath.Dir(ws), "secret.txt")
	if err := os.Link(outside, filepath.Join(ws, "hard")); err != nil {
		t.Skipf("hard links unsupported: %v", err)
	}
	for _, c := range []struct{ tool, args string }{
		{"fs_read", `{"path":"hard"}`},
		{"fs_write", `{"path":"hard","content":"pwned"}`},
	} {
		res := invoke(t, rt, c.tool, c.args)
		fe := fault.As(res.Error)
		if res.Status != tool.StatusError || fe == nil || fe.Kind != workspace.KindConfinementDenied || fe.Detail["reason"] != workspace.ReasonHardLink {
			t.Errorf("%s: %s %v", c.tool, res.Status, res.Error)
		}
	}
	if len(rt.Authority().List("t")) != 0 {
		t.Fatal("a refused write created a pending operation")
	}
	rt.Authority().Set("t", authority.AllowSession)
	if res := invoke(t, rt, "fs_write", `{"path":"hard","content":"pwned"}`); res.Status != tool.StatusError {
		t.Fatalf("approved write: %+v", res)
	}
	if b, _ := os.ReadFile(outside); string(b) != "s" {
		t.Fatalf("outside file changed: %q", b)
	}
}
