package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/tool/builtin"
	"github.com/rlm-go/rlm/workspace"
)

// Register fs_read, fs_list and fs_write over one workspace and call them
// as a model would. A path that leaves the workspace is refused in the
// preflight, before authority and before anything runs.
func ExampleRegister() {
	dir, _ := os.MkdirTemp("", "rlm-builtin-example")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644)

	ws, err := workspace.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	reg := tool.NewRegistry()
	if err := builtin.Register(reg, ws, builtin.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range reg.Schemas() {
		fmt.Println(s.Name, s.Effect)
	}

	rt := tool.NewRuntime(reg, tool.Config{Root: ws.Dir()})
	inv := tool.Invocation{Capabilities: capability.MustSet("tool:fs_read", "tool:fs_list")}
	for _, call := range []tool.Call{
		{Name: "fs_list", Args: json.RawMessage(`{"path":"."}`), Invocation: inv},
		{Name: "fs_read", Args: json.RawMessage(`{"path":"README.md"}`), Invocation: inv},
		{Name: "fs_read", Args: json.RawMessage(`{"path":"../secret"}`), Invocation: inv},
	} {
		res, err := rt.Invoke(context.Background(), call)
		if err != nil {
			fmt.Println(err)
			return
		}
		if res.Error != nil {
			fmt.Println(call.Name, res.Status, res.Error.Kind)
			continue
		}
		fmt.Println(call.Name, res.Status, string(res.Value))
	}
	// Output:
	// fs_list read
	// fs_read read
	// fs_write write
	// fs_list ok {"path":".","entries":[{"name":"README.md","type":"file","size":7}],"truncated":false}
	// fs_read ok {"path":"README.md","content":"# demo\n","bytes":7,"truncated":false}
	// fs_read error confinement_denied
}
