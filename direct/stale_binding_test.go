package direct

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/tool"
)

// TestToolTurnedEffectfulAfterClassificationDoesNotRun: the registry may
// change while a batch is being answered (an MCP server's
// tools/list_changed re-imports a read tool as a write under the same
// name). The batch was classified against the catalog the model saw, where
// the tool is a read, so a two-call batch passed effect isolation; the
// runtime must not then run the tool it now finds, which is effectful.
// The calls become error observations (unknown_tool: the tool the loop
// offered is gone) and the next turn offers the tool as it is now.
func TestToolTurnedEffectfulAfterClassificationDoesNotRun(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", "probe_read", validRead), call("b", "probe_read", `{"q":"y"}`)),
		final("done"))
	reg := f.cfg.Registry
	var writes atomic.Int64
	f.cfg.Provider = &afterFirst{Provider: f.cfg.Provider, fn: func() {
		reg.Unregister("probe_read")
		must(t, reg.Register(tool.Spec{Name: "probe_read", Description: "Now a write.", Effect: authority.EffectWrite,
			Args: json.RawMessage(probeReadArgs), Result: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, tool.Request) (any, error) {
				writes.Add(1)
				return map[string]any{}, nil
			}}))
	}}
	res, err := f.run(t, "probe")
	if n := writes.Load(); n != 0 {
		t.Fatalf("an effectful tool ran %d times in a two-call batch classified as reads (err %v)", n, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	obs := f.srv.toolMessages(t)
	for _, id := range []string{"a", "b"} {
		var o struct {
			Status string
			Error  struct{ Kind string }
		}
		if e := json.Unmarshal([]byte(obs[id]), &o); e != nil || o.Status != ObsError || o.Error.Kind != string(tool.KindUnknownTool) {
			t.Errorf("call %s: observation %s", id, obs[id])
		}
	}
	if res.Answer != "done" {
		t.Fatalf("answer %q", res.Answer)
	}
}

// TestAlwaysVisibleToolRemovedDuringRun: a tool the host declared always
// visible (the CLI: granted by exact name) that leaves the registry during
// the run (an MCP server's tools/list_changed) is no longer offered from
// the next turn on, like any removed tool; the recompile does not end the
// run with unknown_tool.
func TestAlwaysVisibleToolRemovedDuringRun(t *testing.T) {
	f := newFixture(t, fixOpts{mode: "compiled", edit: func(c *Config) { c.AlwaysVisibleTools = []string{"probe_write", "probe_read"} }},
		completion("", call("a", "probe_read", validRead)),
		final("done"))
	reg := f.cfg.Registry
	f.cfg.Provider = &afterFirst{Provider: f.cfg.Provider, fn: func() { reg.Unregister("probe_write") }}
	res, err := f.run(t, "hello")
	if err != nil {
		t.Fatalf("run ended: %v", err)
	}
	if res.Answer != "done" {
		t.Fatalf("answer %q", res.Answer)
	}
	for _, name := range res.Tools {
		if name == "probe_write" {
			t.Fatalf("removed tool still offered: %v", res.Tools)
		}
	}
}

// TestToolRemovedBeforeClassificationIsUnavailable: a call of a tool the
// loop offered but that left the registry before the batch was classified
// is told the tool is no longer offered (catalog/unavailable_tool_schema),
// not that its arguments are wrong, and nothing runs.
func TestToolRemovedBeforeClassificationIsUnavailable(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", "probe_read", validRead)),
		final("done"))
	reg := f.cfg.Registry
	f.cfg.Provider = &afterFirst{Provider: f.cfg.Provider, fn: func() { reg.Unregister("probe_read") }}
	if _, err := f.run(t, "probe"); err != nil {
		t.Fatal(err)
	}
	var o struct {
		Status string
		Error  struct{ Phase, Kind string }
	}
	raw := f.srv.toolMessages(t)["a"]
	if err := json.Unmarshal([]byte(raw), &o); err != nil {
		t.Fatal(err)
	}
	if o.Status != ObsRejected || o.Error.Phase != string(PhaseCatalog) || o.Error.Kind != string(KindUnavailableToolSchema) {
		t.Fatalf("observation %s", raw)
	}
	if f.reads.Load() != 0 {
		t.Fatal("the removed tool ran")
	}
}
