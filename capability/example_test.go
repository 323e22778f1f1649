package capability_test

import (
	"fmt"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// A scope holds a Set of capabilities; a child scope may only narrow it.
// Wildcards grant a whole prefix ("model:*") or a dotted family
// ("tool:mcp.github.*").
func ExampleSet_Narrow() {
	parent, err := capability.NewSet("rlm", "context:search", "tool:fs_read", "model:*", "tool:mcp.github.*")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(parent.Has(capability.Model("gpt-4o-mini")), parent.Has(capability.Tool("mcp.github.create_issue")), parent.Has(capability.Code))

	child, err := parent.Narrow(capability.MustSet("tool:fs_read", "context:search"))
	fmt.Println(child.Strings(), err)

	_, err = parent.Narrow(capability.MustSet("tool:fs_read", "tool:fs_write"))
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["extra"])

	_, err = capability.NewSet("tool:fs write")
	fmt.Println(fault.KindOf(err))
	// Output:
	// true true false
	// [context:search tool:fs_read] <nil>
	// widening_denied [tool:fs_write]
	// invalid_capability
}
