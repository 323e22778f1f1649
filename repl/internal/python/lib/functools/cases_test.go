package functools

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
	"github.com/rlm-go/rlm/repl/internal/python/lib/operator"
)

// TestRecorded runs testdata/cases.json, recorded from CPython 3.12 by
// testdata/gen.py (libtest.Recorded).
func TestRecorded(t *testing.T) { libtest.Recorded(t, registers, knownMessage) }

var registers = []func(){Register, operator.Register}

// knownMessage lists cases whose exception message differs from CPython's
// because of the interpreter core, not this module.
var knownMessage = map[string]string{}
