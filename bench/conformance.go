package bench

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

//go:embed testdata/conformance/*.json
var conformanceFS embed.FS

// Models named by the conformance cassettes. Both are in the price table,
// so costs are estimated deterministically from the scripted usage.
const (
	ConformanceModel    = "gpt-4o"
	ConformanceSubModel = "gpt-4o-mini"
)

// ConformanceText is the context every conformance case runs over: twelve
// short lines, three of which contain "needle".
var ConformanceText = func() string {
	words := []string{"alpha", "beta", "needle", "gamma"}
	var b strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "row-%02d %s payload\n", i, words[(i-1)%4])
	}
	return b.String()
}()

// Case statuses.
const (
	CasePass = "pass"
	CaseFail = "fail"
)

// CaseMetrics are the figures of one conformance case.
type CaseMetrics struct {
	ModelCalls  int64   `json:"model_calls"`
	ToolCalls   int64   `json:"tool_calls"`
	ContextOps  int64   `json:"context_ops"`
	Turns       int     `json:"turns"`
	TotalTokens int64   `json:"total_tokens"`
	CostUSD     float64 `json:"cost_usd"`
	MaxDepth    int     `json:"recursion_depth"`
	MaxInFlight int64   `json:"max_in_flight"`
	Requests    int     `json:"replayed_requests"`
	LatencyMS   float64 `json:"latency_ms"`
}

// CaseResult is the outcome of one conformance case.
type CaseResult struct {
	Name        string      `json:"name"`
	Category    string      `json:"category"`
	Description string      `json:"description"`
	Status      string      `json:"status"`
	Reason      string      `json:"reason,omitempty"`
	RunStatus   string      `json:"run_status"`
	ErrorKind   fault.Kind  `json:"error_kind,omitempty"`
	Answer      any         `json:"answer,omitempty"`
	Metrics     CaseMetrics `json:"metrics"`
}

// ConformanceReport is the outcome of the conformance suite.
type ConformanceReport struct {
	SchemaVersion int          `json:"schema_version"`
	Suite         string       `json:"suite"`
	Status        string       `json:"status"`
	CaseCount     int          `json:"case_count"`
	Passed        int          `json:"passed"`
	Failed        int          `json:"failed"`
	ElapsedMS     float64      `json:"elapsed_ms"`
	Cases         []CaseResult `json:"cases"`
}

// confCase is one conformance case: an engine configuration, a query and
// the expected outcome. The model's side of the conversation is the
// embedded cassette testdata/conformance/NAME.json.
type confCase struct {
	name, category, desc string
	limits               budget.Limits
	deep                 bool
	tools                bool
	cancelAfter          time.Duration
	// mode is the engine mode (default plan); noCode runs code mode with
	// capabilities that lack code.
	mode   string
	noCode bool
	// Expectations: the run status, the error kind when failing, the
	// answer (compared as canonical JSON) when set, and extra checks.
	status string
	kind   fault.Kind
	answer any
	check  func(res *engine.Result, st replay.Stats) string
}

// Query returns the query of a conformance case; cassettes match on it.
func caseQuery(name string) string { return "conformance case " + name }

