package direct

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

// afterFirst runs fn once, after the first request was answered.
type afterFirst struct {
	model.Provider
	fn   func()
	done bool
}

func (p *afterFirst) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	resp, err := p.Provider.Complete(ctx, req)
	if !p.done {
		p.done = true
		p.fn()
	}
	return resp, err
}

// TestRegistryChangeRecompilesCatalog: when the registry changes during a
// run (an MCP server's tools/list_changed re-import registers or removes
// tools), the next turn's request offers the tools as they are now, and
// the turn's span records the recompile; results list the current tools.
func TestRegistryChangeRecompilesCatalog(t *testing.T) {
	f := newFixture(t, fixOpts{caps: append(append([]string(nil), allCaps...), "tool:late")},
		completion("", call("a", "probe_read", validRead)),
		final("done"))
	reg := f.cfg.Registry
	f.cfg.Provider = &afterFirst{Provider: f.cfg.Provider, fn: func() {
		must(t, reg.Register(tool.Spec{Name: "late", Description: "Registered during the run.", Effect: authority.EffectRead,
			Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
			Handler: func(context.Context, tool.Request) (any, error) { return map[string]any{}, nil }}))
		reg.Unregister("probe_write")
	}}
	rec := trace.NewRecorder()
	res, err := f.runCtx(t, trace.WithRecorder(context.Background(), rec), "probe")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.requests(t)
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	offers := func(r wireRequest, name string) bool {
		for _, tl := range r.Tools {
			if strings.Contains(string(tl), `"name":"`+name+`"`) {
				return true
			}
		}
		return false
	}
	if offers(reqs[0], "late") || !offers(reqs[0], "probe_write") || !offers(reqs[1], "late") || offers(reqs[1], "probe_write") {
		t.Fatalf("turn 1 offers late=%v probe_write=%v; turn 2 late=%v probe_write=%v",
			offers(reqs[0], "late"), offers(reqs[0], "probe_write"), offers(reqs[1], "late"), offers(reqs[1], "probe_write"))
	}
	var recompiled []string
	for _, ev := range rec.Events() {
		if ev.Kind == trace.KindTurn && ev.Attrs["catalog_recompiled"] == true {
			recompiled = append(recompiled, ev.Name)
		}
	}
	if strings.Join(recompiled, ",") != "turn 2" {
		t.Fatalf("recompiled in %v, want turn 2 only", recompiled)
	}
	joined := "," + strings.Join(res.Tools, ",") + ","
	if !strings.Contains(joined, ",late,") || strings.Contains(joined, ",probe_write,") {
		t.Fatalf("result tools %v", res.Tools)
	}
}
