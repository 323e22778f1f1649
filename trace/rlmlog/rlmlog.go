// Package rlmlog converts between rlm traces and the log format of the
// official Python RLM (its RLMLogger): a JSONL file whose first line is a
// "metadata" entry and whose other lines are "iteration" entries (and, in
// newer versions, "run_context" entries). docs/trace.md has the mapping
// and what does not map.
package rlmlog

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
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

// Metadata is the first line of an official log.
type Metadata struct {
	Type              string         `json:"type"`
	Timestamp         string         `json:"timestamp"`
	RootModel         string         `json:"root_model"`
	MaxDepth          int            `json:"max_depth"`
	MaxIterations     int            `json:"max_iterations"`
	Backend           string         `json:"backend"`
	BackendKwargs     map[string]any `json:"backend_kwargs"`
	EnvironmentType   string         `json:"environment_type"`
	EnvironmentKwargs map[string]any `json:"environment_kwargs"`
	OtherBackends     []string       `json:"other_backends"`
}

// Iteration is one "iteration" line.
type Iteration struct {
	Type          string      `json:"type"`
	Iteration     int         `json:"iteration"`
	Timestamp     string      `json:"timestamp"`
	Prompt        any         `json:"prompt"`
	Response      string      `json:"response"`
	CodeBlocks    []CodeBlock `json:"code_blocks"`
	FinalAnswer   *string     `json:"final_answer"`
	IterationTime *float64    `json:"iteration_time"`
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
}

// ChatCompletion is one model call made from inside the environment.
type ChatCompletion struct {
	RootModel     string       `json:"root_model"`
	Prompt        any          `json:"prompt"`
	Response      any          `json:"response"`
	UsageSummary  UsageSummary `json:"usage_summary"`
	ExecutionTime float64      `json:"execution_time"`
	Error         string       `json:"error,omitempty"`
	ErrorType     string       `json:"error_type,omitempty"`
	StatusCode    *int         `json:"status_code,omitempty"`
}

// UsageSummary is usage per model.
type UsageSummary struct {
	ModelUsageSummaries map[string]ModelUsage `json:"model_usage_summaries"`
}

// ModelUsage is one model's usage.
type ModelUsage struct {
	TotalCalls        int64 `json:"total_calls"`
	TotalInputTokens  int64 `json:"total_input_tokens"`
	TotalOutputTokens int64 `json:"total_output_tokens"`
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
	return time.Duration(s * float64(time.Second))
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

// importer builds events in sequence order.
type importer struct{ events []trace.Event }

func (im *importer) add(parent string, depth int, kind trace.Kind, name string, start time.Time, d time.Duration, attrs map[string]any) *trace.Event {
	seq := uint64(len(im.events) + 1)
	ev := trace.Event{Seq: seq, ID: "e" + strconv.FormatUint(seq, 10), Parent: parent, Depth: depth, Kind: kind, Name: name,
		Status: trace.StatusOK, Start: start, End: start.Add(d), DurationMS: float64(d.Microseconds()) / 1000, Attrs: trace.Redact(attrs)}
	im.events = append(im.events, ev)
	return &im.events[len(im.events)-1]
}

// IsLog reports whether head, the first bytes of a file, starts like a log
// of the official Python RLM: its first line is a metadata entry, which
// that logger writes as {"type": "metadata", ...}.
func IsLog(head []byte) bool {
	h := bytes.ReplaceAll(bytes.TrimSpace(head), []byte(" "), nil)
	return bytes.HasPrefix(h, []byte(`{"type":"metadata"`))
}

// Import reads an official log and returns it as trace events: the
// metadata becomes the run, each iteration a turn (with its response as
// the attribute "reply"), each code block a plan_step "cell" (code, stdout,
// stderr), each rlm_calls entry a model_call at depth 1 with its usage.
func Import(r io.Reader) ([]trace.Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	im := &importer{}
	var run *trace.Event
	line := 0
	var last time.Time
	var answer *string
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "log line is not JSON").With("line", line)
		}
		if run == nil && head.Type != "metadata" {
			return nil, fault.New(fault.PhaseTrace, KindMalformedLog, "the first entry of an RLM log is its metadata").With("line", line).With("type", head.Type)
		}
		switch head.Type {
		case "metadata":
			if run != nil {
				return nil, fault.New(fault.PhaseTrace, KindMalformedLog, "a second metadata entry").With("line", line)
			}
			var md Metadata
			if err := json.Unmarshal(raw, &md); err != nil {
				return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "metadata entry is malformed").With("line", line)
			}
			start, _ := parseTime(md.Timestamp)
			last = start
			attrs := map[string]any{"root_model": md.RootModel, "max_depth": md.MaxDepth, "max_iterations": md.MaxIterations,
				"backend": md.Backend, "environment_type": md.EnvironmentType, "source": "rlm-jsonl"}
			if len(md.OtherBackends) > 0 {
				attrs["other_backends"] = strings.Join(md.OtherBackends, ",")
			}
			run = im.add("", 0, trace.KindRun, "rlm", start, 0, attrs)
		case "iteration":
			var it Iteration
			if err := json.Unmarshal(raw, &it); err != nil {
				return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "iteration entry is malformed").With("line", line)
			}
			a, end := im.iteration(it, last)
			if a != nil {
				answer = a
			}
			if end.After(last) {
				last = end
			}
			run = &im.events[0] // add may have moved the slice
		default:
			// run_context and later entry types carry prompts and
			// settings, not steps: they are not mapped.
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedLog, "cannot read the log").With("line", line+1)
	}
	if run == nil {
		return nil, fault.New(fault.PhaseTrace, KindMalformedLog, "the log is empty")
	}
	run = &im.events[0]
	turns := 0
	for _, ev := range im.events {
		if ev.Kind == trace.KindTurn {
			turns++
		}
	}
	run.Attrs["turns"] = turns
	if answer != nil {
		run.Attrs["answer"] = *answer
	}
	if last.After(run.Start) {
		run.End = last
		run.DurationMS = float64(last.Sub(run.Start).Microseconds()) / 1000
	}
	return im.events, nil
}