func conformanceCases() []confCase {
	ok := func(name, category, desc string, answer any) confCase {
		return confCase{name: name, category: category, desc: desc, status: engine.StatusCompleted, answer: answer}
	}
	fail := func(name, category, desc string, kind any) confCase {
		k, _ := kind.(fault.Kind)
		if s, ok := kind.(string); ok {
			k = fault.Kind(s)
		}
		return confCase{name: name, category: category, desc: desc, status: engine.StatusFailed, kind: k}
	}
	with := func(c confCase, f func(*confCase)) confCase { f(&c); return c }
	counters := func(calls, tools, ops int64) func(*engine.Result, replay.Stats) string {
		return func(r *engine.Result, _ replay.Stats) string {
			c := r.Counters
			if c.ModelCalls != calls || c.ToolCalls != tools || c.ContextOps != ops {
				return fmt.Sprintf("counters model=%d tool=%d context=%d, want %d/%d/%d", c.ModelCalls, c.ToolCalls, c.ContextOps, calls, tools, ops)
			}
			return ""
		}
	}
	cases := []confCase{
		with(ok("answer_direct", "step", `a direct {"answer":...} ends the run in one turn`, "direct"),
			func(c *confCase) { c.check = counters(1, 0, 0) }),
		with(ok("step_context_peek", "step", "context peek head returns the first bytes", "row-01 alpha pay"),
			func(c *confCase) { c.check = counters(1, 0, 1) }),
		with(ok("step_context_slice", "step", "context slice returns a byte range", "row-02 beta payload"),
			func(c *confCase) { c.check = counters(1, 0, 1) }),
		with(ok("step_context_search", "step", "context search returns the matching lines", []any{3, "row-11 needle payload"}),
			func(c *confCase) { c.check = counters(1, 0, 1) }),
		with(ok("step_context_partition", "step", "context partition yields sub-context handles whose text a plan can read",
			"row-05 alpha payload\nrow-06 beta payload\nrow-07 needle payload\nrow-08 gamma payload\n"),
			// The partition, then reading one chunk's text (a slice).
			func(c *confCase) { c.check = counters(1, 0, 2) }),
		with(ok("step_context_map", "step", "context map transforms every line", "ROW-01 ALPHA PAYLOAD"),
			func(c *confCase) { c.check = counters(1, 0, 1) }),
		with(ok("step_context_reduce", "step", "context reduce counts the lines", 12),
			func(c *confCase) { c.check = counters(1, 0, 1) }),
		with(ok("step_model", "step", "a model step makes one sub-call with the sub-model", "three needles"),
			func(c *confCase) {
				c.check = func(r *engine.Result, st replay.Stats) string {
					// Embedding the context's text in the prompt is one slice.
					if s := counters(2, 0, 1)(r, st); s != "" {
						return s
					}
					if r.UsageByDepth[1].Calls != 1 {
						return "the sub-call was not charged at depth 1"
					}
					return ""
				}
			}),
		with(ok("step_rlm", "step", "an rlm step runs a child loop at depth 1 over a sub-context", "child saw row-02"),
			func(c *confCase) {
				c.check = func(r *engine.Result, _ replay.Stats) string {
					if r.Recursion.RecursiveCalls != 1 || r.Recursion.MaxDepth != 1 {
						return fmt.Sprintf("recursion %+v, want one child at depth 1", r.Recursion)
					}
					return ""
				}
			}),
		with(ok("step_tool", "step", "a tool step calls a registered tool through engine.Tools", 3),
			func(c *confCase) { c.tools = true; c.check = counters(1, 1, 1) }),
		with(ok("step_map", "step", "a map step fans out sub-calls within the concurrency limit and keeps input order",
			[]any{"chunk 1", "chunk 2", "chunk 3", "chunk 4"}),
			func(c *confCase) {
				c.limits.MaxConcurrency = 2
				c.check = func(r *engine.Result, st replay.Stats) string {
					// The partition and one text read per chunk.
					if s := counters(5, 0, 5)(r, st); s != "" {
						return s
					}
					if r.Counters.MaxInFlight > 2 {
						return fmt.Sprintf("max in flight %d exceeds the limit 2", r.Counters.MaxInFlight)
					}
					return ""
				}
			}),
		with(ok("step_parallel", "step", "a parallel step runs fixed sub-plans and binds their results in order", []any{3, "hello"}),
			func(c *confCase) { c.check = counters(2, 0, 1) }),
		with(ok("step_retry", "step", "a retry step re-runs a sub-plan after a failed attempt", "steady"),
			func(c *confCase) { c.check = counters(3, 0, 0) }),
		with(ok("step_checkpoint", "step", "a checkpoint step records a labelled checkpoint in the trace", "done"),
			func(c *confCase) {
				c.check = func(r *engine.Result, _ replay.Stats) string {
					for _, ev := range r.Trajectory {
						if ev.Kind == trace.KindNote && ev.Name == "checkpoint after-search" {
							return ""
						}
					}
					return "no checkpoint event in the trajectory"
				}
			}),
		with(ok("step_final_multi_turn", "step", "a plan without final yields an observation; a later final step answers", "row-03 needle payload"),
			func(c *confCase) {
				c.check = func(r *engine.Result, st replay.Stats) string {
					if r.Turns != 2 {
						return fmt.Sprintf("%d turns, want 2", r.Turns)
					}
					return counters(2, 0, 1)(r, st)
				}
			}),
		with(ok("plan_repair", "validation", "an invalid plan gets one repair message and is not executed", "repaired"),
			func(c *confCase) { c.check = counters(2, 0, 0) }),
		fail("capability_denied", "validation", "a step needing an ungranted capability is refused", "capability_denied"),
		with(fail("depth4_refused", "recursion", "max depth 4, above the supported maximum 3, fails before any model call", engine.KindDeepRecursionRequired),
			func(c *confCase) {
				c.limits.MaxDepth = engine.MaxSupportedDepth + 1
				c.check = func(_ *engine.Result, st replay.Stats) string {
					if st.Requests != 0 {
						return fmt.Sprintf("%d model requests before the refusal", st.Requests)
					}
					return ""
				}
			}),
		with(ok("depth2_allowed", "recursion", "max depth 2 needs no opt-in: a grandchild runs at depth 2", "deep"),
			func(c *confCase) {
				c.limits.MaxDepth = 2
				c.check = func(r *engine.Result, _ replay.Stats) string {
					if r.Recursion.MaxDepth != 2 || r.Recursion.RecursiveCalls != 2 {
						return fmt.Sprintf("recursion %+v, want 2 children reaching depth 2", r.Recursion)
					}
					return ""
				}
			}),
		fail("depth_limit_default", "recursion", "at the default max depth 1 a grandchild is refused", budget.KindMaxDepth),
		with(fail("cycle_rejected", "recursion", "a child repeating an ancestor's query over the same context is rejected", engine.KindRecursiveCycle),
			func(c *confCase) { c.limits.MaxDepth, c.deep = 3, true }),
		with(fail("budget_iterations", "budget", "max_iterations ends the run", budget.KindMaxIterations),
			func(c *confCase) { c.limits.MaxIterations = 1 }),
		with(fail("budget_model_calls", "budget", "max_model_calls ends the run", budget.KindMaxModelCalls),
			func(c *confCase) { c.limits.MaxModelCalls = 1 }),
		with(fail("budget_tool_calls", "budget", "max_tool_calls ends the run", budget.KindMaxToolCalls),
			func(c *confCase) { c.limits.MaxToolCalls, c.tools = 1, true }),
		with(fail("budget_context_ops", "budget", "max_context_ops ends the run", budget.KindMaxContextOps),
			func(c *confCase) { c.limits.MaxContextOps = 1 }),
		with(fail("budget_tokens", "budget", "max_total_tokens ends the run", budget.KindMaxTotalTokens),
			func(c *confCase) { c.limits.MaxTotalTokens = 50 }),
		with(fail("budget_cost", "budget", "max_cost ends the run (estimated cost)", budget.KindMaxCost),
			func(c *confCase) { c.limits.MaxCostUSD = 0.0001 }),
		with(fail("budget_output_bytes", "budget", "max_output_bytes refuses a long final answer", budget.KindMaxOutputBytes),
			func(c *confCase) { c.limits.MaxOutputBytes = 10 }),
		with(fail("budget_time", "budget", "the time limit ends a run whose model is slow", budget.KindTimeLimit),
			func(c *confCase) { c.limits.TimeLimit = 50 * time.Millisecond }),
		with(confCase{name: "cancellation", category: "cancellation", desc: "cancelling the context stops an in-flight fan-out promptly",
			status: engine.StatusCancelled, kind: fault.KindCancelled},
			func(c *confCase) {
				c.cancelAfter = 100 * time.Millisecond
				c.check = func(r *engine.Result, _ replay.Stats) string {
					if r.ElapsedMS > 2000 {
						return fmt.Sprintf("cancellation took %.0f ms", r.ElapsedMS)
					}
					return ""
				}
			}),
	}
	return append(cases, codeCases(ok, fail, with, counters)...)
}

