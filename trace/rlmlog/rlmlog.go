// Package rlmlog converts between rlm traces and the log format of the
// official Python RLM (its RLMLogger): a JSONL file of "metadata",
// "iteration" and (in some versions) "run_context" entries; a persistent
// session writes several completions to one file, and newer versions nest
// a child RLM's trajectory in its sub-call's "metadata". docs/trace.md has
// the line shapes of each version, the mapping and what does not map.
package rlmlog

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// KindMalformedLog: the input is not a log in the official format.
const KindMalformedLog fault.Kind = "malformed_rlm_log"

// KindSubCallFailed: an imported sub-call failed and the log names no
// error type (an official log's error_type becomes the kind when present).
const KindSubCallFailed fault.Kind = "sub_call_failed"

// maxLineBytes bounds one line of an official log (an iteration carries
// the whole prompt history).
const maxLineBytes = 64 << 20

// Metadata is a "metadata" entry (RLMMetadata with type and timestamp);
// inside a child trajectory it is the run_metadata, without them.
type Metadata struct {
	Type              string         `json:"type,omitempty"`
	Timestamp         string         `json:"timestamp,omitempty"`
	RootModel         string         `json:"root_model"`
	MaxDepth          int            `json:"max_depth"`
	MaxIterations     int            `json:"max_iterations"`
	Backend           string         `json:"backend"`
	BackendKwargs     map[string]any `json:"backend_kwargs"`
	EnvironmentType   string         `json:"environment_type"`
	EnvironmentKwargs map[string]any `json:"environment_kwargs"`
	OtherBackends     []string       `json:"other_backends"`
}

// RunContext is a "run_context" entry: the prompt payload of one
// completion (written by versions with persistent sessions).
type RunContext struct {
	Type            string `json:"type"`
	Timestamp       string `json:"timestamp"`
	Prompt          any    `json:"prompt"`
	RootPrompt      any    `json:"root_prompt"`
	EnvironmentType string `json:"environment_type"`
	SessionMode     *bool  `json:"session_mode"`
}

// Iteration is one "iteration" entry.
type Iteration struct {
	Type          string      `json:"type,omitempty"`
	Iteration     int         `json:"iteration"`
	Timestamp     string      `json:"timestamp"`
	Prompt        any         `json:"prompt"`
	Response      string      `json:"response"`
	CodeBlocks    []CodeBlock `json:"code_blocks"`
	FinalAnswer   *string     `json:"final_answer"`
	IterationTime *float64    `json:"iteration_time"`
}

// UnmarshalJSON reads an iteration entry, its final answer as Answer does.
func (it *Iteration) UnmarshalJSON(b []byte) error {
	type plain Iteration
	aux := struct {
		*plain
		FinalAnswer *Answer `json:"final_answer"`
	}{plain: (*plain)(it)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	it.FinalAnswer = nil
	if aux.FinalAnswer != nil {
		s := string(*aux.FinalAnswer)
		it.FinalAnswer = &s
	}
	return nil
}

// Answer is a final answer: a string, or in early versions the pair
// [kind, value] (the official visualizer shows the value).
type Answer string

// UnmarshalJSON reads a string, a [kind, value] pair (the value) or any
// other value (its JSON text).
func (a *Answer) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*a = Answer(s)
		return nil
	}
	var pair []any
	if err := json.Unmarshal(b, &pair); err == nil && len(pair) == 2 {
		*a = Answer(text(pair[1]))
		return nil
	}
	*a = Answer(bytes.TrimSpace(b))
	return nil
}

// CodeBlock is one executed code block of an iteration.
type CodeBlock struct {
	Code   string     `json:"code"`
	Result REPLResult `json:"result"`
}

// REPLResult is a code block's outcome.
type REPLResult struct {
	Stdout        string           `json:"stdout"`
	Stderr        string           `json:"stderr"`
	Locals        map[string]any   `json:"locals"`
	ExecutionTime float64          `json:"execution_time"`
	RLMCalls      []ChatCompletion `json:"rlm_calls"`
	FinalAnswer   *Answer          `json:"final_answer"`
}

// ChatCompletion is one model call made from inside the environment
// (RLMChatCompletion); Metadata holds a child RLM's trajectory.
type ChatCompletion struct {
	RootModel     string       `json:"root_model"`
	Prompt        any          `json:"prompt"`
	Response      any          `json:"response"`
	UsageSummary  UsageSummary `json:"usage_summary"`
	ExecutionTime float64      `json:"execution_time"`
	Metadata      *Trajectory  `json:"metadata,omitempty"`
	Error         string       `json:"error,omitempty"`
	ErrorType     string       `json:"error_type,omitempty"`
	StatusCode    *int         `json:"status_code,omitempty"`
	// The first versions' flat usage.
	PromptTokens     *int64 `json:"prompt_tokens,omitempty"`
	CompletionTokens *int64 `json:"completion_tokens,omitempty"`
}

