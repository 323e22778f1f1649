package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// fakeEnv is a deterministic Env. Model answers "M(<prompt>)" unless
// modelFn is set; Tool echoes its args unless toolFn is set.
type fakeEnv struct {
	modelFn func(ctx context.Context, call ModelCall) (string, error)
	toolFn  func(ctx context.Context, name string, args Value) (Value, error)
	admitFn func(est Estimate) error

	inFlight, maxInFlight atomic.Int32

	mu          sync.Mutex
	calls       []string
	checkpoints []map[string]Value
	admitted    []Estimate
}

func (f *fakeEnv) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeEnv) enter() func() {
	n := f.inFlight.Add(1)
	for {
		m := f.maxInFlight.Load()
		if n <= m || f.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { f.inFlight.Add(-1) }
}

func (f *fakeEnv) ContextOp(ctx context.Context, h corpus.Handle, a corpus.Action) (Value, error) {
	f.record("context:" + a.Type + ":" + h.String())
	switch a.Type {
	case corpus.ActionPartition:
		var out []map[string]any // typed on purpose: Execute normalizes
		for i := range 3 {
			sub := corpus.Handle{ID: fmt.Sprintf("ctx-%d", 10+i), Version: 1}
			out = append(out, map[string]any{"index": i, "start": i * 10, "length": 10, "handle": &sub})
		}
		return out, nil
	case corpus.ActionSearch:
		return []corpus.Chunk{{Index: 0, Start: 5, Length: 2}}, nil
	}
	return map[string]any{"type": a.Type}, nil
}

func (f *fakeEnv) Text(ctx context.Context, h corpus.Handle) (string, error) {
	if h.ID == "ctx-big" {
		return "", fault.New(fault.PhaseExecute, "prompt_too_large", "too big")
	}
	return "<" + h.String() + ">", nil
}

func (f *fakeEnv) Model(ctx context.Context, call ModelCall) (string, error) {
	defer f.enter()()
	f.record("model:" + call.Model + ":" + call.Prompt)
	if f.modelFn != nil {
		return f.modelFn(ctx, call)
	}
	return "M(" + call.Prompt + ")", nil
}

func (f *fakeEnv) RLM(ctx context.Context, query string, c Value) (Value, error) {
	f.record(fmt.Sprintf("rlm:%s:%v", query, c))
	return map[string]any{"answer": "child of " + query}, nil
}

func (f *fakeEnv) Tool(ctx context.Context, name string, args Value) (Value, error) {
	f.record("tool:" + name)
	if f.toolFn != nil {
		return f.toolFn(ctx, name, args)
	}
	return args, nil
}

func (f *fakeEnv) Checkpoint(ctx context.Context, label string, vars map[string]Value) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checkpoints = append(f.checkpoints, vars)
	f.calls = append(f.calls, "checkpoint:"+label)
	return nil
}

func (f *fakeEnv) Admit(ctx context.Context, est Estimate) error {
	f.mu.Lock()
	f.admitted = append(f.admitted, est)
	f.mu.Unlock()
	if f.admitFn != nil {
		return f.admitFn(est)
	}
	return nil
}

func newSession() *Session {
	return NewSession(map[string]Value{
		"context": corpus.Handle{ID: "ctx-1", Version: 1},
		"query":   "who?",
	}, SessionOptions{})
}

// run parses text, validates it against the session and executes it.
func run(t *testing.T, env Env, s *Session, text string) (*Outcome, error) {
	t.Helper()
	p := mustPlan(t, text)
	cfg := baseConfig()
	cfg.Bound = s.Names()
	if err := Validate(p, cfg); err != nil {
		t.Fatalf("validate: %v", err)
	}
	return Execute(context.Background(), p, env, s)
}

