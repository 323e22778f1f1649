package workspace_test

import (
	"fmt"
	"os"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/workspace"
)

// Confine file access to one directory: paths are relative and
// slash-separated, writes replace files atomically, and any path that
// would leave the workspace is refused with confinement_denied and a
// reason.
func ExampleRoot() {
	dir, _ := os.MkdirTemp("", "rlm-workspace-example")
	defer os.RemoveAll(dir)

	ws, err := workspace.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()

	w, err := ws.WriteFile("todo.txt", []byte("ship it\n"))
	fmt.Println(w.Path, w.Bytes, w.Created, err)
	f, _ := ws.ReadFile("todo.txt", 4)
	fmt.Printf("%q %d %v\n", f.Content, f.Bytes, f.Truncated)

	for _, p := range []string{"../etc/passwd", "/etc/passwd", "a//todo.txt"} {
		_, err := ws.ReadFile(p, 100)
		fmt.Println(p, fault.KindOf(err), fault.As(err).Detail["reason"])
	}
	// Output:
	// todo.txt 8 true <nil>
	// "ship" 8 true
	// ../etc/passwd confinement_denied parent_segment
	// /etc/passwd confinement_denied absolute_path
	// a//todo.txt confinement_denied empty_segment
}
