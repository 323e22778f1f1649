package plan_test

import (
	"fmt"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/plan"
)

// Parse a root model's turn (fences and prose around the JSON are
// tolerated), then validate the plan against the granted capabilities and
// the remaining budget before anything runs. Errors name the offending
// step in detail "path".
func ExampleValidate() {
	reply := "I'll search first.\n```json\n" + `{"steps":[
  {"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"ERROR"},"bind":"errors"},
  {"op":"model","prompt":{"join":["Explain: ",{"json":{"ref":"var","name":"errors"}}]},"bind":"why"},
  {"op":"final","value":{"ref":"var","name":"why"}}]}` + "\n```"

	doc, err := plan.Parse(reply)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.IsAnswer, len(doc.Plan.Steps), doc.Plan.Estimate().ModelCalls, doc.Plan.Estimate().ContextOps)

	cfg := plan.ValidateConfig{DefaultModel: "gpt-4o-mini",
		Granted: capability.MustSet("context:search", "model:gpt-4o-mini")}
	fmt.Println(plan.Validate(doc.Plan, cfg))

	cfg.Granted = capability.MustSet("context:search")
	err = plan.Validate(doc.Plan, cfg)
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["path"], fault.As(err).Detail["capability"])

	doc, _ = plan.Parse(`{"answer": "disk full", "confidence": 0.9}`)
	fmt.Println(doc.IsAnswer, doc.Answer, doc.Meta["confidence"])
	// Output:
	// false 3 1 1
	// <nil>
	// capability_denied steps[1] model:gpt-4o-mini
	// true disk full 0.9
}
