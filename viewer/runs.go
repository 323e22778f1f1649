package viewer

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/trace"
)

// The run view: a run (or a child RLM) as a summary and a strip of its
// iterations, an iteration as the model's reply and what it ran (code
// cells or plan steps, each with its output, sub-calls and children).
// Everything is computed here from the laid-out tree (Model) and the
// events; the page only draws it. An iteration's detail is computed when
// the page opens it (/api/iteration), so a trace of any size sends the
// strip first and one iteration at a time.

// Limits of what one answer of the run view lists; the rest is counted.
const (
	maxCallsShown    = 100      // sub-calls listed per cell or step
	maxChildrenShown = 50       // child RLMs listed per cell or step
	maxTextShown     = 64 << 10 // bytes of one text field (reply, code, output, prompt)
	maxItersShown    = 100_000  // iterations listed in a run's strip
	maxImagesShown   = 16       // images listed per call (thumbnails: at most model.MaxTracedThumbnails)
	maxThumbBytes    = 16 << 10 // bytes of one thumbnail, as vision.ThumbMaxBytes bounds them
)

// RunView is a run or a child RLM as the run view shows it.
type RunView struct {
	Pos        int           `json:"pos"` // position in the tree's nodes; -1 for turns whose run is not in the file
	ID         string        `json:"id"`
	Kind       trace.Kind    `json:"kind"`
	Name       string        `json:"name"`
	Depth      int           `json:"depth"`
	Status     trace.Status  `json:"status"` // "started": in flight
	Err        string        `json:"error,omitempty"`
	ErrMsg     string        `json:"error_message,omitempty"`
	Question   string        `json:"question,omitempty"` // attribute query (--trace-content), else an imported prompt
	Answer     string        `json:"answer,omitempty"`
	Mode       string        `json:"mode,omitempty"` // "code", "plan" or "" (no cells nor steps)
	Turns      int           `json:"turns"`
	SubCalls   int           `json:"sub_calls"` // model calls below the run's own loop: its sub-calls and its children's calls
	Children   int           `json:"children"`  // child RLMs in the subtree
	MaxDepth   int           `json:"max_depth"`
	Tokens     int64         `json:"tokens"`
	CostUSD    float64       `json:"cost_usd"`
	WallMS     float64       `json:"wall_ms"`
	Failed     int           `json:"failed"`    // failed events in the subtree (a cell that raised included)
	InFlight   int           `json:"in_flight"` // spans of the subtree started and not ended (a live file)
	Iterations []IterSummary `json:"iterations"`
	MoreIters  int           `json:"more_iterations,omitempty"`
}

// IterSummary is one chip of an iteration strip.
type IterSummary struct {
	Pos         int          `json:"pos"`
	N           int          `json:"n"` // turn number, from 1
	Status      trace.Status `json:"status"`
	MS          float64      `json:"ms"`
	Tokens      int64        `json:"tokens"`  // the turn's subtree
	Cells       int          `json:"n_cells"` // code cells or plan steps
	FailedCells int          `json:"failed_cells"`
	SubCalls    int          `json:"sub_calls"` // made by its cells (not inside children)
	FailedCalls int          `json:"failed_calls"`
	Children    int          `json:"children"`
	Failed      int          `json:"failed"` // failed events in the turn's subtree
	InFlight    int          `json:"in_flight"`
	Final       bool         `json:"final,omitempty"` // a cell or step gave the answer
}

// Iteration is one turn as the run view shows it when opened.
type Iteration struct {
	IterSummary
	Depth       int    `json:"depth"`
	Mode        string `json:"mode,omitempty"`
	Reply       string `json:"reply,omitempty"` // the model's reply (the plan, in plan mode), when recorded
	Recorded    bool   `json:"recorded"`        // the trace recorded content (a reply, code or output)
	Observation string `json:"observation,omitempty"`
	Call        *Call  `json:"call,omitempty"` // the loop's own model call
	Err         string `json:"error,omitempty"`
	ErrMsg      string `json:"error_message,omitempty"`
	Cells       []Cell `json:"cells"`
}

