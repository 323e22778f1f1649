package fault_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/fault"
)

// Report a failure as an *Error with a phase, a stable kind, detail and a
// hint; callers branch on the kind (errors.Is with a Kind, or KindOf),
// never on the message text.
func ExampleError() {
	_, cause := os.Open("/does/not/exist")
	err := fault.Wrap(cause, fault.PhaseConfig, fault.KindIO, "read the spec").
		With("path", "/does/not/exist").
		WithHint("check the path given to --spec")
	wrapped := fmt.Errorf("open run: %w", err)

	fmt.Println(errors.Is(wrapped, fault.KindIO), fault.KindOf(wrapped), fault.PhaseOf(wrapped))
	fmt.Println(fault.HintOf(wrapped))
	fe := fault.As(wrapped)
	fmt.Println(fe.Detail["path"], errors.Is(fe, os.ErrNotExist))

	b, _ := json.Marshal(fault.New(fault.PhaseValidate, fault.KindMissingField, "no query").With("field", "query"))
	fmt.Println(string(b))
	// Output:
	// true io_error config
	// check the path given to --spec
	// /does/not/exist true
	// {"phase":"validate","kind":"missing_field","message":"no query","detail":{"field":"query"}}
}