func finalJSON(t *testing.T, out *Outcome) string {
	t.Helper()
	if !out.HasFinal {
		t.Fatalf("no final: %+v", out)
	}
	s, err := EncodeJSON(out.Final)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExecuteSteps(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want string // canonical JSON of the final value
	}{
		{"literal", `{"steps":[{"op":"final","value":{"a":[1,2.5,"x",null,true]}}]}`, `{"a":[1,2.5,"x",null,true]}`},
		{"inputs", `{"steps":[{"op":"final","value":[{"ref":"input","name":"query"},{"ref":"input","name":"context"}]}]}`, `["who?",{"handle":"ctx-1@1"}]`},
		{"context partition", `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"lines","size":10},"bind":"parts"},
			{"op":"final","value":{"ref":"field","value":{"ref":"index","value":{"ref":"var","name":"parts"},"index":-1},"key":"handle"}}]}`, `{"handle":"ctx-12@1"}`},
		{"context struct result", `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"search","pattern":"x"},"bind":"hits"},
			{"op":"final","value":{"ref":"var","name":"hits"}}]}`, `[{"index":0,"length":2,"start":5}]`},
		{"model", `{"steps":[{"op":"model","prompt":{"join":["Q: ",{"ref":"input","name":"query"}]},"bind":"a"},{"op":"final","value":{"ref":"var","name":"a"}}]}`, `"M(Q: who?)"`},
		{"model non-string prompt", `{"steps":[{"op":"model","prompt":{"b":1,"a":[true]},"bind":"a"},{"op":"final","value":{"ref":"var","name":"a"}}]}`, `"M({\"a\":[true],\"b\":1})"`},
		{"text of handle and string", `{"steps":[{"op":"final","value":[{"text":{"ref":"input","name":"context"}},{"text":"plain"}]}]}`, `["<ctx-1@1>","plain"]`},
		{"join serializes", `{"steps":[{"op":"final","value":{"join":["n=",3,", l=",[1,"a"],", h=",{"ref":"input","name":"context"},", z=",null]}}]}`, `"n=3, l=[1,\"a\"], h={\"handle\":\"ctx-1@1\"}, z=null"`},
		{"json", `{"steps":[{"op":"final","value":{"json":{"z":1,"a":"<&>"}}}]}`, `"{\"a\":\"<&>\",\"z\":1}"`},
		{"rlm with handle", `{"steps":[{"op":"rlm","query":"sub?","context":` + ctxHandle + `,"bind":"c"},{"op":"final","value":{"ref":"field","value":{"ref":"var","name":"c"},"key":"answer"}}]}`, `"child of sub?"`},
		{"tool default args", `{"steps":[{"op":"tool","name":"echo","bind":"e"},{"op":"final","value":{"ref":"var","name":"e"}}]}`, `{}`},
		{"tool args", `{"steps":[{"op":"tool","name":"echo","args":{"q":{"ref":"input","name":"query"},"n":[1]},"bind":"e"},{"op":"final","value":{"ref":"var","name":"e"}}]}`, `{"n":[1],"q":"who?"}`},
		{"literal escape", `{"steps":[{"op":"final","value":{"literal":{"ref":"var","name":"x"}}}]}`, `{"name":"x","ref":"var"}`},
		{"parallel", `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"model","prompt":"a","bind":"x"}]},{"steps":[{"op":"final","value":2}]},{"steps":[{"op":"checkpoint","label":"c"}]}],"bind":"p"},{"op":"final","value":{"ref":"var","name":"p"}}]}`, `["M(a)",2,null]`},
		{"map over partition", `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"lines","size":10},"bind":"parts"},
			{"op":"map","over":{"ref":"var","name":"parts"},"as":"p","plan":{"steps":[{"op":"model","prompt":{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}},"bind":"s"},{"op":"final","value":{"ref":"var","name":"s"}}]},"bind":"sums"},
			{"op":"final","value":{"ref":"var","name":"sums"}}]}`, `["M(<ctx-10@1>)","M(<ctx-11@1>)","M(<ctx-12@1>)"]`},
		{"map without final yields last binding", `{"steps":[{"op":"map","over":[1,2],"as":"i","plan":{"steps":[{"op":"model","prompt":{"ref":"var","name":"i"},"bind":"a"},{"op":"checkpoint","label":"c"}]},"bind":"m"},{"op":"final","value":{"ref":"var","name":"m"}}]}`, `["M(1)","M(2)"]`},
		{"chunk object stands for its handle", `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"lines","size":10},"bind":"parts"},
			{"op":"context","handle":{"ref":"index","value":{"ref":"var","name":"parts"},"index":1},"action":{"type":"peek","selector":"metadata"},"bind":"meta"},
			{"op":"rlm","query":"q","context":{"ref":"index","value":{"ref":"var","name":"parts"},"index":0},"bind":"c"},
			{"op":"final","value":[{"text":{"ref":"index","value":{"ref":"var","name":"parts"},"index":2}},{"ref":"var","name":"meta"}]}]}`, `["<ctx-12@1>",{"type":"peek"}]`},
		{"map over empty list", `{"steps":[{"op":"map","over":[],"as":"i","plan":{"steps":[{"op":"final","value":1}]},"bind":"m"},{"op":"final","value":{"ref":"var","name":"m"}}]}`, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, &fakeEnv{}, newSession(), tt.plan)
			if err != nil {
				t.Fatal(err)
			}
			if got := finalJSON(t, out); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestExecuteErrors(t *testing.T) {
	tests := []struct {
		name  string
		plan  string
		phase fault.Phase
		kind  fault.Kind
		path  string
		bound []string
	}{
		{"field of list", `{"steps":[{"op":"tool","name":"t","args":[1],"bind":"a"},{"op":"final","value":{"ref":"field","value":{"ref":"var","name":"a"},"key":"k"}}]}`,
			fault.PhaseExecute, KindTypeError, "steps[1].value", []string{"a"}},
		{"missing key", `{"steps":[{"op":"final","value":{"ref":"field","value":{"a":1},"key":"b"}}]}`, fault.PhaseExecute, KindMissingKey, "steps[0].value", nil},
		{"index of object", `{"steps":[{"op":"final","value":{"ref":"index","value":{"a":1},"index":0}}]}`, fault.PhaseExecute, KindTypeError, "steps[0].value", nil},
		{"index out of range", `{"steps":[{"op":"final","value":{"ref":"index","value":[1],"index":-2}}]}`, fault.PhaseExecute, KindIndexOutOfRange, "steps[0].value", nil},
		{"text of number", `{"steps":[{"op":"model","prompt":{"text":3},"bind":"a"}]}`, fault.PhaseExecute, KindTypeError, "steps[0].prompt", nil},
		{"context on string", `{"steps":[{"op":"context","handle":{"ref":"input","name":"query"},"action":{"type":"peek","selector":"metadata"},"bind":"a"}]}`, fault.PhaseExecute, KindTypeError, "steps[0].handle", nil},
		{"rlm context number", `{"steps":[{"op":"rlm","query":"q","context":7,"bind":"a"}]}`, fault.PhaseExecute, KindTypeError, "steps[0].context", nil},
		{"map over object", `{"steps":[{"op":"map","over":{"a":1},"as":"i","plan":{"steps":[{"op":"final","value":1}]},"bind":"m"}]}`, fault.PhaseExecute, KindTypeError, "steps[0].over", nil},
		{"env error keeps kind", `{"steps":[{"op":"tool","name":"ok","bind":"a"},{"op":"model","prompt":{"text":{"literal":1}},"bind":"b"}]}`, fault.PhaseExecute, KindTypeError, "steps[1].prompt", []string{"a"}},
		{"nested path", `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"final","value":1}]},{"steps":[{"op":"final","value":{"ref":"index","value":[],"index":0}}]}],"bind":"p"}]}`,
			fault.PhaseExecute, KindIndexOutOfRange, "steps[0].plans[1].steps[0].value", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, &fakeEnv{}, newSession(), tt.plan)
			checkErr(t, err, tt.phase, tt.kind, tt.path, nil)
			if out == nil || out.Err != err || out.HasFinal {
				t.Fatalf("outcome must carry the error: %+v", out)
			}
			if fmt.Sprint(out.Bound) != fmt.Sprint(tt.bound) && !(len(out.Bound) == 0 && len(tt.bound) == 0) {
				t.Fatalf("bound %v, want %v", out.Bound, tt.bound)
			}
		})
	}
}