// Trajectory is a child RLM's log as its logger captured it in memory.
type Trajectory struct {
	RunMetadata *Metadata   `json:"run_metadata"`
	Iterations  []Iteration `json:"iterations"`
}

// UsageSummary is usage per model; TotalCost is their sum when a
// provider reported costs.
type UsageSummary struct {
	ModelUsageSummaries map[string]ModelUsage `json:"model_usage_summaries"`
	TotalCost           *float64              `json:"total_cost,omitempty"`
}

// ModelUsage is one model's usage.
type ModelUsage struct {
	TotalCalls        int64    `json:"total_calls"`
	TotalInputTokens  int64    `json:"total_input_tokens"`
	TotalOutputTokens int64    `json:"total_output_tokens"`
	TotalCost         *float64 `json:"total_cost,omitempty"`
}

// Python's datetime.isoformat() without a zone (the logger's local time;
// read as UTC) and with one.
var timeLayouts = []string{"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", time.RFC3339Nano}

func parseTime(s string) (time.Time, bool) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func seconds(s float64) time.Duration {
	if math.IsNaN(s) || s < 0 || s > 1e9 {
		return 0
	}
	// The log's times are to the microsecond (Python's isoformat);
	// rounding keeps a float's last bit from losing one.
	return time.Duration(math.Round(s*1e6)) * time.Microsecond
}

// text renders a prompt or response that may be a string or a structure.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// IsLog reports whether head, the first bytes of a file, starts like a log
// of the official Python RLM: its first line is an entry the official
// logger writes, which always begins with its type ({"type": "metadata",
// {"type": "iteration" or {"type": "run_context"). An rlm trace (whose
// lines begin with "seq") or another JSONL file is not one.
func IsLog(head []byte) bool {
	h := bytes.TrimSpace(head)
	if i := bytes.IndexByte(h, '\n'); i >= 0 {
		h = h[:i]
	}
	h = bytes.ReplaceAll(h, []byte(" "), nil)
	for _, t := range []string{"metadata", "iteration", "run_context"} {
		if bytes.HasPrefix(h, []byte(`{"type":"`+t+`"`)) {
			return true
		}
	}
	return false
}

// importer builds events in sequence order.
type importer struct {
	events []trace.Event
	// settings are the run attributes of the last metadata entry; mdTime
	// its timestamp, the start of the next run when not used yet.
	settings map[string]any
	mdTime   time.Time
	// the run being read: its index, last iteration number, whether that
	// iteration had a final answer, its turns and answer, when it ended.
	run       int
	lastIter  int
	lastFinal bool
	turns     int
	answer    *string
	end       time.Time
	pending   *RunContext
}

func (im *importer) add(parent string, depth int, kind trace.Kind, name string, start time.Time, d time.Duration, attrs map[string]any) int {
	seq := uint64(len(im.events) + 1)
	ev := trace.Event{Seq: seq, ID: "e" + strconv.FormatUint(seq, 10), Parent: parent, Depth: depth, Kind: kind, Name: name,
		Status: trace.StatusOK, Start: start, End: start.Add(d), DurationMS: float64(d.Microseconds()) / 1000, Attrs: trace.Redact(attrs)}
	im.events = append(im.events, ev)
	return len(im.events) - 1
}

func settingsOf(md Metadata) map[string]any {
	attrs := map[string]any{"root_model": md.RootModel, "max_depth": md.MaxDepth, "max_iterations": md.MaxIterations,
		"backend": md.Backend, "environment_type": md.EnvironmentType}
	if len(md.OtherBackends) > 0 {
		attrs["other_backends"] = strings.Join(md.OtherBackends, ",")
	}
	return attrs
}