// Cell is a code cell or a plan step of an iteration, with what ran under
// it.
type Cell struct {
	Pos       int          `json:"pos"`
	Kind      trace.Kind   `json:"kind"`
	Name      string       `json:"name"` // "cell", or the step's operation
	N         int          `json:"n,omitempty"`
	Bind      string       `json:"bind,omitempty"`
	Code      string       `json:"code,omitempty"`
	Stdout    string       `json:"stdout,omitempty"`
	Stderr    string       `json:"stderr,omitempty"`
	Exception string       `json:"exception,omitempty"`
	Status    trace.Status `json:"status"`
	Failed    bool         `json:"failed"` // error status, or an exception or stderr recorded
	Err       string       `json:"error,omitempty"`
	ErrMsg    string       `json:"error_message,omitempty"`
	MS        float64      `json:"ms"`
	Tokens    int64        `json:"tokens"`
	Final     bool         `json:"final,omitempty"`
	// CallID, Arguments and Observation are a direct loop's call: the
	// model's id of it, the argument text it sent and the observation it
	// got back (the note trace.NoteToolContent, under --trace-content). A
	// call refused before it ran has no span; its note is a cell of kind
	// note.
	CallID      string    `json:"call_id,omitempty"`
	Arguments   string    `json:"arguments,omitempty"`
	Observation string    `json:"observation,omitempty"`
	Ops         []OpCount `json:"ops,omitempty"`
	Steps       int       `json:"steps,omitempty"`        // nested plan steps (branches)
	FailedSteps int       `json:"failed_steps,omitempty"` // of which failed
	Calls       []Call    `json:"calls"`
	MoreCalls   int       `json:"more_calls,omitempty"`
	Children    []RunView `json:"children"`
	MoreKids    int       `json:"more_children,omitempty"`
}

// OpCount counts the context operations or tool calls of one name under
// a cell or step.
type OpCount struct {
	Kind   trace.Kind `json:"kind"`
	Name   string     `json:"name"`
	Count  int        `json:"count"`
	Failed int        `json:"failed,omitempty"`
}

// Call is a model call: a sub-call of a cell or step, or a loop's own.
type Call struct {
	Pos     int          `json:"pos"`
	Model   string       `json:"model"`
	Depth   int          `json:"depth"`
	Status  trace.Status `json:"status"`
	Err     string       `json:"error,omitempty"`
	ErrMsg  string       `json:"error_message,omitempty"`
	MS      float64      `json:"ms"`
	Tokens  int64        `json:"tokens"`
	CostUSD float64      `json:"cost_usd,omitempty"`
	Prompt  string       `json:"prompt,omitempty"`
	Reply   string       `json:"reply,omitempty"`
	// Images are the images the call sent (its span's "images"), each
	// with its thumbnail when the trace kept one (--trace-content);
	// MoreImages counts those past maxImagesShown.
	Images     []CallImage `json:"images,omitempty"`
	MoreImages int         `json:"more_images,omitempty"`
}

// CallImage is one image a call sent: its name ("sha256:HEX WxH
// MEDIA-TYPE") and its thumbnail, a data URL of an image/png or
// image/jpeg in base64, or "" (not recorded, or not such a URL: nothing
// else is ever handed to the page).
type CallImage struct {
	Image     string `json:"image"`
	Thumbnail string `json:"thumbnail,omitempty"`
}

// strs returns attribute key as strings ([]string as recorded, []any as
// read back from JSON; other elements as "").
func strs(attrs map[string]any, key string) []string {
	switch v := attrs[key].(type) {
	case []string:
		return v
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			out[i], _ = x.(string)
		}
		return out
	}
	return nil
}

// safeThumb returns s when it is a base64 data URL of a PNG or JPEG
// within the thumbnail bound, else "".
func safeThumb(s string) string {
	var rest string
	for _, p := range []string{"data:image/png;base64,", "data:image/jpeg;base64,"} {
		if strings.HasPrefix(s, p) {
			rest = s[len(p):]
			break
		}
	}
	if rest == "" || len(rest) > base64.StdEncoding.EncodedLen(maxThumbBytes) {
		return ""
	}
	if _, err := base64.StdEncoding.DecodeString(rest); err != nil {
		return ""
	}
	return s
}