func TestExecuteEnvErrors(t *testing.T) {
	budget := fault.New(fault.PhaseBudget, "model_calls_exhausted", "no more calls")
	env := &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		switch call.Prompt {
		case "budget":
			return "", budget
		case "plain":
			return "", errors.New("boom")
		}
		return "", context.DeadlineExceeded
	}}
	for prompt, want := range map[string]fault.Kind{"budget": "model_calls_exhausted", "plain": KindEnvError, "deadline": fault.KindTimeout} {
		_, err := run(t, env, newSession(), `{"steps":[{"op":"model","prompt":"`+prompt+`","bind":"a"}]}`)
		fe := fault.As(err)
		if fe == nil || fe.Kind != want || fe.Detail["path"] != "steps[0]" {
			t.Fatalf("%s: got %v", prompt, err)
		}
	}
	if _, ok := budget.Detail["path"]; ok {
		t.Fatal("the Env's error must not be mutated")
	}
	// The text limit error of the Env passes through with the expression's path.
	_, err := Execute(context.Background(), &Plan{Steps: []Step{{Op: OpFinal, Value: Text(Lit(corpus.Handle{ID: "ctx-big", Version: 1}))}}}, env, newSession())
	checkErr(t, err, fault.PhaseExecute, "prompt_too_large", "steps[0].value", nil)
}