// Import reads an official log and returns it as trace events. Each
// completion becomes a run (several runs of one session when the log
// holds several), each iteration a turn (its response as the attribute
// "reply"), each code block a plan_step "cell" (code, stdout, stderr;
// failed when stderr is not empty), each rlm_calls entry a model_call one
// level deeper with its usage, or an rlm_child with its own turns when the
// entry carries a child's trajectory. Entries are read as the official
// visualizer reads them: the metadata entry need not come first, and the
// log may have none.
//
// A completion ends at a run_context entry, after an iteration with a
// final answer, or where the iteration numbers start again.
func Import(r io.Reader) ([]trace.Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	im := &importer{run: -1, settings: map[string]any{}}
	line, entries := 0, 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var head struct {
			Type       *string         `json:"type"`
			CodeBlocks json.RawMessage `json:"code_blocks"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "log line is not JSON").With("line", line)
		}
		typ := ""
		switch {
		case head.Type != nil:
			typ = *head.Type
		case head.CodeBlocks != nil:
			typ = "iteration" // the first versions wrote iterations without a type
		default:
			return nil, fault.New(fault.PhaseTrace, KindMalformedLog, "a log line is neither metadata, an iteration nor a run context").With("line", line).
				WithHint("an RLM log is written by the official RLMLogger; an rlm trace is read by `rlm trace view`")
		}
		switch typ {
		case "metadata":
			var md Metadata
			if err := json.Unmarshal(raw, &md); err != nil {
				return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "metadata entry is malformed").With("line", line)
			}
			// A metadata entry after a completion's iterations starts
			// another log (files concatenated); its settings hold for
			// the runs after it.
			im.closeRun()
			im.settings = settingsOf(md)
			im.mdTime, _ = parseTime(md.Timestamp)
			entries++
		case "run_context":
			var rc RunContext
			if err := json.Unmarshal(raw, &rc); err != nil {
				return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "run_context entry is malformed").With("line", line)
			}
			im.closeRun()
			im.pending = &rc
			entries++
		case "iteration":
			var it Iteration
			if err := json.Unmarshal(raw, &it); err != nil {
				return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "iteration entry is malformed").With("line", line)
			}
			if im.run >= 0 && (it.Iteration <= im.lastIter || im.lastFinal) {
				im.closeRun()
			}
			if im.run < 0 {
				im.openRun(it)
			}
			im.turns++
			idx, a := im.iteration(im.events[im.run].ID, 0, im.turns, it, im.end)
			im.lastIter, im.lastFinal = it.Iteration, a != nil
			if a != nil {
				im.answer = a
			}
			if e := im.events[idx].End; e.After(im.end) {
				im.end = e
			}
			entries++
		default:
			// Later entry types (model_response, ...) carry no steps.
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "cannot read the log").With("line", line+1)
	}
	im.closeRun()
	if entries == 0 {
		return nil, fault.New(fault.PhaseTrace, KindMalformedLog, "the log is empty")
	}
	if len(im.events) == 0 {
		// Metadata (and run contexts) without iterations: one run with
		// no turns, as the official visualizer shows it.
		im.openRun(Iteration{})
		im.closeRun()
	}
	return im.events, nil
}

// openRun starts a run for it, the first iteration of a completion: it
// starts at its run_context entry, else at the metadata entry (once),
// else when the iteration started.
func (im *importer) openRun(it Iteration) {
	attrs := map[string]any{"source": "rlm-jsonl"}
	for k, v := range im.settings {
		attrs[k] = v
	}
	if len(im.settings) == 0 {
		attrs["no_metadata"] = true
	}
	var start time.Time
	if rc := im.pending; rc != nil {
		start, _ = parseTime(rc.Timestamp)
		if rc.Prompt != nil {
			attrs["prompt"] = rc.Prompt
		}
		if rc.RootPrompt != nil {
			attrs["root_prompt"] = rc.RootPrompt
		}
		if rc.SessionMode != nil {
			attrs["session_mode"] = *rc.SessionMode
		}
		if rc.EnvironmentType != "" {
			attrs["environment_type"] = rc.EnvironmentType
		}
	}
	if start.IsZero() && !im.mdTime.IsZero() {
		start = im.mdTime
	}
	if start.IsZero() {
		end, _ := parseTime(it.Timestamp)
		if it.IterationTime != nil {
			end = end.Add(-seconds(*it.IterationTime))
		}
		start = end
	}
	im.mdTime, im.pending = time.Time{}, nil
	im.run = im.add("", 0, trace.KindRun, "rlm", start, 0, attrs)
	im.lastIter, im.lastFinal, im.turns, im.answer, im.end = 0, false, 0, nil, start
}

// closeRun sets the run's turns, answer and end.
func (im *importer) closeRun() {
	if im.run < 0 {
		return
	}
	run := &im.events[im.run]
	run.Attrs["turns"] = im.turns
	if im.answer != nil {
		run.Attrs["answer"] = *im.answer
	}
	if im.end.After(run.Start) {
		run.End = im.end
		run.DurationMS = float64(im.end.Sub(run.Start).Microseconds()) / 1000
	}
	im.run = -1
}

// iteration adds turn n under parent; prev is when the previous entry
// ended (the turn's start when the log has no usable timestamp). It
// returns the turn's index and its final answer.
func (im *importer) iteration(parent string, depth, n int, it Iteration, prev time.Time) (int, *string) {
	var d time.Duration
	if it.IterationTime != nil {
		d = seconds(*it.IterationTime)
	}
	end, ok := parseTime(it.Timestamp)
	start := end.Add(-d)
	if !ok {
		start = prev
	}
	attrs := map[string]any{"iteration": n}
	if it.Response != "" {
		attrs["reply"] = it.Response
	}
	if it.Prompt != nil {
		attrs["prompt"] = it.Prompt
	}
	if it.IterationTime == nil {
		attrs["iteration_time_unknown"] = true
	}
	var final *string
	if it.FinalAnswer != nil {
		s := *it.FinalAnswer
		final = &s
		attrs["final"] = true
	}
	turn := im.add(parent, depth, trace.KindTurn, "turn "+strconv.Itoa(n), start, d, attrs)
	turnID := im.events[turn].ID
	// The log has durations, not start times, below an iteration: cells
	// are laid out one after the other from the turn's start, and a
	// cell's sub-calls one after the other from the cell's start.
	at := start
	for j, cb := range it.CodeBlocks {
		cd := seconds(cb.Result.ExecutionTime)
		ca := map[string]any{"cell": j + 1, "code": cb.Code}
		if cb.Result.Stdout != "" {
			ca["stdout"] = cb.Result.Stdout
		}
		if cb.Result.Stderr != "" {
			ca["stderr"] = cb.Result.Stderr
		}
		if len(cb.Result.Locals) > 0 {
			names := make([]string, 0, len(cb.Result.Locals))
			for k := range cb.Result.Locals {
				names = append(names, k)
			}
			sort.Strings(names)
			ca["locals"] = strings.Join(names, ",")
			ca["locals_values"] = cb.Result.Locals
		}
		if cb.Result.FinalAnswer != nil {
			ca["final_answer"] = string(*cb.Result.FinalAnswer)
		}
		exc := ""
		if cb.Result.Stderr != "" {
			exc = exceptionType(cb.Result.Stderr)
			if exc != "" {
				ca["exception"] = exc
			}
		}
		cell := im.add(turnID, depth, trace.KindPlanStep, "cell", at, cd, ca)
		if cb.Result.Stderr != "" {
			// The official visualizer marks a block whose stderr is not
			// empty as an error; so does the import.
			msg := "the cell wrote to stderr"
			fe := fault.New(fault.PhaseExecute, trace.KindCellException, msg)
			if exc != "" {
				fe = fault.New(fault.PhaseExecute, trace.KindCellException, "the cell raised "+exc).With("exception", exc)
			}
			im.events[cell].Status, im.events[cell].Error = trace.StatusError, fe
		}
		cellID := im.events[cell].ID
		callAt := at
		for _, c := range cb.Result.RLMCalls {
			im.call(cellID, depth+1, c, callAt)
			callAt = callAt.Add(seconds(c.ExecutionTime))
		}
		at = at.Add(cd)
	}
	return turn, final
}

// excLine is the last line of a Python traceback: "Type: message" or
// "Type" (dotted names for module exceptions).
var excLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*)(?::|$)`)

// exceptionType finds the exception type in a cell's stderr: the last
// non-empty line that starts like a traceback's last line.
func exceptionType(stderr string) string {
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], "\r ")
		if l == "" || strings.HasPrefix(l, " ") {
			continue
		}
		m := excLine.FindStringSubmatch(l)
		if m == nil {
			return ""
		}
		// A class name: its last dotted part starts with a capital.
		name := m[1][strings.LastIndexByte(m[1], '.')+1:]
		if name == "" || name[0] < 'A' || name[0] > 'Z' {
			return ""
		}
		return m[1]
	}
	return ""
}

