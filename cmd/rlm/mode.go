package main

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/engine"
)

// modeFlag is --mode: how the root model works, plan (validated JSON plans)
// or code (Python in the sandboxed, budgeted REPL).
type modeFlag struct{ mode, python string }

func (m *modeFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&m.mode, "mode", engine.ModePlan, "how the model works: plan (validated JSON plans) or code (Python in a sandboxed, budgeted REPL)")
	cmd.Flags().StringVar(&m.python, "python", engine.PythonEmbedded, "code mode's interpreter: embedded (pure Go, in the binary) or pyodide (CPython in WebAssembly; needs Node.js and the npm package pyodide)")
}

// spec sets the mode fields of sp.
func (m *modeFlag) spec(sp *rlm.Spec) { sp.Mode, sp.Python = m.mode, m.python }
