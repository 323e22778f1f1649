package rlm

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// Every field of a Spec but Tools survives a JSON round trip, durations
// as milliseconds.
func TestSpecJSONRoundTrip(t *testing.T) {
	temp := 0.0
	in := Spec{
		Context: []string{"a.log", "dir"}, Mode: "code", AutoShare: 0.4, ContextWindow: 32768, CompactAt: 0.7, NoCompaction: true, Python: "pyodide",
		ModelWindows: []model.Info{{Prefix: "llama3.1", Window: 8192, MaxOutput: 2048, Tokenizer: "llama3"}}, NoAutoSplit: true,
		Provider: "anthropic", BaseURL: "http://127.0.0.1:1/v1", Model: "m", SubModel: "s", FallbackModels: []string{"f1", "f2"}, APIKeyEnv: "K",
		RequestTimeout: 1500 * time.Millisecond, Replay: "r.json", Record: "w.json", StrictCost: true,
		Cache:  CacheSpec{Dir: "c", AnyTemperature: true, Temperature: &temp},
		Limits: budget.Limits{MaxIterations: 3, MaxCostUSD: 0.5, TimeLimit: time.Minute}, DeepRecursion: true,
		Stream: true, MaxRepairs: -1, AnswerSchema: json.RawMessage(`{"type":"object"}`), AnswerSchemaFile: "a.json",
		Allow: []string{"tool:fs_read"}, Authority: "allow_once", Workspace: "ws",
		StateDir: "st", Resume: "run-1", MCP: "mcp.json", Trace: "t.jsonl", TraceContent: true,
		OTLP: OTLPSpec{Endpoint: "http://127.0.0.1:4318", Content: true}, Durable: DurableSpec{Database: "postgres://x", Queue: "q"},
		Direct: DirectSpec{Projection: "all_tools", MaxNativeCallsPerBatch: 4, MaxTokens: 100, SynthesisReserve: 2 * time.Second},
		Delegation: DelegationSpec{Role: "r", Skills: []string{"s"}, Allow: []string{}, Model: "c", SkillsFile: "k.json", MaxAgents: 3,
			Timeout: subagent.TimeoutPolicy{Default: time.Second, Max: time.Minute, Grace: time.Millisecond}},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Spec
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip changed the spec:\n in %+v\nout %+v\n%s", in, out, b)
	}
	// Every field is set above: a new field must be added to the test.
	v := reflect.ValueOf(in)
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Name != "Tools" && v.Field(i).IsZero() {
			t.Errorf("field %s is not exercised", f.Name)
		}
	}
	b, _ = json.Marshal(Spec{})
	if string(b) != "{}" {
		t.Errorf("the zero Spec is %s, want {}", b)
	}
}

