package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"

	"github.com/rlm-go/rlm/internal/mcptest"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

// TestCompiledSelectsAmongManyMCPTools: 300 tools of one server enter the
// prompt compiler's catalog as ordinary units (as rlm direct builds it from
// the registry), and compiled mode selects the few relevant to the query.
func TestCompiledSelectsAmongManyMCPTools(t *testing.T) {
	sc, _ := fakeServer(t, authority.EffectRead, mcptest.EnvTools, "300")
	h := NewHost(Config{Servers: map[string]ServerConfig{"fake": sc}}, Options{})
	defer h.Close()
	reg := tool.NewRegistry()
	if _, err := h.Import(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	var imports []prompt.ToolSchema
	for _, s := range reg.Schemas() {
		imports = append(imports, prompt.ToolSchema{Name: s.Name, Description: s.Description, Parameters: s.Arguments,
			Capability: string(s.Capability), Effect: string(s.Effect)})
	}
	if len(imports) < 300 {
		t.Fatalf("%d tools imported", len(imports))
	}
	specs, err := prompt.ImportTools(imports, prompt.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := prompt.NewCatalog(specs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cat.Compile(context.Background(), prompt.Input{Text: "which kubernetes pods are failing?"},
		prompt.Options{Capabilities: capability.Of("tool:mcp.fake.*"), Mode: prompt.ModeCompiled})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compiled mode offered %d of %d MCP tools", len(res.ToolSchemas), len(imports))
	if len(res.ToolSchemas) == 0 || len(res.ToolSchemas) >= 50 {
		t.Fatalf("compiled mode offered %d of %d tools", len(res.ToolSchemas), len(imports))
	}
	kube := 0
	for _, ft := range res.ToolSchemas {
		n, ok := strings.CutPrefix(ft.Function.Name, "mcp.fake.tool_")
		if i, err := strconv.Atoi(n); ok && err == nil && mcptest.Topics[i%len(mcptest.Topics)] == "kubernetes" {
			kube++
		}
	}
	if kube*2 < len(res.ToolSchemas) {
		t.Fatalf("only %d of %d selected tools are about kubernetes: %v", kube, len(res.ToolSchemas), names(res.ToolSchemas))
	}
	// Without the capability nothing of the server is offered.
	res, err = cat.Compile(context.Background(), prompt.Input{Text: "which kubernetes pods are failing?"},
		prompt.Options{Capabilities: capability.Of("tool:mcp.other.*"), Mode: prompt.ModeCompiled})
	if err != nil || len(res.ToolSchemas) != 0 {
		t.Fatalf("ungranted server offered %d tools (%v)", len(res.ToolSchemas), err)
	}
}

func names(fts []prompt.FunctionTool) string {
	var b strings.Builder
	for _, f := range fts {
		fmt.Fprintf(&b, "%s ", f.Function.Name)
	}
	return b.String()
}