// codeCases are the code-mode cases: the model writes Python in the
// sandboxed REPL.
func codeCases(ok, fail func(name, category, desc string, x any) confCase, with func(confCase, func(*confCase)) confCase,
	counters func(calls, tools, ops int64) func(*engine.Result, replay.Stats) string) []confCase {
	code := func(c confCase) confCase { c.mode = engine.ModeCode; return c }
	return []confCase{
		code(with(ok("code_final", "code", "FINAL(value) from executed code ends the run", 12),
			func(c *confCase) { c.check = counters(1, 0, 1) })),
		code(with(ok("code_variables_persist", "code", "variables persist across turns in one interpreter", []any{3, 7, 11}),
			func(c *confCase) { c.check = counters(2, 0, 1) })),
		code(ok("code_final_var", "code", "FINAL_VAR(name) answers with a variable", []any{"row-03", "row-07", "row-11"})),
		code(ok("code_answer_dict", "code", `answer = {"content": V, "ready": True} ends the run`, 12)),
		code(with(ok("code_llm_query_batched", "code", "llm_query_batched fans out within the concurrency limit and keeps input order",
			[]any{"chunk 1", "chunk 2", "chunk 3"}),
			func(c *confCase) {
				c.limits.MaxConcurrency = 2
				c.check = func(r *engine.Result, st replay.Stats) string {
					if r.Counters.MaxInFlight > 2 {
						return fmt.Sprintf("max in flight %d exceeds the limit 2", r.Counters.MaxInFlight)
					}
					return counters(4, 0, 4)(r, st)
				}
			})),
		code(with(ok("code_rlm_query", "code", "rlm_query runs a child loop with its own interpreter at depth 1", "child saw row-02"),
			func(c *confCase) {
				c.check = func(r *engine.Result, _ replay.Stats) string {
					if r.Recursion.RecursiveCalls != 1 || r.Recursion.MaxDepth != 1 {
						return fmt.Sprintf("recursion %+v, want one child at depth 1", r.Recursion)
					}
					return ""
				}
			})),
		code(with(ok("code_tool", "code", "call_tool goes through engine.Tools with the loop's capabilities", 3),
			func(c *confCase) { c.tools = true; c.check = counters(1, 1, 1) })),
		code(with(ok("code_invented_output", "code", "an invented output followed by FINAL in the same reply does not finish the run", 3),
			func(c *confCase) { c.check = counters(2, 0, 1) })),
		code(with(ok("code_no_code_repair", "code", "a reply without code gets one host-written request for code", 12),
			func(c *confCase) { c.check = counters(2, 0, 1) })),
		code(ok("code_exception_observation", "code", "an exception is an observation with its type, not a failure", 12)),
		code(with(ok("code_grants_code", "code", "code mode grants capability code over listed capabilities that lack it", 1),
			func(c *confCase) { c.noCode = true })),
		code(with(fail("code_budget_mid_batch", "code", "the token budget running out mid-batch interrupts the cell and ends the run", budget.KindMaxTotalTokens),
			func(c *confCase) {
				// The root turn fits (its prompt is about 2,000 tokens
				// with the code-mode prompt's module list and bounds);
				// each sub-call reports 110 and needs at least 256 free.
				c.limits.MaxTotalTokens = 2400
				c.check = func(r *engine.Result, _ replay.Stats) string {
					if n := r.Counters.ModelCalls; n < 3 || n > 30 {
						return fmt.Sprintf("%d model calls: the batch was not interrupted part way", n)
					}
					return ""
				}
			})),
		code(fail("code_child_depth_gate", "code", "a code-mode child at the maximum depth cannot recurse further", budget.KindMaxDepth)),
	}
}

