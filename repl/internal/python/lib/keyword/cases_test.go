package keyword

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestRecorded runs testdata/cases.json, recorded from CPython 3.12 by
// testdata/gen.py (libtest.Recorded).
func TestRecorded(t *testing.T) { libtest.Recorded(t, registers, knownMessage) }

var registers = []func(){Register}

// knownMessage lists cases whose exception message differs from CPython's
// for a reason outside this module.
var knownMessage = map[string]string{}