// usage sums a usage summary over its models (in name order).
func usage(u UsageSummary) (tk trace.Tokens, calls int64) {
	models := make([]string, 0, len(u.ModelUsageSummaries))
	for m := range u.ModelUsageSummaries {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		x := u.ModelUsageSummaries[m]
		tk.Prompt += x.TotalInputTokens
		tk.Completion += x.TotalOutputTokens
		calls += x.TotalCalls
	}
	tk.Total = tk.Prompt + tk.Completion
	return tk, calls
}

// plain reports whether u is what a single call of model writes: one
// entry, under that model, without a cost.
func plain(u UsageSummary, model string) bool {
	if len(u.ModelUsageSummaries) == 0 {
		return true
	}
	x, ok := u.ModelUsageSummaries[model]
	return ok && len(u.ModelUsageSummaries) == 1 && x.TotalCost == nil && u.TotalCost == nil
}

// asAttr turns a usage summary into an attribute value (decoded JSON, as a
// trace file reads it back).
func asAttr(u UsageSummary) any {
	b, _ := json.Marshal(u)
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

func (im *importer) call(parent string, depth int, c ChatCompletion, at time.Time) {
	if c.Metadata != nil {
		im.child(parent, depth, c, at)
		return
	}
	attrs := map[string]any{"model": c.RootModel}
	if c.Prompt != nil && c.Prompt != "" {
		attrs["prompt"] = c.Prompt
	}
	if c.Response != nil && c.Response != "" {
		attrs["reply"] = c.Response
	}
	if c.StatusCode != nil {
		attrs["http_status"] = *c.StatusCode
	}
	tk, calls := usage(c.UsageSummary)
	if c.PromptTokens != nil || c.CompletionTokens != nil {
		tk.Prompt, tk.Completion = deref(c.PromptTokens), deref(c.CompletionTokens)
		tk.Total = tk.Prompt + tk.Completion
		attrs["flat_usage"] = true
	} else {
		if !plain(c.UsageSummary, c.RootModel) {
			attrs["usage_summary"] = asAttr(c.UsageSummary)
		}
		if calls != 1 {
			attrs["total_calls"] = calls
		}
	}
	i := im.add(parent, depth, trace.KindModelCall, c.RootModel, at, seconds(c.ExecutionTime), attrs)
	ev := &im.events[i]
	if tk.Total > 0 || attrs["flat_usage"] != nil {
		ev.Tokens = &tk
	}
	if c.UsageSummary.TotalCost != nil {
		ev.CostUSD, ev.CostKnown = *c.UsageSummary.TotalCost, true
	}
	if c.Error != "" || c.ErrorType != "" {
		kind := fault.Kind(c.ErrorType)
		if kind == "" {
			kind = KindSubCallFailed
		}
		ev.Status = trace.StatusError
		ev.Error = fault.New(fault.PhaseProvider, kind, c.Error)
	}
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// child adds an rlm_child for a sub-call that ran a child RLM: its
// iterations become its turns, their sub-calls one level deeper. The
// entry's usage (the child's whole usage) is kept as the attribute
// usage_summary; the child's tokens are what its own calls used, the
// entry's usage less its nested sub-calls', so that totals over the tree
// count each call once.
func (im *importer) child(parent string, depth int, c ChatCompletion, at time.Time) {
	attrs := map[string]any{"model": c.RootModel, "usage_summary": asAttr(c.UsageSummary)}
	if c.Prompt != nil && c.Prompt != "" {
		attrs["prompt"] = c.Prompt
	}
	if c.Response != nil && c.Response != "" {
		attrs["reply"] = c.Response
	}
	if md := c.Metadata.RunMetadata; md != nil {
		for k, v := range settingsOf(*md) {
			attrs[k] = v
		}
	} else {
		attrs["no_run_metadata"] = true
	}
	i := im.add(parent, depth, trace.KindChild, "depth "+strconv.Itoa(depth), at, seconds(c.ExecutionTime), attrs)
	id := im.events[i].ID
	if c.Error != "" || c.ErrorType != "" {
		kind := fault.Kind(c.ErrorType)
		if kind == "" {
			kind = KindSubCallFailed
		}
		im.events[i].Status, im.events[i].Error = trace.StatusError, fault.New(fault.PhaseProvider, kind, c.Error)
	}
	if c.StatusCode != nil {
		im.events[i].Attrs["http_status"] = *c.StatusCode
	}
	var answer *string
	prev := at
	for n, it := range c.Metadata.Iterations {
		t, a := im.iteration(id, depth, n+1, it, prev)
		if a != nil {
			answer = a
		}
		prev = im.events[t].End
	}
	ev := &im.events[i]
	ev.Attrs["turns"] = len(c.Metadata.Iterations)
	if answer != nil {
		ev.Attrs["answer"] = *answer
	}
	own, _ := usage(c.UsageSummary)
	for _, it := range c.Metadata.Iterations {
		for _, cb := range it.CodeBlocks {
			for _, sub := range cb.Result.RLMCalls {
				t, _ := usage(sub.UsageSummary)
				if sub.PromptTokens != nil || sub.CompletionTokens != nil {
					t.Prompt, t.Completion = deref(sub.PromptTokens), deref(sub.CompletionTokens)
				}
				own.Prompt -= t.Prompt
				own.Completion -= t.Completion
			}
		}
	}
	own.Total = own.Prompt + own.Completion
	if own.Prompt >= 0 && own.Completion >= 0 && own.Total > 0 {
		ev.Tokens = &own
	}
}

// exporter writes a trace's runs in the official format.
type exporter struct {
	events   []trace.Event
	children map[string][]int
	// replies maps a model call to the reply its sibling note recorded.
	replies map[int]string
}

// Export writes events in the official format, as the newest official
// logger writes a persistent session: one metadata line, then for each
// root run (the first root rlm_child when there is none) its iterations,
// numbered from 1. A turn's cells and plan steps become code blocks (a
// plan step's code is its kind and bind as a comment line; a step that
// failed has its error in stderr), the model calls under them rlm_calls
// with their usage and recorded reply, and a child RLM under them one
// rlm_calls entry whose metadata is the child's trajectory. Content
// (replies, code, output, answers) is written only when the trace
// recorded it. run_context lines are not written: the official
// visualizer reads every line other than metadata as an iteration.
func Export(w io.Writer, events []trace.Event) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	x := &exporter{events: events, children: map[string][]int{}}
	var runs []int
	child := -1
	for i, ev := range events {
		if ev.Parent == "" {
			switch {
			case ev.Kind == trace.KindRun:
				runs = append(runs, i)
			case ev.Kind == trace.KindChild && child < 0:
				child = i
			}
			continue
		}
		x.children[ev.Parent] = append(x.children[ev.Parent], i)
	}
	for _, cs := range x.children {
		slices.SortStableFunc(cs, func(a, b int) int { return cmp.Compare(events[a].Seq, events[b].Seq) })
	}
	if len(runs) == 0 && child >= 0 {
		runs = []int{child}
	}
	if len(runs) == 0 {
		return fault.New(fault.PhaseTrace, trace.KindMalformedTrace, "the trace has no run to export")
	}
	slices.SortStableFunc(runs, func(a, b int) int { return cmp.Compare(events[a].Seq, events[b].Seq) })
	x.matchReplies()
	root := events[runs[0]]
	md := Metadata{Type: "metadata", Timestamp: pyTime(root.Start)}
	x.settings(&md, root, len(x.turns(runs[0])))
	others := map[string]bool{}
	for _, ev := range events {
		md.MaxDepth = max(md.MaxDepth, ev.Depth)
		if ev.Kind != trace.KindModelCall {
			continue
		}
		if ev.Depth == 0 && md.RootModel == "" {
			md.RootModel = ev.Name
		} else if ev.Name != md.RootModel {
			others[ev.Name] = true
		}
	}
	if _, ok := root.Attrs["other_backends"].(string); !ok {
		for m := range others {
			md.OtherBackends = append(md.OtherBackends, m)
		}
		sort.Strings(md.OtherBackends)
	}
	if root.Attrs["no_metadata"] != true {
		if err := enc.Encode(md); err != nil {
			return err
		}
	}
	for _, r := range runs {
		for _, it := range x.iterations(r, map[int]bool{}) {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// settings fills md from a run's attributes (a trace imported from an
// official log keeps its settings), with turns as the default
// max_iterations.
func (x *exporter) settings(md *Metadata, run trace.Event, turns int) {
	md.Backend, md.EnvironmentType = "rlm-go", "rlm-go"
	md.BackendKwargs, md.EnvironmentKwargs = map[string]any{}, map[string]any{}
	md.MaxIterations = turns
	if v, ok := run.Attrs["root_model"].(string); ok {
		md.RootModel = v
	}
	if v, ok := run.Attrs["backend"].(string); ok && v != "" {
		md.Backend = v
	}
	if v, ok := run.Attrs["environment_type"].(string); ok && v != "" {
		md.EnvironmentType = v
	}
	if v, ok := intAttr(run.Attrs["max_iterations"]); ok {
		md.MaxIterations = v
	}
	if v, ok := intAttr(run.Attrs["max_depth"]); ok {
		md.MaxDepth = v
	}
	if v, ok := run.Attrs["other_backends"].(string); ok && v != "" {
		md.OtherBackends = strings.Split(v, ",")
	}
}

// turns lists a run's (or child's) turns in order.
func (x *exporter) turns(run int) []int {
	var out []int
	for _, c := range x.children[x.events[run].ID] {
		if x.events[c].Kind == trace.KindTurn {
			out = append(out, c)
		}
	}
	return out
}

// matchReplies pairs each sub-call note (trace.NoteSubCall, recorded by
// the calling loop beside the call) with its call: the call under the
// same parent, of the same model, that ended last before the note.
func (x *exporter) matchReplies() {
	x.replies = map[int]string{}
	for _, cs := range x.children {
		var notes []int
		for _, c := range cs {
			if ev := x.events[c]; ev.Kind == trace.KindNote && ev.Name == trace.NoteSubCall {
				notes = append(notes, c)
			}
		}
		if len(notes) == 0 {
			continue
		}
		used := map[int]bool{}
		slices.SortStableFunc(notes, func(a, b int) int { return x.events[a].Start.Compare(x.events[b].Start) })
		for _, n := range notes {
			note := x.events[n]
			reply, _ := note.Attrs["reply"].(string)
			model, _ := note.Attrs["model"].(string)
			best := -1
			for _, c := range cs {
				ev := x.events[c]
				if ev.Kind != trace.KindModelCall || used[c] || (model != "" && ev.Name != model) || ev.End.After(note.Start) {
					continue
				}
				if best < 0 || ev.End.After(x.events[best].End) {
					best = c
				}
			}
			if best >= 0 {
				used[best] = true
				x.replies[best] = reply
			}
		}
	}
}

// iterations maps a run's or child's turns to iterations.
func (x *exporter) iterations(run int, seen map[int]bool) []Iteration {
	turns := x.turns(run)
	answer, hasAnswer := x.events[run].Attrs["answer"].(string)
	out := make([]Iteration, 0, len(turns))
	for n, t := range turns {
		tv := x.events[t]
		it := Iteration{Type: "iteration", Iteration: n + 1, Timestamp: pyTime(tv.End), Prompt: []any{}, CodeBlocks: []CodeBlock{}}
		if p, ok := tv.Attrs["prompt"]; ok && p != nil {
			it.Prompt = p
		}
		if tv.Attrs["iteration_time_unknown"] != true {
			secs := tv.DurationMS / 1000
			it.IterationTime = &secs
		}
		it.Response, _ = tv.Attrs["reply"].(string)
		last := n == len(turns)-1
		if hasAnswer && (tv.Attrs["final"] == true || last) {
			a := answer
			it.FinalAnswer = &a
		}
		for _, c := range x.children[tv.ID] {
			ev := x.events[c]
			if ev.Kind == trace.KindNote || (ev.Kind == trace.KindModelCall && ev.Depth == tv.Depth) {
				continue // notes, and the loop's own call: its reply is the response
			}
			var final *Answer
			if it.FinalAnswer != nil && ev.Attrs["final"] == true {
				a := Answer(*it.FinalAnswer)
				final = &a
			}
			it.CodeBlocks = append(it.CodeBlocks, x.block(c, final, seen))
		}
		out = append(out, it)
	}
	return out
}

func intAttr(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), v == float64(int(v))
	}
	return 0, false
}

// block maps a step (and its subtree) to a code block; final is the
// answer the step finished its run with, if any.
func (x *exporter) block(i int, final *Answer, seen map[int]bool) CodeBlock {
	ev := x.events[i]
	code, _ := ev.Attrs["code"].(string)
	if code == "" {
		code = "# rlm " + string(ev.Kind) + " " + ev.Name
		if b, ok := ev.Attrs["bind"].(string); ok && b != "" {
			code += " bind=" + b
		}
	}
	res := REPLResult{Locals: map[string]any{}, ExecutionTime: ev.DurationMS / 1000, RLMCalls: []ChatCompletion{}, FinalAnswer: final}
	if v, ok := ev.Attrs["locals_values"].(map[string]any); ok {
		res.Locals = v
	}
	if v, ok := ev.Attrs["final_answer"].(string); ok {
		a := Answer(v)
		res.FinalAnswer = &a
	}
	res.Stdout, _ = ev.Attrs["stdout"].(string)
	res.Stderr, _ = ev.Attrs["stderr"].(string)
	if ev.Error != nil && res.Stderr == "" {
		res.Stderr = errorText(ev)
	}
	seen[i] = true // a malformed trace (repeated ids) may loop
	stack := slices.Clone(x.children[ev.ID])
	slices.Reverse(stack)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		switch x.events[c].Kind {
		case trace.KindModelCall:
			res.RLMCalls = append(res.RLMCalls, x.completion(c))
			continue
		case trace.KindChild:
			res.RLMCalls = append(res.RLMCalls, x.childCompletion(c, seen))
			continue
		}
		cs := slices.Clone(x.children[x.events[c].ID])
		slices.Reverse(cs)
		stack = append(stack, cs...)
	}
	return CodeBlock{Code: code, Result: res}
}

// errorText is a failed step's stderr when the trace has none: for a
// cell that raised, the exception's type (and line) as the last line of
// a Python traceback; otherwise the error's phase/kind and message.
func errorText(ev trace.Event) string {
	e := ev.Error
	if e.Kind == trace.KindCellException {
		typ, _ := e.Detail["exception"].(string)
		if typ == "" {
			typ, _ = ev.Attrs["exception"].(string)
		}
		if typ != "" {
			if line, ok := intAttr(e.Detail["line"]); ok && line > 0 {
				return fmt.Sprintf("Traceback (most recent call last):\n  File \"<cell>\", line %d, in <module>\n%s\n", line, typ)
			}
			return typ + "\n"
		}
	}
	return fmt.Sprintf("%s/%s: %s", e.Phase, e.Kind, e.Message)
}

// usageOf is a call's usage: the usage summary it was imported with, or
// its tokens under its model (total_calls from the attribute, else 1).
func usageOf(ev trace.Event, model string) UsageSummary {
	if v, ok := ev.Attrs["usage_summary"]; ok {
		var u UsageSummary
		if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &u) == nil && u.ModelUsageSummaries != nil {
			return u
		}
	}
	mu := ModelUsage{TotalCalls: 1}
	if n, ok := intAttr(ev.Attrs["total_calls"]); ok {
		mu.TotalCalls = int64(n)
	}
	if ev.Tokens != nil {
		mu.TotalInputTokens, mu.TotalOutputTokens = ev.Tokens.Prompt, ev.Tokens.Completion
	}
	return UsageSummary{ModelUsageSummaries: map[string]ModelUsage{model: mu}}
}