// Open refuses what cannot run before anything is read or called, with
// the Kind of each refusal.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	effectful := tool.Func("notify", "notify", func(context.Context, struct{}) (string, error) { return "", nil })
	effectful.Effect = authority.EffectNetworkWrite
	cases := []struct {
		name string
		spec Spec
		kind fault.Kind
	}{
		{"mode", Spec{Mode: "lisp"}, fault.KindInvalidConfig},
		{"provider", Spec{Provider: "gemini"}, KindInvalidUsage},
		{"deep", Spec{Limits: budget.Limits{MaxDepth: engine.MaxSupportedDepth + 1}}, engine.KindDeepRecursionRequired},
		{"deep with the deprecated opt-in", Spec{Limits: budget.Limits{MaxDepth: engine.MaxSupportedDepth + 1}, DeepRecursion: true}, engine.KindDeepRecursionRequired},
		{"auto share above 1", Spec{Mode: ModeAuto, AutoShare: 1.5}, fault.KindInvalidConfig},
		{"negative auto share", Spec{Mode: ModeAuto, AutoShare: -0.1}, fault.KindInvalidConfig},
		{"negative context window", Spec{ContextWindow: -1}, fault.KindInvalidConfig},
		{"compact at above 1", Spec{CompactAt: 1.5}, fault.KindInvalidConfig},
		{"negative compact at", Spec{CompactAt: -0.5}, fault.KindInvalidConfig},
		{"compact at NaN", Spec{CompactAt: math.NaN()}, fault.KindInvalidConfig},
		{"compact at with no compaction", Spec{CompactAt: 0.5, NoCompaction: true}, fault.KindInvalidConfig},
		{"unwritable trace", Spec{Trace: filepath.Join(dir, "missing", "t.json")}, KindUnwritableOutput},
		{"same output twice", Spec{Trace: filepath.Join(dir, "x"), Record: filepath.Join(dir, "x")}, KindUnwritableOutput},
		{"strict cost", Spec{Model: "no-such-model", StrictCost: true}, KindUnpricedModel},
		{"record with cache dir", Spec{Record: filepath.Join(dir, "c.json"), Cache: CacheSpec{Dir: dir}}, KindInvalidUsage},
		{"resume without journal", Spec{Resume: "run-1"}, fault.KindInvalid},
		{"tool name", Spec{Tools: []tool.Spec{{Name: "bad name"}}}, tool.KindInvalidTool},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.spec.Replay = "testdata/quickstart.cassette.json"
			s, err := Open(context.Background(), c.spec)
			if err == nil {
				s.Close()
			}
			if k := fault.KindOf(err); k != c.kind {
				t.Fatalf("kind %q, want %q (%v)", k, c.kind, err)
			}
		})
	}
}

// A program's effectful tool is granted and opens the effect journal in
// StateDir; a read tool opens none.
func TestOpenToolsGrantedJournal(t *testing.T) {
	read := tool.Func("lookup", "lookup", func(context.Context, struct{}) (string, error) { return "", nil })
	notify := tool.Func("notify", "notify", func(context.Context, struct{}) (string, error) { return "", nil })
	notify.Effect = authority.EffectNetworkWrite
	for _, c := range []struct {
		tools   []tool.Spec
		journal bool
	}{{[]tool.Spec{read}, false}, {[]tool.Spec{read, notify}, true}} {
		dir := t.TempDir()
		s, err := Open(context.Background(), Spec{Tools: c.tools, StateDir: dir, Replay: "testdata/quickstart.cassette.json"})
		if err != nil {
			t.Fatal(err)
		}
		ts := s.Tools()
		for _, tl := range c.tools {
			if !ts.Caps.Has(capability.Tool(tl.Name)) {
				t.Errorf("tool %s not granted: %v", tl.Name, ts.Caps.Strings())
			}
		}
		if ts.Journaled() != c.journal {
			t.Errorf("journal open = %v, want %v", ts.Journaled(), c.journal)
		}
		store := corpus.NewStore()
		defer store.Close()
		if _, err := engine.New(s.engineConfig(store, "")); err != nil {
			t.Errorf("engine refuses the session's tools: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// The engine refuses an effectful tool whose runtime has no journal when
// it is configured, not when the model calls it.
func TestEngineRefusesEffectfulToolWithoutJournal(t *testing.T) {
	notify := tool.Func("notify", "notify", func(context.Context, struct{}) (string, error) { return "", nil })
	notify.Effect = authority.EffectNetworkWrite
	reg := tool.NewRegistry()
	if err := reg.Register(notify); err != nil {
		t.Fatal(err)
	}
	rt := tool.NewRuntime(reg, tool.Config{})
	store := corpus.NewStore()
	defer store.Close()
	p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return nil, nil })
	_, err := engine.New(engine.Config{Provider: p, Store: store, Tools: &tool.ModelTools{Registry: reg, Invoker: rt}})
	if fault.KindOf(err) != effect.KindStoreRequired {
		t.Fatalf("want effect_store_required, got %v", err)
	}
}
