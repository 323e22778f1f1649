package plan

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
		e.Steps++
		switch st.Op {
		case OpContext:
			e.ContextOps++
		case OpModel:
			e.ModelCalls++
		case OpTool:
			e.ToolCalls++
		case OpRLM:
			e.RLMCalls++
			e.Depth = 1
		case OpMap:
			e.MapFanouts++
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

// Add returns the sum of e and o; Depth is the larger of the two.
func (e Estimate) Add(o Estimate) Estimate {
	return Estimate{
		Steps:      e.Steps + o.Steps,
		ModelCalls: e.ModelCalls + o.ModelCalls,
		ToolCalls:  e.ToolCalls + o.ToolCalls,
		ContextOps: e.ContextOps + o.ContextOps,
		RLMCalls:   e.RLMCalls + o.RLMCalls,
		Depth:      max(e.Depth, o.Depth),
		MapFanouts: e.MapFanouts + o.MapFanouts,
	}
}

// Scale returns e with every count multiplied by n; Depth is unchanged.
func (e Estimate) Scale(n int) Estimate {
	return Estimate{
		Steps:      e.Steps * n,
		ModelCalls: e.ModelCalls * n,
		ToolCalls:  e.ToolCalls * n,
		ContextOps: e.ContextOps * n,
		RLMCalls:   e.RLMCalls * n,
		Depth:      e.Depth,
		MapFanouts: e.MapFanouts * n,
	}
}