// callImages returns the images a call's span names, with their
// thumbnails, and how many more there were.
func callImages(attrs map[string]any) ([]CallImage, int) {
	names := strs(attrs, "images")
	thumbs := strs(attrs, "thumbnails")
	n := min(len(names), maxImagesShown)
	if n == 0 {
		return nil, 0
	}
	out := make([]CallImage, n)
	for i := range n {
		out[i].Image = names[i]
		if i < len(thumbs) {
			out[i].Thumbnail = safeThumb(thumbs[i])
		}
	}
	return out, len(names) - n
}

// children calls fn with the position of each child of the node at pos.
func (m *Model) children(pos int, fn func(c int)) {
	end := pos + m.Nodes[pos].Size
	for c := pos + 1; c < end; c += m.Nodes[c].Size {
		fn(c)
	}
}

// text returns an attribute as text to show: a string as it is, another
// value as JSON; redacted as node detail is, bounded by maxTextShown.
func text(attrs map[string]any, key string) string {
	v, ok := attrs[key]
	if !ok || v == nil {
		return ""
	}
	v = trace.RedactValue(v)
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		s = string(b)
	}
	if len(s) > maxTextShown {
		cut := maxTextShown
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "\n… (" + strconv.Itoa(len(s)-cut) + " more bytes)"
	}
	return s
}

// question returns the question of a run or child RLM: attribute query
// (rlm's, under --trace-content), else an imported log's root_prompt (a
// run's question; its prompt is the context) or prompt (a child's).
func question(ev trace.Event) string {
	keys := []string{"query", "root_prompt"}
	if ev.Kind == trace.KindChild {
		keys = []string{"query", "prompt"}
	}
	for _, k := range keys {
		if s, ok := ev.Attrs[k].(string); ok && s != "" {
			return text(ev.Attrs, k)
		}
	}
	return ""
}

func errOf(ev trace.Event) (kind, msg string) {
	if ev.Error == nil {
		return "", ""
	}
	return string(ev.Error.Phase) + "/" + string(ev.Error.Kind), trace.RedactText(ev.Error.Message)
}

// failedCell reports whether a code cell raised though its event is not
// an error: a trace written before cells ended with cell_exception keeps
// only the attribute exception, and a cell's recorded stderr is what the
// official visualizer flags.
func failedCell(ev trace.Event) bool {
	if ev.Kind != trace.KindPlanStep || ev.Name != "cell" || ev.Status == trace.StatusError {
		return false
	}
	e, _ := ev.Attrs["exception"].(string)
	s, _ := ev.Attrs["stderr"].(string)
	return e != "" || s != ""
}

// loopPart reports whether the node at c, a child of a turn, is the loop's
// own model call or one of its notes rather than a step it ran.
func (m *Model) loopPart(turn, c int) bool {
	n := m.Nodes[c]
	return n.Kind == trace.KindNote || n.Kind == trace.KindModelCall && n.Depth == m.Nodes[turn].Depth
}

// runs returns the run view of every root run (or root child RLM) of the
// file; turns whose run is not in the file (a live file written before
// runs were written when they start) are gathered into one run in flight.
func (m *Model) runs(events []trace.Event) []RunView {
	out := []RunView{}
	var orphans []int
	for p := 0; p < len(m.Nodes); p += m.Nodes[p].Size {
		switch m.Nodes[p].Kind {
		case trace.KindRun, trace.KindChild:
			out = append(out, m.runView(events, p))
		case trace.KindTurn:
			orphans = append(orphans, p)
		}
	}
	if len(orphans) > 0 {
		rv := RunView{Pos: -1, Kind: trace.KindRun, Name: "rlm", Status: trace.StatusStarted, Depth: m.Nodes[orphans[0]].Depth, Iterations: []IterSummary{}}
		for _, t := range orphans {
			m.addTurn(events, &rv, t)
		}
		out = append(out, rv)
	}
	return out
}

