package durable_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// pgx's pool and DBOS's background workers stop asynchronously
		// after Close and Shutdown.
		goleak.IgnoreTopFunction("github.com/jackc/puddle/v2.(*Pool).backgroundHealthCheck"),
		goleak.IgnoreAnyFunction("github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"),
	)
}

const fanOutPlan = `{"steps":[
  {"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"lines","size":1},"bind":"parts"},
  {"op":"map","over":{"ref":"var","name":"parts"},"as":"p","concurrency":16,"bind":"out","plan":{"steps":[
    {"op":"model","prompt":{"join":["classify ",{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}}]},"bind":"a"},
    {"op":"final","value":{"ref":"var","name":"a"}}]}},
  {"op":"final","value":{"ref":"var","name":"out"}}]}`

// counting answers the root with the fan-out plan and each sub-call with
// a label; it counts requests per prompt. After stopAfter sub-calls (when
// positive) it calls stop instead of answering.
type counting struct {
	mu        sync.Mutex
	seen      map[string]int
	subCalls  atomic.Int64
	stopAfter int64
	stop      func()
}

func (c *counting) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	prompt := req.Messages[len(req.Messages)-1].Content
	c.mu.Lock()
	c.seen[prompt]++
	c.mu.Unlock()
	u := budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true, Calls: 1}
	if req.Messages[0].Role == model.RoleSystem {
		return &model.Response{Text: fanOutPlan, Usage: u}, nil
	}
	if n := c.subCalls.Add(1); c.stopAfter > 0 && n > c.stopAfter {
		c.stop()
		<-ctx.Done()
		return nil, fault.FromContext(fault.PhaseProvider, ctx.Err())
	}
	return &model.Response{Text: "label " + strings.TrimSpace(strings.TrimPrefix(prompt, "classify ")), Usage: u}, nil
}

func records(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "record %d\n", i)
	}
	return b.String()
}

func newEngine(t *testing.T, p model.Provider, x engine.Executor, text string) (*engine.Engine, corpus.Handle) {
	return newBenchEngine(t, p, x, text)
}

func newBenchEngine(t testing.TB, p model.Provider, x engine.Executor, text string) (*engine.Engine, corpus.Handle) {
	t.Helper()
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("records", text)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: p, Model: "m", Store: store, Executor: x,
		Limits: budget.Limits{MaxModelCalls: 100000, MaxConcurrency: 16, MaxIterations: -1, MaxTotalTokens: -1, MaxCostUSD: -1, MaxContextOps: -1}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, h
}

