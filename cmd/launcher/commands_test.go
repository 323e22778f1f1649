package launcher

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
)

// TestTopCommandNames: each entry of topCommands names the command it
// builds, and the whole tree has no other top-level command than cobra's
// help and completion.
func TestTopCommandNames(t *testing.T) {
	l := &launcher{}
	names := map[string]bool{}
	for _, c := range l.topCommands() {
		if got := c.build().Name(); got != c.name {
			t.Errorf("topCommands entry %q builds %q", c.name, got)
		}
		names[c.name] = true
	}
	for _, c := range l.newRootCmd(nil).Commands() {
		if !names[c.Name()] && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("top-level command %q is not in topCommands", c.Name())
		}
	}
}

// TestLazyTreeSameHelp: a command line that builds only the command it
// names prints the same help for every command and subcommand as the
// whole tree does, and rlm --version the same version line.
func TestLazyTreeSameHelp(t *testing.T) {
	full := func(args []string) string {
		root := (&launcher{}).newRootCmd(nil)
		var out bytes.Buffer
		root.SetArgs(args)
		root.SetOut(&out)
		root.SetErr(&out)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	lazy := func(args []string) string {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	var paths [][]string
	walkTree((&launcher{}).newRootCmd(nil), func(c *cobra.Command) {
		if c.HasParent() {
			paths = append(paths, strings.Fields(c.CommandPath())[1:])
		}
	})
	if len(paths) < 30 {
		t.Fatalf("%d commands in the tree", len(paths))
	}
	for _, p := range append(paths, nil) {
		args := append(append([]string(nil), p...), "--help")
		if p == nil {
			args = []string{"--version"}
		}
		if got, want := lazy(args), full(args); got != want {
			t.Errorf("rlm %s: the help differs from the whole tree's:\n%s\n---\n%s", strings.Join(args, " "), got, want)
		}
	}
}

// TestPrintedVersion: the command line "--version" alone is answered
// without the command tree, with the line the tree's version flag prints
// (TestLazyTreeSameHelp compares the two); any other command line, or a
// stdout that cannot be written, is left to the tree.
func TestPrintedVersion(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		w       io.Writer
		printed bool
	}{
		{[]string{"--version"}, &bytes.Buffer{}, true},
		{nil, &bytes.Buffer{}, false},
		{[]string{"-v"}, &bytes.Buffer{}, false},
		{[]string{"--version", "--json"}, &bytes.Buffer{}, false},
		{[]string{"run", "--version"}, &bytes.Buffer{}, false},
		{[]string{"--version=true"}, &bytes.Buffer{}, false},
		{[]string{"--version"}, failingWriter{}, false},
	} {
		got := printedVersion(tc.args, tc.w)
		if got != tc.printed {
			t.Errorf("%q: printed %v, want %v", tc.args, got, tc.printed)
		}
		b, ok := tc.w.(*bytes.Buffer)
		if !ok {
			continue
		}
		if want := map[bool]string{true: "rlm " + rlm.Version() + "\n"}[tc.printed]; b.String() != want {
			t.Errorf("%q: wrote %q, want %q", tc.args, b.String(), want)
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }
