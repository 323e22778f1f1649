package pprint

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
	"github.com/rlm-go/rlm/repl/internal/python/lib/dataclasses"
	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
	"github.com/rlm-go/rlm/repl/internal/python/lib/sys"
	"github.com/rlm-go/rlm/repl/internal/python/lib/types"
)

// TestRecorded runs testdata/cases.json, recorded from CPython 3.12 by
// testdata/gen.py (libtest.Recorded).
func TestRecorded(t *testing.T) { libtest.Recorded(t, registers, knownMessage) }

var registers = []func(){Register, sys.Register, types.Register, collections.Register, dataclasses.Register}

// knownMessage lists cases whose exception message differs from CPython's
// for a reason outside this module.
var knownMessage = map[string]string{}