// A run stopped mid-fan-out and executed again under the same run id is
// answered from its checkpoints: no recorded call is sent again, each call
// in flight at the stop is sent at most once more, and the usage of the
// finished run is exactly the usage of the records.
func TestResumeAnswersRecordedCalls(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	const n = 200
	text := records(n)

	first := &counting{seen: map[string]int{}, stopAfter: 120}
	rctx, cancel := context.WithCancel(ctx)
	first.stop = cancel
	eng, h := newEngine(t, first, durable.NewExecutor(st, "run-1", nil), text)
	res, _ := eng.Run(rctx, "classify", h)
	cancel()
	if res.Status != engine.StatusCancelled {
		t.Fatalf("first execution: %s %v", res.Status, res.Error)
	}
	before, err := st.Totals(ctx, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	// The root turn and the 120 answered sub-calls.
	if before.ModelCalls != 121 {
		t.Fatalf("recorded %+v", before)
	}

	second := &counting{seen: map[string]int{}}
	x := durable.NewExecutor(st, "run-1", nil)
	eng, h = newEngine(t, second, x, text)
	res, err = eng.Run(ctx, "classify", h)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Answer.([]any)
	for i, v := range got {
		if v != fmt.Sprintf("label record %d", i) {
			t.Fatalf("answer %d = %v", i, v)
		}
	}
	if len(got) != n {
		t.Fatalf("%d answers", len(got))
	}
	if x.Replayed() != 121 || x.Recorded() != n-120 {
		t.Fatalf("replayed %d recorded %d", x.Replayed(), x.Recorded())
	}
	for prompt, k := range second.seen {
		if k != 1 || first.seen[prompt]+k > 2 {
			t.Fatalf("%q sent %d times in the resume, %d before", prompt, k, first.seen[prompt])
		}
	}
	if int64(len(second.seen)) != n-120 {
		t.Fatalf("resume sent %d distinct prompts", len(second.seen))
	}
	after, err := st.Totals(ctx, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	if after.ModelCalls != n+1 || res.Usage.TotalTokens != after.Tokens || res.Counters.ModelCalls != n+1 {
		t.Fatalf("usage %+v counters %+v, records %+v", res.Usage, res.Counters, after)
	}
}

// Durable runs through DBOS: a finished run resumed returns its recorded
// result without running; an unknown run and a changed spec are refused.
func TestRunWorkflowAndResume(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	p := &counting{seen: map[string]int{}}
	run := func(cfg durable.Config) (*durable.Outcome, error) {
		return durable.Run(ctx, cfg, func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
			eng, h := newEngine(t, p, x, records(5))
			return eng.Run(ctx, "classify", h)
		})
	}
	out, err := run(durable.Config{DatabaseURL: url, Spec: "s1", Query: "classify"})
	if err != nil {
		t.Fatal(err)
	}
	if out.RunID == "" || out.Result.Status != engine.StatusCompleted || out.Recorded != 6 || out.Finished {
		t.Fatalf("%+v", out)
	}
	again, err := run(durable.Config{DatabaseURL: url, RunID: out.RunID, Resume: true, Spec: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Finished || again.Result.Status != engine.StatusCompleted || len(again.Result.Answer.([]any)) != 5 || p.subCalls.Load() != 5 {
		t.Fatalf("%+v", again)
	}
	// The trajectory is stored apart from the workflow's output and put
	// back wherever a finished run's result is read.
	n := len(out.Result.Trajectory)
	if n == 0 || len(again.Result.Trajectory) != n {
		t.Fatalf("trajectory: %d events, %d read back on resume", n, len(again.Result.Trajectory))
	}
	if _, res, err := durable.Status(ctx, url, out.RunID); err != nil || res == nil || len(res.Trajectory) != n {
		t.Fatalf("status: %v, %+v", err, res)
	}
	if st, err := durable.State(ctx, url, out.RunID); err != nil || st.Status != engine.StatusCompleted || st.Steps.ModelCalls != 6 {
		t.Fatalf("state: %v, %+v", err, st)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var stored string
	if err := conn.QueryRow(ctx, `SELECT output FROM dbos.workflow_output WHERE workflow_uuid = $1`, out.RunID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if raw, err := base64.StdEncoding.DecodeString(stored); err == nil {
		stored = string(raw)
	}
	if !strings.Contains(stored, `"trajectory":null`) {
		t.Fatalf("the workflow's output carries the trajectory: %.300s", stored)
	}
	if _, err := run(durable.Config{DatabaseURL: url, RunID: out.RunID, Resume: true, Spec: "other"}); fault.KindOf(err) != durable.KindResumeMismatch {
		t.Fatalf("changed spec: %v", err)
	}
	if _, err := run(durable.Config{DatabaseURL: url, RunID: "no-such-run", Resume: true, Spec: "s1"}); fault.KindOf(err) != durable.KindRunNotFound {
		t.Fatalf("unknown run: %v", err)
	}
}

func TestUnreachableDatabase(t *testing.T) {
	durable.SetRetryWindow(t, 300*time.Millisecond)
	_, err := durable.Open(context.Background(), "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=1")
	if fault.KindOf(err) != durable.KindDBUnavailable {
		t.Fatalf("unreachable: %v", err)
	}
	if fault.As(err).Hint == "" {
		t.Fatal("no hint")
	}
	if _, err := durable.Open(context.Background(), "::not a url"); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("bad url: %v", err)
	}
}

// effectTool is an effectful tool that counts its executions.
type effectTool struct{ runs atomic.Int64 }

func (e *effectTool) Schemas() []model.Tool {
	return []model.Tool{{Name: "append", Description: "append a line", Parameters: json.RawMessage(`{"type":"object"}`)}}
}

func (e *effectTool) Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	n := e.runs.Add(1)
	return json.RawMessage(fmt.Sprintf(`{"appended":true,"execution":%d}`, n)), nil
}

// stopAfterTool answers the root with a plan that calls the tool, then a
// model step; the first execution stops at the model step.
type stopAfterTool struct {
	stop func()
}

func (s *stopAfterTool) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	u := budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true}
	if req.Messages[0].Role == model.RoleSystem {
		return &model.Response{Usage: u, Text: `{"steps":[
		  {"op":"tool","name":"append","args":{"line":"x"},"bind":"t"},
		  {"op":"model","prompt":"after the effect","bind":"a"},
		  {"op":"final","value":{"ref":"var","name":"t"}}]}`}, nil
	}
	if s.stop != nil {
		s.stop()
		<-ctx.Done()
		return nil, fault.FromContext(fault.PhaseProvider, ctx.Err())
	}
	return &model.Response{Text: "ok", Usage: u}, nil
}

// A tool call recorded before the process stopped is answered from its
// record on resume: the effect ran once.
func TestRecordedEffectRunsOnce(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	tool := &effectTool{}
	run := func(p model.Provider, rctx context.Context) (*engine.Result, *durable.Executor) {
		store := corpus.NewStore()
		defer store.Close()
		h, _ := store.AddString("c", "text")
		x := durable.NewExecutor(st, "effects", nil)
		caps := engine.DefaultCapabilities("m", "m").Union(capability.MustSet("tool:append"))
		eng, err := engine.New(engine.Config{Provider: p, Model: "m", Store: store, Executor: x, Tools: tool, Capabilities: caps})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := eng.Run(rctx, "append", h)
		return res, x
	}
	rctx, cancel := context.WithCancel(ctx)
	res, _ := run(&stopAfterTool{stop: cancel}, rctx)
	cancel()
	if res.Status != engine.StatusCancelled || tool.runs.Load() != 1 {
		t.Fatalf("first: %s, %d executions", res.Status, tool.runs.Load())
	}
	res, x := run(&stopAfterTool{}, ctx)
	if res.Status != engine.StatusCompleted || tool.runs.Load() != 1 || x.Replayed() != 2 {
		t.Fatalf("resume: %s %v, %d executions, %d replayed", res.Status, res.Error, tool.runs.Load(), x.Replayed())
	}
	if m, _ := res.Answer.(map[string]any); fmt.Sprint(m["execution"]) != "1" {
		t.Fatalf("answer %v", res.Answer)
	}
}

// openStore opens the checkpoint store of a fresh database.
func openStore(t *testing.T) *durable.Store {
	t.Helper()
	st, err := durable.Open(context.Background(), pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}
