package viewer

import (
	"maps"
	"slices"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// Node is one event as the page draws it: a row of the tree in walk order
// (trace.Walk), with its own figures and its subtree's totals. Field names
// are short because a 100k-event trace sends 100k of them.
type Node struct {
	ID     string       `json:"id"`
	Parent int          `json:"p"`  // position of the tree parent in Nodes, -1 for a root
	Level  int          `json:"l"`  // level in the tree (0 = root)
	Depth  int          `json:"d"`  // recursion depth recorded on the event
	Kind   trace.Kind   `json:"k"`  // event kind
	Name   string       `json:"n"`  // event name (model name for a model call, tool name for a tool call)
	Status trace.Status `json:"s"`  // ok, error, cancelled
	Start  float64      `json:"t0"` // start, in ms after the trace's earliest start
	MS     float64      `json:"ms"` // duration in ms
	Tokens int64        `json:"tk,omitempty"`
	Cost   float64      `json:"c,omitempty"`
	Est    bool         `json:"est,omitempty"` // cost estimated from the price table
	Err    string       `json:"e,omitempty"`   // error as phase/kind
	Size   int          `json:"sn"`            // events in the subtree, itself included
	SubTok int64        `json:"stk,omitempty"` // tokens in the subtree
	SubUSD float64      `json:"sc,omitempty"`  // cost in the subtree
	SubErr int          `json:"se,omitempty"`  // failed events in the subtree
}

// Summary is a trace's totals, for the header and the side-by-side
// comparison.
type Summary struct {
	Events     int          `json:"events"`
	Roots      int          `json:"roots"`
	Turns      int          `json:"turns"`       // turns of the root loop (depth 0)
	ModelCalls int          `json:"model_calls"` // provider requests
	Tokens     int64        `json:"tokens"`
	CostUSD    float64      `json:"cost_usd"`
	Failed     int          `json:"failed"` // events with status error
	WallMS     float64      `json:"wall_ms"`
	Status     trace.Status `json:"status,omitempty"`   // of the first root
	Answer     string       `json:"answer,omitempty"`   // when the trace recorded it (attribute "answer")
	Question   string       `json:"question,omitempty"` // of the first root, when recorded (attribute "query", or an imported prompt)
	InFlight   int          `json:"in_flight"`          // spans started and not ended yet (a live file)
	MaxDepth   int          `json:"max_depth"`
	ByDepth    []DepthUsage `json:"by_depth"` // one entry per recursion depth that has events, by depth
	Start      time.Time    `json:"start,omitzero"`
}

// DepthUsage is what the events recorded at one recursion depth used: the
// model calls made there and the tokens and cost on its events, so that
// the entries add up to the summary's totals (rlm run --json reports the
// same split as usage_by_depth).
type DepthUsage struct {
	Depth      int     `json:"depth"`
	ModelCalls int     `json:"model_calls"`
	Tokens     int64   `json:"tokens"`
	CostUSD    float64 `json:"cost_usd"`
}

// Model is what /api/tree returns for one file.
type Model struct {
	Name    string       `json:"name"`
	Version int          `json:"version"`
	Summary Summary      `json:"summary"`
	Nodes   []Node       `json:"nodes"`
	Waiting bool         `json:"waiting,omitempty"` // the file does not exist yet (Options.Wait)
	Error   *fault.Error `json:"error,omitempty"`   // the file could not be read (wholly or from some line on)
	index   []int        // Nodes[pos] is events[index[pos]]
}

// build lays out events in tree order and sums every subtree. It is linear
// in the number of events (one walk, one reverse pass).
func build(events []trace.Event, version int) *Model {
	m := &Model{Version: version, Nodes: make([]Node, 0, len(events)), index: make([]int, 0, len(events))}
	var t0 time.Time
	for _, ev := range events {
		if !ev.Start.IsZero() && (t0.IsZero() || ev.Start.Before(t0)) {
			t0 = ev.Start
		}
	}
	var end time.Time
	var ancestors []int // ancestors[l] = position of the current node at level l
	byDepth := map[int]*DepthUsage{}
	_ = trace.Walk(events, func(i, level int) error {
		ev := events[i]
		n := Node{ID: ev.ID, Parent: -1, Level: level, Depth: ev.Depth, Kind: ev.Kind, Name: ev.Name, Status: ev.Status, MS: ev.DurationMS, Cost: ev.CostUSD, Est: ev.CostUSD > 0 && !ev.CostKnown, Size: 1}
		if !ev.Start.IsZero() && !t0.IsZero() {
			n.Start = float64(ev.Start.Sub(t0).Microseconds()) / 1000
		}
		if ev.End.After(end) {
			end = ev.End
		}
		if ev.Tokens != nil {
			n.Tokens = ev.Tokens.Total
		}
		if ev.Error != nil {
			n.Err = string(ev.Error.Phase) + "/" + string(ev.Error.Kind)
		}
		if failedCell(ev) {
			// A cell that raised is failed in every view, whatever its
			// trace's age or source.
			n.Status = trace.StatusError
			if n.Err == "" {
				n.Err = string(fault.PhaseExecute) + "/" + string(trace.KindCellException)
			}
		}
		ancestors = append(ancestors[:level], len(m.Nodes))
		if level > 0 {
			n.Parent = ancestors[level-1]
		}
		n.SubTok, n.SubUSD = n.Tokens, n.Cost
		if n.Status == trace.StatusError {
			n.SubErr = 1
		}
		m.Nodes = append(m.Nodes, n)
		m.index = append(m.index, i)
		s := &m.Summary
		s.Events++
		s.Tokens += n.Tokens
		s.CostUSD += n.Cost
		s.MaxDepth = max(s.MaxDepth, ev.Depth)
		d := byDepth[ev.Depth]
		if d == nil {
			d = &DepthUsage{Depth: ev.Depth}
			byDepth[ev.Depth] = d
		}
		d.Tokens += n.Tokens
		d.CostUSD += n.Cost
		if n.Status == trace.StatusError {
			s.Failed++
		}
		if level == 0 {
			s.Roots++
			if s.Roots == 1 {
				s.Status = ev.Status
			}
			if s.Roots == 1 && (ev.Kind == trace.KindRun || ev.Kind == trace.KindChild) {
				s.Question = question(ev)
			}
		}
		// A turn of the root loop: under a run, or a root itself when its
		// run is not in the file yet (a live file written before runs were
		// written when they start).
		if ev.Kind == trace.KindTurn && ev.Depth == 0 && (level == 0 || events[m.index[n.Parent]].Kind == trace.KindRun) {
			s.Turns++
		}
		if n.Status == trace.StatusStarted {
			s.InFlight++
		}
		if ev.Kind == trace.KindModelCall {
			s.ModelCalls++
			d.ModelCalls++
		}
		if a, ok := ev.Attrs["answer"].(string); ok && s.Answer == "" {
			// Redacted as the node detail is: the file may be imported
			// or hand-edited.
			s.Answer, _ = trace.RedactValue(a).(string)
		}
		return nil
	})
	for pos := len(m.Nodes) - 1; pos >= 0; pos-- {
		n := &m.Nodes[pos]
		if n.Parent >= 0 {
			p := &m.Nodes[n.Parent]
			p.Size += n.Size
			p.SubTok += n.SubTok
			p.SubUSD += n.SubUSD
			p.SubErr += n.SubErr
		}
	}
	m.Summary.ByDepth = make([]DepthUsage, 0, len(byDepth))
	for _, d := range slices.Sorted(maps.Keys(byDepth)) {
		m.Summary.ByDepth = append(m.Summary.ByDepth, *byDepth[d])
	}
	if !t0.IsZero() {
		m.Summary.Start = t0
		if end.After(t0) {
			m.Summary.WallMS = float64(end.Sub(t0).Microseconds()) / 1000
		}
	}
	return m
}
