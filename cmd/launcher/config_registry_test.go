package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// A Config's tools are registered once, one way, for the two paths that
// register them: a listing (rlm tools list) and a tool runtime (the
// commands that run tools, and rlm.OpenTools and rlm.Open for a Go
// program). Both give the same tools, with the same schemas, effects and
// authority ceilings: the built-in workspace tools, then the Config's
// tools in order, so a Config tool named like a built-in fails both with
// duplicate_tool.
func TestConfigToolsRegisteredAlike(t *testing.T) {
	echo := tool.Func("echo_back", "returns its text", func(ctx context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text, nil
	})
	write := tool.Func("note_write", "writes a note", func(ctx context.Context, in struct {
		Note string `json:"note"`
	}) (string, error) {
		return "ok", nil
	})
	write.Effect, write.AuthorityCeiling = authority.EffectWrite, authority.AllowSession
	builtins, ws, err := rlm.OpenRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws.Close()
	var builtinNames []string
	for _, s := range builtins.Schemas() {
		builtinNames = append(builtinNames, s.Name)
	}
	dup := echo
	dup.Name = builtinNames[0]

	for _, tt := range []struct {
		name  string
		tools []tool.Spec
		kind  fault.Kind // of both paths' failure
	}{
		{"none", nil, ""},
		{"two", []tool.Spec{echo, write}, ""},
		{"named like a built-in", []tool.Spec{echo, dup}, tool.KindDuplicateTool},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Tools: tt.tools}
			dir, state := t.TempDir(), t.TempDir() // the effect journal's
			listed, listErr := listedTools(t, cfg, dir)
			paths := map[string][]rlm.ListedTool{"rlm tools list": listed}
			errs := map[string]error{"rlm tools list": listErr}
			rt, err := (&toolFlags{l: &launcher{cfg: cfg}, workspace: dir, stateDir: state, authority: string(authority.DefaultTier)}).open(context.Background())
			paths["a command's tool runtime"], errs["a command's tool runtime"] = schemasOf(rt, err)
			rt, err = rlm.OpenTools(context.Background(), rlm.Spec{Workspace: dir, StateDir: state, Tools: tt.tools}, nil, io.Discard)
			paths["rlm.OpenTools"], errs["rlm.OpenTools"] = schemasOf(rt, err)
			if tt.tools != nil {
				// A session opens a tool runtime when it has tools.
				s, err := rlm.Open(context.Background(), rlm.Spec{Workspace: dir, StateDir: state, BaseURL: "http://127.0.0.1:1", APIKeyEnv: "PATH"}, rlm.WithTools(tt.tools...))
				if err == nil {
					paths["rlm.Open"], errs["rlm.Open"] = schemasOf(s.Tools(), nil)
					s.Close()
				} else {
					errs["rlm.Open"] = err
				}
			}
			for path, err := range errs {
				if fault.KindOf(err) != tt.kind {
					t.Fatalf("%s: %v, want kind %q", path, err, tt.kind)
				}
			}
			if tt.kind != "" {
				return
			}
			want := append(slices.Clone(builtinNames), "echo_back", "note_write")[:len(builtinNames)+len(tt.tools)]
			slices.Sort(want)
			first, _ := json.Marshal(paths["rlm tools list"])
			for path, tools := range paths {
				var names []string
				for _, lt := range tools {
					names = append(names, lt.Name)
				}
				if tt.tools != nil && !slices.Equal(names, want) {
					t.Fatalf("%s lists %v, want %v", path, names, want)
				}
				if got, _ := json.Marshal(tools); !bytes.Equal(got, first) {
					t.Fatalf("%s:\n%s\nrlm tools list:\n%s", path, got, first)
				}
			}
		})
	}
}

// listedTools runs rlm tools list with cfg and returns the tools it lists
// but rlm_subagent (which only a listing registers), or its error.
func listedTools(t *testing.T, cfg Config, dir string) ([]rlm.ListedTool, error) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), cfg, []string{"tools", "list", "--workspace", dir, "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		var env struct {
			Error *fault.Error `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil || env.Error == nil {
			t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
		}
		return nil, env.Error
	}
	var listed []rlm.ListedTool
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(listed, func(lt rlm.ListedTool) bool { return lt.Name == "rlm_subagent" }), nil
}

// schemasOf lists the tools of an opened tool runtime and closes it.
func schemasOf(rt *rlm.Tools, err error) ([]rlm.ListedTool, error) {
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	return rlm.ListTools(rt.Registry.Schemas(), nil), nil
}
