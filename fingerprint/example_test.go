package fingerprint_test

import (
	"encoding/json"
	"fmt"

	"github.com/rlm-go/rlm/fingerprint"
)

// The same value has the same fingerprint whatever Go type carried it and
// however its JSON was written: keys are sorted, whitespace dropped and
// numbers written in one form.
func ExampleOf() {
	type step struct {
		Op      string `json:"op"`
		Pattern string `json:"pattern"`
		Limit   int    `json:"limit"`
	}
	a := fingerprint.MustOf(step{Op: "search", Pattern: "ERROR", Limit: 1000})
	b := fingerprint.MustOf(json.RawMessage(`{ "limit": 1e3, "pattern": "ERROR", "op": "search" }`))
	c := fingerprint.MustOf(map[string]any{"op": "search", "pattern": "WARN", "limit": 1000})

	canon, _ := fingerprint.Canonical(json.RawMessage(`{ "limit": 1e3, "pattern": "ERROR", "op": "search" }`))
	fmt.Println(string(canon))
	fmt.Println(a == b, a == c)
	fmt.Println(a == fingerprint.Bytes(canon), len(a))
	// Output:
	// {"limit":1000,"op":"search","pattern":"ERROR"}
	// true false
	// true 71
}