func TestSessionPersistsAcrossTurns(t *testing.T) {
	env := &fakeEnv{}
	s := newSession()
	out, err := run(t, env, s, `{"steps":[{"op":"model","prompt":"one","bind":"a"},{"op":"tool","name":"t","args":[1],"bind":"b"}]}`)
	if err != nil || out.HasFinal || fmt.Sprint(out.Bound) != "[a b]" {
		t.Fatalf("turn 1: %+v %v", out, err)
	}
	out, err = run(t, env, s, `{"steps":[{"op":"model","prompt":{"ref":"var","name":"a"},"bind":"c"},{"op":"final","value":[{"ref":"var","name":"c"},{"ref":"var","name":"b"}]}]}`)
	if err != nil || fmt.Sprint(out.Bound) != "[c]" {
		t.Fatalf("turn 2: %+v %v", out, err)
	}
	if got := finalJSON(t, out); got != `["M(M(one))",[1]]` {
		t.Fatalf("got %s", got)
	}
	if fmt.Sprint(s.Names()) != "[a b c]" {
		t.Fatalf("names %v", s.Names())
	}
	// Re-binding across turns fails at validation, and at run time too.
	cfg := baseConfig()
	cfg.Bound = s.Names()
	p := mustPlan(t, `{"steps":[{"op":"tool","name":"t","bind":"a"}]}`)
	checkErr(t, Validate(p, cfg), fault.PhaseValidate, KindReboundVariable, "steps[0].bind", nil)
	// The session's HasVar as IsBound is the same check as its Names as
	// Bound, for a bind and for a read.
	byLookup := baseConfig()
	byLookup.IsBound = s.HasVar
	checkErr(t, Validate(p, byLookup), fault.PhaseValidate, KindReboundVariable, "steps[0].bind", nil)
	reads := mustPlan(t, `{"steps":[{"op":"final","value":[{"ref":"var","name":"c"},{"ref":"var","name":"d"}]}]}`)
	for _, c := range []ValidateConfig{cfg, byLookup} {
		checkErr(t, Validate(reads, c), fault.PhaseValidate, KindUnboundVariable, "steps[0].value[1]", map[string]any{"name": "d"})
	}
	_, err = Execute(context.Background(), p, env, s)
	checkErr(t, err, fault.PhaseExecute, KindReboundVariable, "steps[0].bind", nil)
}

