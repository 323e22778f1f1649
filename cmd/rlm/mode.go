package main

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/engine"
)

// modeFlag is --mode: how the root model works, plan (validated JSON plans)
// or code (Python in the sandboxed, budgeted REPL).
type modeFlag struct{ mode, python string }

func (m *modeFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&m.mode, "mode", engine.ModePlan, "how the model works: plan (validated JSON plans) or code (Python in a sandboxed, budgeted REPL)")
	cmd.Flags().StringVar(&m.python, "python", engine.PythonEmbedded, "code mode's interpreter: embedded (pure Go, in the binary) or pyodide (CPython in WebAssembly; needs Node.js and the npm package pyodide)")
}

// apply sets the mode; in code mode, capabilities the command computed
// (the defaults plus granted tools) gain code, which the engine adds itself
// only to its own defaults.
func (m *modeFlag) apply(cfg engine.Config) engine.Config {
	cfg.Mode, cfg.Python = m.mode, m.python
	if m.mode == engine.ModeCode && cfg.Capabilities.Len() > 0 {
		cfg.Capabilities = cfg.Capabilities.Union(capability.Of(capability.Code))
	}
	return cfg
}