// runView summarizes the run or child RLM at pos and lists its
// iterations.
func (m *Model) runView(events []trace.Event, pos int) RunView {
	n := m.Nodes[pos]
	ev := events[m.index[pos]]
	rv := RunView{Pos: pos, ID: n.ID, Kind: n.Kind, Name: n.Name, Depth: n.Depth, Status: n.Status, Tokens: n.SubTok, CostUSD: n.SubUSD,
		Failed: n.SubErr, MaxDepth: n.Depth, Iterations: []IterSummary{}}
	rv.Err, rv.ErrMsg = errOf(ev)
	rv.Question = question(ev)
	rv.Answer = text(ev.Attrs, "answer")
	end := n.Start + n.MS
	for p := pos + 1; p < pos+n.Size; p++ {
		c := m.Nodes[p]
		rv.MaxDepth = max(rv.MaxDepth, c.Depth)
		switch {
		case c.Status == trace.StatusStarted:
			rv.InFlight++
		case c.Kind == trace.KindModelCall && c.Depth > n.Depth:
			rv.SubCalls++
		case c.Kind == trace.KindChild:
			rv.Children++
		}
		end = max(end, c.Start+c.MS)
	}
	rv.WallMS = end - n.Start
	if n.Status != trace.StatusStarted {
		rv.WallMS = max(n.MS, 0)
	}
	m.children(pos, func(c int) {
		if m.Nodes[c].Kind == trace.KindTurn {
			m.addTurn(events, &rv, c)
		}
	})
	return rv
}

// addTurn adds the turn at pos to rv's strip.
func (m *Model) addTurn(events []trace.Event, rv *RunView, pos int) {
	rv.Turns++
	if len(rv.Iterations) >= maxItersShown {
		rv.MoreIters++
		return
	}
	it := m.iterSummary(events, pos, rv.Turns)
	if rv.Mode == "" {
		rv.Mode = m.modeOf(pos)
	}
	rv.Iterations = append(rv.Iterations, it)
}

// modeOf tells a code-mode turn (it ran cells) from a plan-mode one.
func (m *Model) modeOf(turn int) string {
	mode := ""
	m.children(turn, func(c int) {
		n := m.Nodes[c]
		switch {
		case n.Kind == trace.KindPlanStep && n.Name == "cell":
			mode = "code"
		case n.Kind == trace.KindPlanStep && mode == "":
			mode = "plan"
		}
	})
	return mode
}

func (m *Model) iterSummary(events []trace.Event, pos, n int) IterSummary {
	t := m.Nodes[pos]
	it := IterSummary{Pos: pos, N: n, Status: t.Status, MS: t.MS, Tokens: t.SubTok, Failed: t.SubErr}
	if k, ok := attrInt(events[m.index[pos]].Attrs, "iteration"); ok && k > 0 {
		it.N = k
	}
	if t.Status == trace.StatusStarted {
		it.InFlight++
	}
	m.children(pos, func(c int) {
		if m.loopPart(pos, c) {
			if m.Nodes[c].Status == trace.StatusStarted {
				it.InFlight++
			}
			return
		}
		cn := m.Nodes[c]
		it.Cells++
		if cn.Status == trace.StatusError {
			it.FailedCells++
		}
		if final, _ := events[m.index[c]].Attrs["final"].(bool); final {
			it.Final = true
		}
		m.under(c, func(p int) {
			d := m.Nodes[p]
			switch {
			case d.Status == trace.StatusStarted:
				it.InFlight++
			case d.Kind == trace.KindModelCall:
				it.SubCalls++
				if d.Status == trace.StatusError {
					it.FailedCalls++
				}
			case d.Kind == trace.KindChild:
				it.Children++
			}
		})
	})
	return it
}

// under calls fn with every node of the subtree at pos (itself included)
// except the insides of child RLMs, which fn sees but not their subtrees.
func (m *Model) under(pos int, fn func(p int)) {
	end := pos + m.Nodes[pos].Size
	for p := pos; p < end; {
		fn(p)
		if m.Nodes[p].Kind == trace.KindChild && p != pos {
			p += m.Nodes[p].Size
			continue
		}
		p++
	}
}

func attrInt(attrs map[string]any, key string) (int, bool) {
	switch v := attrs[key].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), v == float64(int(v))
	}
	return 0, false
}

