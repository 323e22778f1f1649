package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
)

// modeFlag is --mode: how the root model works, plan (validated JSON plans),
// code (Python in the sandboxed, budgeted REPL) or auto (one direct call
// when the input fits in --auto-share of the root model's window, else
// code), with auto's --auto-share and --context-window.
type modeFlag struct {
	mode, python  string
	autoShare     float64
	contextWindow int
}

func (m *modeFlag) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&m.mode, "mode", engine.ModePlan, "how the model works: plan (validated JSON plans), code (Python in a sandboxed, budgeted REPL) or auto (one direct call when the context and query fit in --auto-share of the root model's window, else code)")
	fl.StringVar(&m.python, "python", engine.PythonEmbedded, "code mode's interpreter: embedded (pure Go, in the binary) or pyodide (CPython in WebAssembly; needs Node.js and the npm package pyodide)")
	fl.Float64Var(&m.autoShare, "auto-share", rlm.DefaultAutoShare, "--mode auto: the share of the root model's window (above 0, at most 1) the context and query may take to be answered by one direct call")
	fl.IntVar(&m.contextWindow, "context-window", 0, fmt.Sprintf("the root model's context window in tokens, used by --mode auto (0: the model table's, else %d; docs/launch.md)", model.DefaultContextWindow))
}

// spec sets the mode fields of sp.
func (m *modeFlag) spec(sp *rlm.Spec) {
	sp.Mode, sp.Python, sp.AutoShare, sp.ContextWindow = m.mode, m.python, m.autoShare, m.contextWindow
}
