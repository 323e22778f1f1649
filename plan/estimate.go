package plan

import "math"

// Estimate is a static count of the work a plan may do.
type Estimate struct {
	// Steps counts every step, including wrapper and final steps.
	Steps int `json:"steps"`
	// ModelCalls counts model steps.
	ModelCalls int `json:"model_calls"`
	// ToolCalls counts tool steps.
	ToolCalls int `json:"tool_calls"`
	// ContextOps counts context steps.
	ContextOps int `json:"context_ops"`
	// RLMCalls counts rlm steps.
	RLMCalls int `json:"rlm_calls"`
	// Depth is the extra recursion depth: 1 when there is any rlm step.
	Depth int `json:"depth"`
	// MapFanouts counts map steps.
	MapFanouts int `json:"map_fanouts"`
}

// Estimate returns p's static estimate. A map step counts 1 plus its
// sub-plan once (the per-item cost is admitted at run time through
// Env.Admit); a parallel step 1 plus the sum of its branches; a retry step
// 1 plus its sub-plan times its attempts.
func (p *Plan) Estimate() Estimate {
	var e Estimate
	if p == nil {
		return e
	}
	for i := range p.Steps {
		st := &p.Steps[i]
		e.Steps = satAdd(e.Steps, 1)
		// Each {"text":E} reads a handle through Env.Text: a context
		// operation (docs/engine.md, "Reading text").
		for _, x := range []*Expr{st.Handle, st.Prompt, st.Query, st.Context, st.Args, st.Over, st.Value} {
			e.ContextOps = satAdd(e.ContextOps, countText(x))
		}
		switch st.Op {
		case OpContext:
			e.ContextOps = satAdd(e.ContextOps, 1)
		case OpModel:
			e.ModelCalls = satAdd(e.ModelCalls, 1)
		case OpTool:
			e.ToolCalls = satAdd(e.ToolCalls, 1)
		case OpRLM:
			e.RLMCalls = satAdd(e.RLMCalls, 1)
			e.Depth = 1
		case OpMap:
			e.MapFanouts = satAdd(e.MapFanouts, 1)
			e = e.Add(st.Plan.Estimate())
		case OpParallel:
			for j := range st.Plans {
				e = e.Add(st.Plans[j].Estimate())
			}
		case OpRetry:
			e = e.Add(st.Plan.Estimate().Scale(max(st.Attempts, 1)))
		}
	}
	return e
}

// Add returns the sum of e and o; Depth is the larger of the two. Counts
// saturate at math.MaxInt: a plan's worst case (nested retries multiply)
// can exceed an int, and a wrapped count would pass a budget check.
func (e Estimate) Add(o Estimate) Estimate {
	return Estimate{
		Steps:      satAdd(e.Steps, o.Steps),
		ModelCalls: satAdd(e.ModelCalls, o.ModelCalls),
		ToolCalls:  satAdd(e.ToolCalls, o.ToolCalls),
		ContextOps: satAdd(e.ContextOps, o.ContextOps),
		RLMCalls:   satAdd(e.RLMCalls, o.RLMCalls),
		Depth:      max(e.Depth, o.Depth),
		MapFanouts: satAdd(e.MapFanouts, o.MapFanouts),
	}
}

// Scale returns e with every count multiplied by n; Depth is unchanged.
// Counts saturate at math.MaxInt, as in Add.
func (e Estimate) Scale(n int) Estimate {
	return Estimate{
		Steps:      satMul(e.Steps, n),
		ModelCalls: satMul(e.ModelCalls, n),
		ToolCalls:  satMul(e.ToolCalls, n),
		ContextOps: satMul(e.ContextOps, n),
		RLMCalls:   satMul(e.RLMCalls, n),
		Depth:      e.Depth,
		MapFanouts: satMul(e.MapFanouts, n),
	}
}

// satAdd is a + b for counts (never negative), saturating at math.MaxInt.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// satMul is a * n for counts (never negative), saturating at math.MaxInt.
func satMul(a, n int) int {
	if a <= 0 || n <= 0 {
		return 0
	}
	if a > math.MaxInt/n {
		return math.MaxInt
	}
	return a * n
}

// MinModelCalls is the fewest model calls the plan makes: its model steps
// and one root turn per rlm step (a child answers in at least one call).
func (e Estimate) MinModelCalls() int { return satAdd(e.ModelCalls, e.RLMCalls) }

// countText counts the {"text":E} expressions in e.
func countText(e *Expr) int {
	if e == nil {
		return 0
	}
	n := 0
	if e.Kind == ExprText {
		n = 1
	}
	n = satAdd(n, countText(e.Operand))
	for _, it := range e.Items {
		n = satAdd(n, countText(it))
	}
	for _, f := range e.Fields {
		n = satAdd(n, countText(f))
	}
	return n
}