// ConformanceCaseNames lists the conformance cases in run order.
func ConformanceCaseNames() []string {
	var out []string
	for _, c := range conformanceCases() {
		out = append(out, c.name)
	}
	return out
}

// ConformanceQuery returns the query the conformance case name asks; its
// cassette matches on "Query: " followed by it.
func ConformanceQuery(name string) string { return caseQuery(name) }

// Conformance runs the conformance suite: every case runs the real engine
// through the real HTTP provider against its embedded cassette, served by
// an in-process replay server. Cases run one at a time; the suite takes
// well under a few seconds. A non-nil filter selects the cases to run by
// name.
func Conformance(ctx context.Context, filter func(name string) bool) *ConformanceReport {
	start := time.Now()
	rep := &ConformanceReport{SchemaVersion: 1, Suite: "conformance", Cases: []CaseResult{}}
	for _, c := range conformanceCases() {
		if filter != nil && !filter(c.name) {
			continue
		}
		r := runCase(ctx, c)
		rep.Cases = append(rep.Cases, r)
		if r.Status == CasePass {
			rep.Passed++
		} else {
			rep.Failed++
		}
	}
	rep.CaseCount = len(rep.Cases)
	rep.Status = CasePass
	if rep.Failed > 0 {
		rep.Status = CaseFail
	}
	rep.ElapsedMS = ms(time.Since(start))
	return rep
}

// ConformanceCases runs the named cases (every case when none is named),
// as Conformance does; an unknown name fails with invalid_task before any
// case runs.
func ConformanceCases(ctx context.Context, cases []string) (*ConformanceReport, error) {
	names := ConformanceCaseNames()
	for _, c := range cases {
		if !slices.Contains(names, c) {
			return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "unknown conformance case").With("case", c).With("cases", strings.Join(names, ","))
		}
	}
	var filter func(string) bool
	if len(cases) > 0 {
		filter = func(n string) bool { return slices.Contains(cases, n) }
	}
	return Conformance(ctx, filter), nil
}

// WriteFile writes the JSON report to path (indented, as rlm bench
// conformance --json prints it); an error is config/io with the path.
func (rep *ConformanceReport) WriteFile(path string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot write the report").With("path", path)
	}
	return nil
}

// ConformanceCassette returns the embedded cassette of case name.
func ConformanceCassette(name string) (*replay.Cassette, error) {
	b, err := conformanceFS.ReadFile(path.Join("testdata/conformance", name+".json"))
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseReplay, fault.KindIO, "no embedded cassette for the case").With("case", name)
	}
	return replay.Parse(b)
}

