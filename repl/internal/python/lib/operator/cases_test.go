package operator

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestRecorded runs testdata/cases.json, recorded from CPython 3.12 by
// testdata/gen.py (libtest.Recorded).
func TestRecorded(t *testing.T) { libtest.Recorded(t, registers, knownMessage) }

var registers = []func(){Register}

var knownMessage = map[string]string{}