// iteration returns the turn at pos as the run view opens it.
func (m *Model) iteration(events []trace.Event, pos int) Iteration {
	ev := events[m.index[pos]]
	n := 0
	if p := m.Nodes[pos].Parent; p >= 0 {
		m.children(p, func(c int) {
			if c <= pos && m.Nodes[c].Kind == trace.KindTurn {
				n++
			}
		})
	} else {
		for p := 0; p <= pos; p += m.Nodes[p].Size {
			if m.Nodes[p].Kind == trace.KindTurn {
				n++
			}
		}
	}
	it := Iteration{IterSummary: m.iterSummary(events, pos, n), Depth: ev.Depth, Mode: m.modeOf(pos), Cells: []Cell{}}
	it.Reply = text(ev.Attrs, "reply")
	it.Observation = text(ev.Attrs, "observation")
	it.Recorded = it.Reply != ""
	it.Err, it.ErrMsg = errOf(ev)
	byCall := map[string]int{} // a direct loop's call id → its cell
	m.children(pos, func(c int) {
		cn := m.Nodes[c]
		switch {
		case cn.Kind == trace.KindModelCall && cn.Depth == ev.Depth:
			if it.Call == nil {
				call := m.call(events, c)
				it.Call = &call
			}
		case cn.Kind == trace.KindNote:
			if cn.Name == trace.NoteToolContent {
				it.Recorded = true
				m.toolContent(events, c, &it, byCall)
			}
		default:
			cell := m.cell(events, c)
			it.Recorded = it.Recorded || cell.Code != "" || cell.Stdout != ""
			if cell.CallID != "" {
				byCall[cell.CallID] = len(it.Cells)
			}
			it.Cells = append(it.Cells, cell)
		}
	})
	return it
}

// toolContent gives the direct loop's note at pos (trace.NoteToolContent)
// to the cell of the call it names, which ended before it; a call with no
// span (refused before it ran) becomes a cell of its own.
func (m *Model) toolContent(events []trace.Event, pos int, it *Iteration, byCall map[string]int) {
	ev := events[m.index[pos]]
	id, _ := ev.Attrs["call_id"].(string)
	i, ok := byCall[id]
	if !ok || id == "" || it.Cells[i].Arguments != "" || it.Cells[i].Observation != "" {
		name, _ := ev.Attrs["name"].(string)
		status, _ := ev.Attrs["status"].(string)
		n := m.Nodes[pos]
		it.Cells = append(it.Cells, Cell{Pos: pos, Kind: n.Kind, Name: name, Status: n.Status, CallID: id,
			Failed: status != "" && status != "ok", Err: status, Calls: []Call{}, Children: []RunView{}})
		i = len(it.Cells) - 1
	}
	it.Cells[i].Arguments = text(ev.Attrs, "arguments")
	it.Cells[i].Observation = text(ev.Attrs, "observation")
}

func (m *Model) call(events []trace.Event, pos int) Call {
	n := m.Nodes[pos]
	ev := events[m.index[pos]]
	c := Call{Pos: pos, Model: n.Name, Depth: n.Depth, Status: n.Status, MS: n.MS, Tokens: n.Tokens, CostUSD: n.Cost}
	if s, ok := ev.Attrs["model"].(string); ok && s != "" && c.Model == "" {
		c.Model = s
	}
	c.Err, c.ErrMsg = errOf(ev)
	c.Prompt = text(ev.Attrs, "prompt")
	c.Reply = text(ev.Attrs, "reply")
	if c.Reply == "" {
		c.Reply = text(ev.Attrs, "response")
	}
	c.Images, c.MoreImages = callImages(ev.Attrs)
	return c
}