func runCase(ctx context.Context, c confCase) CaseResult {
	out := CaseResult{Name: c.name, Category: c.category, Description: c.desc, Status: CaseFail}
	cas, err := ConformanceCassette(c.name)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	srv := replay.NewServer(cas)
	defer srv.Close()
	prov, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: ConformanceModel, MaxRetries: -1})
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("conformance", ConformanceText)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	cfg := engine.Config{Provider: prov, Model: ConformanceModel, SubModel: ConformanceSubModel, Store: store,
		Limits: c.limits, ExperimentalDeepRecursion: c.deep, Mode: c.mode}
	if c.tools {
		tools, err := wordTools()
		if err != nil {
			out.Reason = err.Error()
			return out
		}
		cfg.Tools = tools
		cfg.Capabilities = engine.DefaultCapabilities(ConformanceModel, ConformanceSubModel).Union(capability.Of(capability.Tool(WordCountTool)))
		if c.mode == engine.ModeCode {
			cfg.Capabilities = cfg.Capabilities.Union(capability.Of(capability.Code))
		}
	}
	if c.noCode {
		cfg.Capabilities = engine.DefaultCapabilities(ConformanceModel, ConformanceSubModel)
	}
	eng, err := engine.New(cfg)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c.cancelAfter > 0 {
		t := time.AfterFunc(c.cancelAfter, cancel)
		defer t.Stop()
	}
	res, runErr := eng.Run(rctx, caseQuery(c.name), h)
	cancel()
	st := srv.Stats()
	out.RunStatus = res.Status
	out.Answer = res.Answer
	out.ErrorKind = fault.KindOf(runErr)
	out.Metrics = CaseMetrics{
		ModelCalls: res.Counters.ModelCalls, ToolCalls: res.Counters.ToolCalls, ContextOps: res.Counters.ContextOps,
		Turns: res.Turns, TotalTokens: res.Usage.TotalTokens, CostUSD: res.Usage.CostUSD, MaxDepth: res.Recursion.MaxDepth,
		MaxInFlight: res.Counters.MaxInFlight, Requests: st.Requests, LatencyMS: res.ElapsedMS,
	}
	out.Reason = judge(c, res, runErr, st)
	if out.Reason == "" {
		out.Status = CasePass
	}
	return out
}

// judge returns why the outcome misses the case's expectations, or "".
func judge(c confCase, res *engine.Result, runErr error, st replay.Stats) string {
	if res.Status != c.status {
		return fmt.Sprintf("status %s (error %v), want %s", res.Status, runErr, c.status)
	}
	if c.kind != "" && fault.KindOf(runErr) != c.kind {
		return fmt.Sprintf("error kind %q, want %q", fault.KindOf(runErr), c.kind)
	}
	if c.status != engine.StatusCompleted {
		if res.Error == nil {
			return "a failed result lost its error"
		}
		if st.Requests > 0 && (len(res.Trajectory) == 0 || res.Usage.Calls == 0) {
			return "a failed result lost its usage or trajectory"
		}
		if c.category == "budget" && res.Error.Phase != fault.PhaseBudget {
			return fmt.Sprintf("phase %s, want budget", res.Error.Phase)
		}
	}
	if c.answer != nil {
		got, err1 := json.Marshal(res.Answer)
		want, err2 := json.Marshal(c.answer)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			return fmt.Sprintf("answer %s, want %s", got, want)
		}
	}
	if c.status == engine.StatusCompleted && st.Remaining != 0 {
		return fmt.Sprintf("%d scripted interaction(s) unused", st.Remaining)
	}
	if st.Exhausted != 0 && c.status == engine.StatusCompleted {
		return fmt.Sprintf("%d request(s) matched no scripted interaction", st.Exhausted)
	}
	if c.check != nil {
		return c.check(res, st)
	}
	return ""
}

// WriteConformance writes one line per case, then "N passed, N failed"
// alone on the last line. The text is deterministic: it holds no timings.
func WriteConformance(w io.Writer, rep *ConformanceReport) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, c := range rep.Cases {
		line := fmt.Sprintf("%s\t%s\t%s\t%s", c.Status, c.Name, c.Category, c.Description)
		if c.Status != CasePass {
			line += "\t-- " + c.Reason
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "%d passed, %d failed\n", rep.Passed, rep.Failed)
	_, err := io.WriteString(w, b.String())
	return err
}

// conformanceCategories lists the categories in report order (used by
// tests to prove coverage).
func conformanceCategories() []string {
	var out []string
	for _, c := range conformanceCases() {
		if !slices.Contains(out, c.category) {
			out = append(out, c.category)
		}
	}
	return out
}