func (x *exporter) completion(i int) ChatCompletion {
	ev := x.events[i]
	c := ChatCompletion{RootModel: ev.Name, ExecutionTime: ev.DurationMS / 1000, Prompt: "", Response: ""}
	if p, ok := ev.Attrs["prompt"]; ok && p != nil {
		c.Prompt = p
	}
	if r, ok := ev.Attrs["reply"]; ok && r != nil {
		c.Response = r
	} else if r, ok := x.replies[i]; ok {
		c.Response = r
	}
	c.UsageSummary = usageOf(ev, ev.Name)
	if ev.Attrs["flat_usage"] == true {
		var p, q int64
		if ev.Tokens != nil {
			p, q = ev.Tokens.Prompt, ev.Tokens.Completion
		}
		c.PromptTokens, c.CompletionTokens = &p, &q
	}
	if ev.CostKnown && c.UsageSummary.TotalCost == nil {
		cost := ev.CostUSD
		c.UsageSummary.TotalCost = &cost
		if len(c.UsageSummary.ModelUsageSummaries) == 1 {
			for m, u := range c.UsageSummary.ModelUsageSummaries {
				u.TotalCost = &cost
				c.UsageSummary.ModelUsageSummaries[m] = u
			}
		}
	}
	if n, ok := intAttr(ev.Attrs["http_status"]); ok {
		c.StatusCode = &n
	}
	if ev.Error != nil {
		c.Error = ev.Error.Message
		c.ErrorType = string(ev.Error.Kind)
	}
	return c
}

