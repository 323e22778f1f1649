package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/budget"
)

type serveFixture struct {
	sess   *mcpsdk.ClientSession
	root   string
	mu     sync.Mutex
	got    []RunRequest
	notes  []string
	cancel chan struct{}
}

func newServeFixture(t *testing.T, withDirect bool) *serveFixture {
	t.Helper()
	f := &serveFixture{root: t.TempDir(), cancel: make(chan struct{}, 1)}
	if err := os.WriteFile(filepath.Join(f.root, "log.txt"), []byte("ok\nERROR disk full\nok\nERROR again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, req RunRequest) (*RunResult, error) {
		f.mu.Lock()
		f.got = append(f.got, req)
		f.mu.Unlock()
		req.Progress("model_call step 1")
		req.Progress("model_call step 2")
		if req.Query == "hang" {
			<-ctx.Done()
			f.cancel <- struct{}{}
			return nil, ctx.Err()
		}
		md, err := req.Store.Metadata(ctx, req.Context)
		if err != nil {
			return nil, err
		}
		return &RunResult{Status: "completed", Answer: "bytes=" + jsonString(md.Bytes)}, nil
	}
	cfg := ServeConfig{Roots: []string{f.root}, Limits: budget.DefaultLimits, Run: run}
	if withDirect {
		cfg.Direct = run
	}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ct, st := mcpsdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test"}, &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcpsdk.ProgressNotificationClientRequest) {
			f.mu.Lock()
			f.notes = append(f.notes, r.Params.Message)
			f.mu.Unlock()
		}})
	f.sess, err = client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.sess.Close(); ss.Wait(); cancel() })
	return f
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

func (f *serveFixture) call(t *testing.T, ctx context.Context, name string, args map[string]any, meta mcpsdk.Meta) *mcpsdk.CallToolResult {
	t.Helper()
	res, err := f.sess.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func structured(t *testing.T, res *mcpsdk.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return m
}

func TestServeTools(t *testing.T) {
	for _, withDirect := range []bool{false, true} {
		f := newServeFixture(t, withDirect)
		var names []string
		for tl, err := range f.sess.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tl.Name)
		}
		want := "context_metadata,context_search,context_slice,rlm_run"
		if withDirect {
			want = "context_metadata,context_search,context_slice,rlm_direct,rlm_run"
		}
		if strings.Join(names, ",") != want {
			t.Fatalf("tools %v, want %s", names, want)
		}
	}
}

func TestServeRunNarrowsBudgetAndReportsProgress(t *testing.T) {
	f := newServeFixture(t, false)
	ctx := context.Background()
	res := f.call(t, ctx, ToolRun, map[string]any{"query": "q", "context_path": "log.txt", "max_iterations": 3, "max_model_calls": 100000,
		"time_limit_ms": 1000}, mcpsdk.Meta{"progressToken": "p1"})
	if res.IsError {
		t.Fatalf("rlm_run: %+v", res.Content[0])
	}
	out := structured(t, res)
	if out["answer"] != "bytes=34" || !strings.HasPrefix(out["trace_id"].(string), "trace-") || out["status"] != "completed" {
		t.Fatalf("result %v", out)
	}
	lim := f.got[0].Limits
	if lim.MaxIterations != 3 || lim.MaxModelCalls != budget.DefaultLimits.MaxModelCalls || lim.TimeLimit != time.Second {
		t.Fatalf("limits %+v: the caller lowers, never raises", lim)
	}
	// Notifications may arrive after the result: wait for both.
	for i := 0; ; i++ {
		f.mu.Lock()
		n := len(f.notes)
		f.mu.Unlock()
		if n == 2 {
			break
		}
		if i == 500 {
			t.Fatalf("progress notifications: %v", f.notes)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Inline text.
	res = f.call(t, ctx, ToolRun, map[string]any{"query": "q", "context_text": "hello"}, nil)
	if out := structured(t, res); out["answer"] != "bytes=5" {
		t.Fatalf("inline: %v", out)
	}
}

func TestServeRefusals(t *testing.T) {
	f := newServeFixture(t, false)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("x"), 0o644)
	if err := os.Symlink(outside, filepath.Join(f.root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		kind string
	}{
		{ToolRun, map[string]any{"query": "q"}, string(KindContextRequired)},
		{ToolRun, map[string]any{"query": "q", "context_path": "log.txt", "context_text": "x"}, string(KindContextRequired)},
		{ToolRun, map[string]any{"query": "q", "context_path": outside}, string(KindPathNotAllowed)},
		{ToolRun, map[string]any{"query": "q", "context_path": "../x"}, string(KindPathNotAllowed)},
		{ToolContextSlice, map[string]any{"path": "link.txt", "start": 0}, string(KindPathNotAllowed)},
	} {
		res := f.call(t, context.Background(), c.tool, c.args, nil)
		if !res.IsError || !strings.Contains(res.Content[0].(*mcpsdk.TextContent).Text, "mcp/"+c.kind) {
			t.Errorf("%s %v: %+v, want mcp/%s", c.tool, c.args, res.Content, c.kind)
		}
	}
}

func TestServeContextTools(t *testing.T) {
	f := newServeFixture(t, false)
	ctx := context.Background()
	res := f.call(t, ctx, ToolContextSearch, map[string]any{"path": filepath.Join(f.root, "log.txt"), "pattern": "ERROR"}, nil)
	if res.IsError || !strings.Contains(jsonString(res.StructuredContent), "disk full") {
		t.Fatalf("search: %s", jsonString(res))
	}
	res = f.call(t, ctx, ToolContextSlice, map[string]any{"path": "log.txt", "start": 3, "length": 5}, nil)
	if v := structured(t, res)["value"].(map[string]any); v["text"] != "ERROR" {
		t.Fatalf("slice: %v", v)
	}
	res = f.call(t, ctx, ToolContextMetadata, map[string]any{"path": "."}, nil)
	if res.IsError || !strings.Contains(jsonString(res.StructuredContent), "log.txt") {
		t.Fatalf("metadata of the root: %s", jsonString(res))
	}
}

func TestServeCancel(t *testing.T) {
	f := newServeFixture(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.call(t, ctx, ToolRun, map[string]any{"query": "hang", "context_text": "x"}, nil)
	}()
	for {
		f.mu.Lock()
		n := len(f.got)
		f.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	<-f.cancel // the run's context ended: notifications/cancelled reached it
}