// cell returns the cell or step at pos with what ran under it. A
// sub-call's reply, when the trace recorded it apart (the note
// "sub_call reply" of the engine, a sibling of the call), is given to
// the call it belongs to: notes and calls of the subtree are paired in
// the order they ended, a note with a call of its model.
func (m *Model) cell(events []trace.Event, pos int) Cell {
	n := m.Nodes[pos]
	ev := events[m.index[pos]]
	c := Cell{Pos: pos, Kind: n.Kind, Name: n.Name, Status: n.Status, MS: n.MS, Tokens: n.SubTok, Calls: []Call{}, Children: []RunView{}}
	c.Failed = n.Status == trace.StatusError
	if k, ok := attrInt(ev.Attrs, "cell"); ok {
		c.N = k
	}
	c.Bind, _ = ev.Attrs["bind"].(string)
	if n.Kind == trace.KindToolCall || n.Kind == trace.KindContextOp {
		c.CallID, _ = ev.Attrs["call_id"].(string)
	}
	c.Code = text(ev.Attrs, "code")
	c.Stdout = text(ev.Attrs, "stdout")
	c.Stderr = text(ev.Attrs, "stderr")
	c.Exception, _ = ev.Attrs["exception"].(string)
	c.Final, _ = ev.Attrs["final"].(bool)
	c.Err, c.ErrMsg = errOf(ev)
	if n.Kind == trace.KindModelCall {
		// A step that is itself a model call (a tool loop's).
		c.Calls = append(c.Calls, m.call(events, pos))
		return c
	}
	ops := map[[2]string]*OpCount{}
	var calls, notes []int
	m.under(pos, func(p int) {
		if p == pos {
			return
		}
		d := m.Nodes[p]
		switch d.Kind {
		case trace.KindModelCall:
			calls = append(calls, p)
		case trace.KindNote:
			if d.Name == trace.NoteSubCall {
				notes = append(notes, p)
			}
		case trace.KindChild:
			if len(c.Children) < maxChildrenShown {
				c.Children = append(c.Children, m.runView(events, p))
			} else {
				c.MoreKids++
			}
		case trace.KindPlanStep:
			c.Steps++
			if d.Status == trace.StatusError {
				c.FailedSteps++
			}
		case trace.KindContextOp, trace.KindToolCall:
			k := [2]string{string(d.Kind), d.Name}
			o := ops[k]
			if o == nil {
				o = &OpCount{Kind: d.Kind, Name: d.Name}
				ops[k] = o
			}
			o.Count++
			if d.Status == trace.StatusError {
				o.Failed++
			}
		}
	})
	for _, o := range ops {
		c.Ops = append(c.Ops, *o)
	}
	slices.SortFunc(c.Ops, func(a, b OpCount) int {
		if a.Kind != b.Kind {
			return cmp.Compare(string(a.Kind), string(b.Kind))
		}
		return cmp.Compare(a.Name, b.Name)
	})
	replies := m.pairNotes(events, calls, notes)
	for i, p := range calls {
		if len(c.Calls) >= maxCallsShown {
			c.MoreCalls = len(calls) - i
			break
		}
		call := m.call(events, p)
		if call.Reply == "" {
			call.Reply = replies[p]
		}
		c.Calls = append(c.Calls, call)
	}
	return c
}

// pairNotes gives each sub-call note's reply to a call: notes in the
// order they were recorded, each to the first call not yet paired that
// ended before it (or when it did) and, when the note names a model, asked
// that model.
func (m *Model) pairNotes(events []trace.Event, calls, notes []int) map[int]string {
	if len(notes) == 0 {
		return nil
	}
	byEnd := slices.Clone(calls)
	slices.SortStableFunc(byEnd, func(a, b int) int {
		x, y := events[m.index[a]].End, events[m.index[b]].End
		return x.Compare(y)
	})
	byStart := slices.Clone(notes)
	slices.SortStableFunc(byStart, func(a, b int) int {
		x, y := events[m.index[a]], events[m.index[b]]
		if c := x.Start.Compare(y.Start); c != 0 {
			return c
		}
		return cmp.Compare(x.Seq, y.Seq)
	})
	used := make([]bool, len(byEnd))
	out := map[int]string{}
	for _, np := range byStart {
		note := events[m.index[np]]
		want, _ := note.Attrs["model"].(string)
		for i, cp := range byEnd {
			call := events[m.index[cp]]
			if used[i] || call.End.After(note.Start) || want != "" && call.Name != want && call.Name != "" {
				continue
			}
			used[i] = true
			out[cp] = text(note.Attrs, "reply")
			break
		}
	}
	return out
}