// childCompletion maps a child RLM to the sub-call that ran it: its
// answer is the response, its usage the sum of its model calls (or the
// usage it was imported with), its turns the iterations of its metadata.
func (x *exporter) childCompletion(i int, seen map[int]bool) ChatCompletion {
	ev := x.events[i]
	model, _ := ev.Attrs["model"].(string)
	if model == "" {
		model, _ = ev.Attrs["root_model"].(string)
	}
	var calls []int
	stack := []int{i}
	visited := map[int]bool{}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[c] {
			continue
		}
		visited[c] = true
		if x.events[c].Kind == trace.KindModelCall {
			calls = append(calls, c)
		}
		stack = append(stack, x.children[x.events[c].ID]...)
	}
	slices.Sort(calls)
	if model == "" {
		for _, c := range calls {
			if x.events[c].Depth == ev.Depth {
				model = x.events[c].Name
				break
			}
		}
	}
	c := ChatCompletion{RootModel: model, ExecutionTime: ev.DurationMS / 1000, Prompt: "", Response: ""}
	if p, ok := ev.Attrs["prompt"]; ok && p != nil {
		c.Prompt = p
	} else if q, ok := ev.Attrs["query"].(string); ok {
		// An rlm child's question (recorded under TraceContent).
		c.Prompt = q
	}
	if r, ok := ev.Attrs["reply"]; ok && r != nil {
		c.Response = r
	} else if a, ok := ev.Attrs["answer"].(string); ok {
		c.Response = a
	}
	if _, ok := ev.Attrs["usage_summary"]; ok {
		c.UsageSummary = usageOf(ev, model)
	} else {
		c.UsageSummary = UsageSummary{ModelUsageSummaries: map[string]ModelUsage{}}
		for _, k := range calls {
			u := usageOf(x.events[k], x.events[k].Name)
			for m, mu := range u.ModelUsageSummaries {
				s := c.UsageSummary.ModelUsageSummaries[m]
				s.TotalCalls += mu.TotalCalls
				s.TotalInputTokens += mu.TotalInputTokens
				s.TotalOutputTokens += mu.TotalOutputTokens
				c.UsageSummary.ModelUsageSummaries[m] = s
			}
		}
	}
	if n, ok := intAttr(ev.Attrs["http_status"]); ok {
		c.StatusCode = &n
	}
	if ev.Error != nil {
		c.Error = ev.Error.Message
		c.ErrorType = string(ev.Error.Kind)
	}
	traj := &Trajectory{Iterations: x.iterations(i, seen)}
	if ev.Attrs["no_run_metadata"] != true {
		md := &Metadata{}
		x.settings(md, ev, len(traj.Iterations))
		if md.RootModel == "" {
			md.RootModel = model
		}
		traj.RunMetadata = md
	}
	c.Metadata = traj
	return c
}

// pyTime formats t as Python's datetime.isoformat() of a naive UTC time.
func pyTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000")
}