// iteration adds one turn; prev is when the previous entry ended (the
// turn's start when the log has no usable timestamp).
func (im *importer) iteration(it Iteration, prev time.Time) (*string, time.Time) {
	var d time.Duration
	if it.IterationTime != nil {
		d = seconds(*it.IterationTime)
	}
	end, ok := parseTime(it.Timestamp)
	start := end.Add(-d)
	if !ok {
		start = prev
	}
	attrs := map[string]any{"iteration": it.Iteration}
	if it.Response != "" {
		attrs["reply"] = it.Response
	}
	if it.FinalAnswer != nil {
		attrs["final"] = true
	}
	turn := im.add("e1", 0, trace.KindTurn, "turn "+strconv.Itoa(it.Iteration), start, d, attrs)
	turnID, turnEnd := turn.ID, turn.End
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
		}
		cell := im.add(turnID, 0, trace.KindPlanStep, "cell", at, cd, ca)
		cellID := cell.ID
		callAt := at
		for _, c := range cb.Result.RLMCalls {
			im.call(cellID, c, callAt)
			callAt = callAt.Add(seconds(c.ExecutionTime))
		}
		at = at.Add(cd)
	}
	return it.FinalAnswer, turnEnd
}

func (im *importer) call(parent string, c ChatCompletion, at time.Time) {
	attrs := map[string]any{"model": c.RootModel}
	if p := text(c.Prompt); p != "" {
		attrs["prompt"] = p
	}
	if r := text(c.Response); r != "" {
		attrs["reply"] = r
	}
	if c.StatusCode != nil {
		attrs["http_status"] = *c.StatusCode
	}
	ev := im.add(parent, 1, trace.KindModelCall, c.RootModel, at, seconds(c.ExecutionTime), attrs)
	var tk trace.Tokens
	models := make([]string, 0, len(c.UsageSummary.ModelUsageSummaries))
	for m := range c.UsageSummary.ModelUsageSummaries {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		u := c.UsageSummary.ModelUsageSummaries[m]
		tk.Prompt += u.TotalInputTokens
		tk.Completion += u.TotalOutputTokens
	}
	tk.Total = tk.Prompt + tk.Completion
	if tk.Total > 0 {
		ev.Tokens = &tk
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

// Export writes events in the official format: one metadata line, then one
// iteration per turn of the root loop. Plan steps and code cells under a
// turn become code blocks (a plan step's code is its kind and bind as a
// comment line), model calls under them become rlm_calls with their
// usage. Content (replies, code, output, the answer) is written only when
// the trace recorded it.
func Export(w io.Writer, events []trace.Event) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	children := map[string][]int{}
	var run = -1
	for i, ev := range events {
		if ev.Parent == "" {
			if run < 0 && (ev.Kind == trace.KindRun || ev.Kind == trace.KindChild) {
				run = i
			}
			continue
		}
		children[ev.Parent] = append(children[ev.Parent], i)
	}
	for _, cs := range children {
		slices.SortStableFunc(cs, func(a, b int) int { return cmp.Compare(events[a].Seq, events[b].Seq) })
	}
	if run < 0 {
		return fault.New(fault.PhaseTrace, trace.KindMalformedTrace, "the trace has no run to export")
	}
	root := events[run]
	md := Metadata{Type: "metadata", Timestamp: pyTime(root.Start), Backend: "rlm-go", BackendKwargs: map[string]any{},
		EnvironmentType: "rlm-go", EnvironmentKwargs: map[string]any{}}
	others := map[string]bool{}
	var turns []int
	for _, c := range children[root.ID] {
		if events[c].Kind == trace.KindTurn {
			turns = append(turns, c)
		}
	}
	md.MaxIterations = len(turns)
	// A trace imported from an official log keeps its settings.
	if v, ok := root.Attrs["root_model"].(string); ok {
		md.RootModel = v
	}
	if v, ok := root.Attrs["backend"].(string); ok && v != "" {
		md.Backend = v
	}
	if v, ok := root.Attrs["environment_type"].(string); ok && v != "" {
		md.EnvironmentType = v
	}
	if v, ok := intAttr(root.Attrs["max_iterations"]); ok {
		md.MaxIterations = v
	}
	if v, ok := intAttr(root.Attrs["max_depth"]); ok {
		md.MaxDepth = v
	}
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
	for m := range others {
		md.OtherBackends = append(md.OtherBackends, m)
	}
	sort.Strings(md.OtherBackends)
	if err := enc.Encode(md); err != nil {
		return err
	}
	for n, t := range turns {
		tv := events[t]
		secs := tv.DurationMS / 1000
		it := Iteration{Type: "iteration", Iteration: n + 1, Timestamp: pyTime(tv.End), Prompt: []any{}, CodeBlocks: []CodeBlock{}, IterationTime: &secs}
		it.Response, _ = tv.Attrs["reply"].(string)
		for _, c := range children[tv.ID] {
			if events[c].Kind == trace.KindModelCall && events[c].Depth == tv.Depth {
				continue // the root model's own call: its reply is the response
			}
			it.CodeBlocks = append(it.CodeBlocks, block(events, children, c))
		}
		if n == len(turns)-1 {
			if a, ok := root.Attrs["answer"].(string); ok {
				it.FinalAnswer = &a
			}
		}
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func intAttr(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case float64:
		return int(v), v == float64(int(v))
	}
	return 0, false
}

// block maps a step (and its subtree) to a code block.
func block(events []trace.Event, children map[string][]int, i int) CodeBlock {
	ev := events[i]
	code, _ := ev.Attrs["code"].(string)
	if code == "" {
		code = "# rlm " + string(ev.Kind) + " " + ev.Name
		if b, ok := ev.Attrs["bind"].(string); ok && b != "" {
			code += " bind=" + b
		}
	}
	res := REPLResult{Locals: map[string]any{}, ExecutionTime: ev.DurationMS / 1000, RLMCalls: []ChatCompletion{}}
	res.Stdout, _ = ev.Attrs["stdout"].(string)
	res.Stderr, _ = ev.Attrs["stderr"].(string)
	if ev.Error != nil && res.Stderr == "" {
		res.Stderr = fmt.Sprintf("%s/%s: %s", ev.Error.Phase, ev.Error.Kind, ev.Error.Message)
	}
	stack := slices.Clone(children[ev.ID])
	slices.Reverse(stack)
	seen := map[int]bool{i: true} // a malformed trace (repeated ids) may loop
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if events[c].Kind == trace.KindModelCall {
			res.RLMCalls = append(res.RLMCalls, completion(events[c]))
		}
		cs := slices.Clone(children[events[c].ID])
		slices.Reverse(cs)
		stack = append(stack, cs...)
	}
	return CodeBlock{Code: code, Result: res}
}

func completion(ev trace.Event) ChatCompletion {
	c := ChatCompletion{RootModel: ev.Name, ExecutionTime: ev.DurationMS / 1000, Prompt: "", Response: ""}
	if p, ok := ev.Attrs["prompt"].(string); ok {
		c.Prompt = p
	}
	if r, ok := ev.Attrs["reply"].(string); ok {
		c.Response = r
	}
	u := ModelUsage{TotalCalls: 1}
	if ev.Tokens != nil {
		u.TotalInputTokens, u.TotalOutputTokens = ev.Tokens.Prompt, ev.Tokens.Completion
	}
	c.UsageSummary.ModelUsageSummaries = map[string]ModelUsage{ev.Name: u}
	if n, ok := intAttr(ev.Attrs["http_status"]); ok {
		c.StatusCode = &n
	}
	if ev.Error != nil {
		c.Error = ev.Error.Message
		c.ErrorType = string(ev.Error.Kind)
	}
	return c
}

// pyTime formats t as Python's datetime.isoformat() of a naive UTC time.
func pyTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000")
}