func TestNestedScopes(t *testing.T) {
	env := &fakeEnv{}
	s := newSession()
	out, err := run(t, env, s, `{"steps":[
		{"op":"tool","name":"t","args":"outer","bind":"o"},
		{"op":"map","over":[1,2],"as":"i","plan":{"steps":[
			{"op":"tool","name":"t","args":[{"ref":"var","name":"o"},{"ref":"var","name":"i"}],"bind":"local"},
			{"op":"map","over":["x"],"as":"j","plan":{"steps":[{"op":"final","value":[{"ref":"var","name":"i"},{"ref":"var","name":"j"},{"ref":"var","name":"local"}]}]},"bind":"inner"},
			{"op":"checkpoint","label":"in-item"},
			{"op":"final","value":{"ref":"var","name":"inner"}}]},"bind":"m"},
		{"op":"retry","attempts":1,"plan":{"steps":[{"op":"tool","name":"t","args":1,"bind":"local"}]},"bind":"r"},
		{"op":"tool","name":"t","args":2,"bind":"local"},
		{"op":"final","value":[{"ref":"var","name":"m"},{"ref":"var","name":"r"},{"ref":"var","name":"local"}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `[[[[1,"x",["outer",1]]],[[2,"x",["outer",2]]]],1,2]`
	if got := finalJSON(t, out); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if fmt.Sprint(s.Names()) != "[o m r local]" {
		t.Fatalf("sub-plan bindings leaked: %v", s.Names())
	}
	// Checkpoints see the parent's variables and the item's.
	for _, vars := range env.checkpoints {
		if vars["o"] != "outer" || vars["i"] == nil || vars["local"] == nil || vars["inner"] == nil {
			t.Fatalf("checkpoint vars %v", vars)
		}
	}
}

// blockingModel makes model calls take a while (or until cancelled).
func blockingModel(d time.Duration) func(ctx context.Context, call ModelCall) (string, error) {
	return func(ctx context.Context, call ModelCall) (string, error) {
		select {
		case <-time.After(d):
			return "M(" + call.Prompt + ")", nil
		case <-ctx.Done():
			return "", fault.FromContext(fault.PhaseProvider, ctx.Err())
		}
	}
}

// gate holds model calls until n of them are in flight at once (counted
// by f.enter before modelFn runs), then lets every call through: a test of
// the concurrency reached does not depend on goroutines starting within a
// model call's sleep. A bound below n never opens it: after 10 s the calls
// go on, and the test's check of maxInFlight reports it.
func gate(f *fakeEnv, n int32) func(ctx context.Context) error {
	open := make(chan struct{})
	var once sync.Once
	return func(ctx context.Context) error {
		if f.inFlight.Load() >= n {
			once.Do(func() { close(open) })
		}
		select {
		case <-open:
		case <-ctx.Done():
			return fault.FromContext(fault.PhaseProvider, ctx.Err())
		case <-time.After(10 * time.Second):
		}
		return nil
	}
}

func mapPlan(n, concurrency int, failFast bool, prompt string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprint(i)
	}
	c := ""
	if concurrency > 0 {
		c = fmt.Sprintf(`"concurrency":%d,`, concurrency)
	}
	return fmt.Sprintf(`{"steps":[{"op":"map","over":[%s],"as":"i",%s"fail_fast":%t,"plan":{"steps":[{"op":"model","prompt":%s,"bind":"r"}]},"bind":"m"},{"op":"final","value":{"ref":"var","name":"m"}}]}`,
		strings.Join(items, ","), c, failFast, prompt)
}

func TestMapConcurrencyBoundAndOrder(t *testing.T) {
	tests := []struct {
		name     string
		stepConc int
		sessMax  int
		want     int32
	}{
		{"step concurrency", 3, 0, 3},
		{"default concurrency", 0, 0, DefaultConcurrency},
		{"session cap", 8, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Later items answer faster, so completion order differs from input order.
			env := &fakeEnv{}
			wait := gate(env, tt.want)
			env.modelFn = func(ctx context.Context, call ModelCall) (string, error) {
				if err := wait(ctx); err != nil {
					return "", err
				}
				var i int
				fmt.Sscan(call.Prompt, &i)
				return blockingModel(time.Duration(20-i)*time.Millisecond)(ctx, call)
			}
			s := NewSession(nil, SessionOptions{MaxConcurrency: tt.sessMax})
			out, err := run(t, env, s, mapPlan(12, tt.stepConc, false, `{"ref":"var","name":"i"}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := env.maxInFlight.Load(); got != tt.want {
				t.Fatalf("max in flight %d, want %d", got, tt.want)
			}
			want := `["M(0)","M(1)","M(2)","M(3)","M(4)","M(5)","M(6)","M(7)","M(8)","M(9)","M(10)","M(11)"]`
			if got := finalJSON(t, out); got != want {
				t.Fatalf("order: %s", got)
			}
			if len(env.admitted) != 1 || env.admitted[0].ModelCalls != 12 || env.admitted[0].Steps != 12 {
				t.Fatalf("admitted %+v", env.admitted)
			}
		})
	}
}

func TestMapIsolatesFailures(t *testing.T) {
	env := &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		if call.Prompt == "2" {
			return "", fault.New(fault.PhaseProvider, "http_status", "bad gateway").With("status", 502)
		}
		return "M(" + call.Prompt + ")", nil
	}}
	out, err := run(t, env, newSession(), mapPlan(4, 2, false, `{"ref":"var","name":"i"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `["M(0)","M(1)",{"error":{"detail":{"item":2,"path":"steps[0].plan.steps[0]","status":502},"kind":"http_status","message":"bad gateway","phase":"provider"}},"M(3)"]`
	if got := finalJSON(t, out); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestMapFailFastCancels(t *testing.T) {
	var cancelled atomic.Int32
	env := &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		if call.Prompt == "1" {
			time.Sleep(5 * time.Millisecond)
			return "", fault.New(fault.PhaseProvider, "http_status", "bad")
		}
		select {
		case <-time.After(5 * time.Second):
			return "late", nil
		case <-ctx.Done():
			cancelled.Add(1)
			return "", fault.FromContext(fault.PhaseProvider, ctx.Err())
		}
	}}
	start := time.Now()
	out, err := run(t, env, newSession(), mapPlan(10, 4, true, `{"ref":"var","name":"i"}`))
	checkErr(t, err, fault.PhaseProvider, "http_status", "steps[0].plan.steps[0]", map[string]any{"item": 1})
	if time.Since(start) > 2*time.Second {
		t.Fatal("fail_fast did not cancel the other items")
	}
	if cancelled.Load() != 3 {
		t.Fatalf("cancelled %d in-flight items, want 3", cancelled.Load())
	}
	if len(out.Bound) != 0 {
		t.Fatalf("bound %v", out.Bound)
	}
}

func TestMapBudgetErrorIsNotIsolated(t *testing.T) {
	env := &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		if call.Prompt == "0" {
			return "", fault.New(fault.PhaseBudget, "model_calls_exhausted", "out")
		}
		return blockingModel(5*time.Second)(ctx, call)
	}}
	_, err := run(t, env, newSession(), mapPlan(3, 3, false, `{"ref":"var","name":"i"}`))
	checkErr(t, err, fault.PhaseBudget, "model_calls_exhausted", "steps[0].plan.steps[0]", nil)
}

func TestMapAdmitRefuses(t *testing.T) {
	env := &fakeEnv{admitFn: func(est Estimate) error {
		return fault.New(fault.PhaseBudget, "model_calls_exhausted", "too many").With("requested", est.ModelCalls)
	}}
	_, err := run(t, env, newSession(), mapPlan(5, 0, false, `"x"`))
	checkErr(t, err, fault.PhaseBudget, "model_calls_exhausted", "steps[0]", map[string]any{"requested": 5})
	for _, c := range env.calls {
		if strings.HasPrefix(c, "model") {
			t.Fatal("no item may run after Admit refuses")
		}
	}
}

func TestRetry(t *testing.T) {
	var n atomic.Int32
	flaky := func(failures int32, kind fault.Kind, phase fault.Phase) func(ctx context.Context, name string, args Value) (Value, error) {
		n.Store(0)
		return func(ctx context.Context, name string, args Value) (Value, error) {
			if n.Add(1) <= failures {
				return nil, fault.New(phase, kind, "flaky")
			}
			return "ok", nil
		}
	}
	plan := `{"steps":[{"op":"retry","attempts":3,"plan":{"steps":[{"op":"tool","name":"flaky","bind":"r"}]},"bind":"x"},{"op":"final","value":{"ref":"var","name":"x"}}]}`
	tests := []struct {
		name     string
		failures int32
		kind     fault.Kind
		phase    fault.Phase
		calls    int32
		wantKind fault.Kind
	}{
		{"succeeds after two failures", 2, "tool_failed", fault.PhaseTool, 3, ""},
		{"exhausted", 5, "tool_failed", fault.PhaseTool, 3, "tool_failed"},
		{"budget not retried", 5, "tool_calls_exhausted", fault.PhaseBudget, 1, "tool_calls_exhausted"},
		{"cancelled not retried", 5, fault.KindCancelled, fault.PhaseTool, 1, fault.KindCancelled},
		{"timeout not retried", 5, fault.KindTimeout, fault.PhaseTool, 1, fault.KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &fakeEnv{toolFn: flaky(tt.failures, tt.kind, tt.phase)}
			out, err := run(t, env, newSession(), plan)
			if n.Load() != tt.calls {
				t.Fatalf("calls %d, want %d", n.Load(), tt.calls)
			}
			if tt.wantKind == "" {
				if err != nil || finalJSON(t, out) != `"ok"` {
					t.Fatalf("got %v %v", out, err)
				}
				return
			}
			checkErr(t, err, tt.phase, tt.wantKind, "steps[0].plan.steps[0]", map[string]any{"attempt": int(tt.calls)})
		})
	}
}

func TestParallelRunsConcurrentlyAndFailsTogether(t *testing.T) {
	env := &fakeEnv{}
	wait := gate(env, 5)
	env.modelFn = func(ctx context.Context, call ModelCall) (string, error) {
		if err := wait(ctx); err != nil {
			return "", err
		}
		return blockingModel(30*time.Millisecond)(ctx, call)
	}
	branches := make([]string, 5)
	for i := range branches {
		branches[i] = fmt.Sprintf(`{"steps":[{"op":"model","prompt":"%d","bind":"r"}]}`, i)
	}
	out, err := run(t, env, newSession(), `{"steps":[{"op":"parallel","plans":[`+strings.Join(branches, ",")+`],"bind":"p"},{"op":"final","value":{"ref":"var","name":"p"}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if env.maxInFlight.Load() != 5 {
		t.Fatalf("max in flight %d", env.maxInFlight.Load())
	}
	if got := finalJSON(t, out); got != `["M(0)","M(1)","M(2)","M(3)","M(4)"]` {
		t.Fatal(got)
	}

	env = &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		if call.Prompt == "3" {
			return "", fault.New(fault.PhaseProvider, "http_status", "bad")
		}
		return blockingModel(5*time.Second)(ctx, call)
	}}
	start := time.Now()
	_, err = run(t, env, newSession(), `{"steps":[{"op":"parallel","plans":[`+strings.Join(branches, ",")+`],"bind":"p"}]}`)
	checkErr(t, err, fault.PhaseProvider, "http_status", "steps[0].plans[3].steps[0]", nil)
	if time.Since(start) > 2*time.Second {
		t.Fatal("a failing branch must cancel the others")
	}
}

func TestCancellation(t *testing.T) {
	started := make(chan struct{}, 64)
	env := &fakeEnv{modelFn: func(ctx context.Context, call ModelCall) (string, error) {
		started <- struct{}{}
		return blockingModel(10*time.Second)(ctx, call)
	}}
	ctx, cancel := context.WithCancel(context.Background())
	p := mustPlan(t, mapPlan(20, 4, false, `{"ref":"var","name":"i"}`))
	done := make(chan error, 1)
	var out *Outcome
	go func() {
		var err error
		out, err = Execute(ctx, p, env, newSession())
		done <- err
	}()
	for range 4 {
		<-started
	}
	cancel()
	select {
	case err := <-done:
		if fault.KindOf(err) != fault.KindCancelled {
			t.Fatalf("got %v", err)
		}
		if out.Err != err {
			t.Fatal("outcome must carry the error")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Execute did not return promptly after cancellation")
	}
	if n := len(env.calls); n != 4 {
		t.Fatalf("%d model calls started, want 4", n)
	}
	// Cancelled before the first step.
	_, err := Execute(ctx, p, env, newSession())
	checkErr(t, err, fault.PhaseExecute, fault.KindCancelled, "steps[0]", nil)
	// goleak in TestMain checks that no goroutine was left behind.
}

func TestExecuteNeedsEnvAndSession(t *testing.T) {
	p := &Plan{Steps: []Step{{Op: OpFinal, Value: Lit(1)}}}
	for _, tc := range []struct {
		env Env
		s   *Session
	}{{nil, newSession()}, {&fakeEnv{}, nil}} {
		out, err := Execute(context.Background(), p, tc.env, tc.s)
		if fault.KindOf(err) != KindInvalidArgument || out == nil || out.Err != err {
			t.Fatalf("got %+v %v", out, err)
		}
	}
}

func TestExecuteUnvalidated(t *testing.T) {
	env := &fakeEnv{}
	tests := []struct {
		name string
		plan *Plan
		kind fault.Kind
		path string
	}{
		{"nil", nil, KindEmptyPlan, "steps"},
		{"text of object without handle", &Plan{Steps: []Step{{Op: OpFinal, Value: Text(Object(map[string]*Expr{"handle": Lit("ctx-1@1")}))}}}, KindTypeError, "steps[0].value"},
		{"unknown op", &Plan{Steps: []Step{{Op: "eval"}}}, KindUnknownOp, "steps[0].op"},
		{"unbound", &Plan{Steps: []Step{{Op: OpFinal, Value: Var("x")}}}, KindUnboundVariable, "steps[0].value"},
		{"unknown input", &Plan{Steps: []Step{{Op: OpFinal, Value: Input("x")}}}, KindUnknownInput, "steps[0].value"},
		{"bad bind", &Plan{Steps: []Step{{Op: OpTool, Name: "t", Bind: "1x"}}}, KindInvalidArgument, "steps[0].bind"},
		{"missing expr", &Plan{Steps: []Step{{Op: OpModel, Bind: "x"}}}, fault.KindMissingField, "steps[0].prompt"},
		{"empty sub-plan", &Plan{Steps: []Step{{Op: OpRetry, Attempts: 1, Plan: &Plan{}, Bind: "x"}}}, KindEmptyPlan, "steps[0].plan.steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Execute(context.Background(), tt.plan, env, newSession())
			checkErr(t, err, fault.PhaseExecute, tt.kind, tt.path, nil)
		})
	}
}
