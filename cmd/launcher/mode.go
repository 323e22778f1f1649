package launcher

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
)

// modeFlag is --mode: how the root model works, plan (validated JSON plans),
// code (Python in the sandboxed, budgeted REPL) or auto (one direct call
// when the input fits in --auto-share of the root model's window, else
// code), with auto's --auto-share, --context-window (also the root loop's
// window) and the root loop's compaction (--compact-at, --no-compaction).
type modeFlag struct {
	mode, python string
	autoShare    float64
	rootWindowFlags
}

func (m *modeFlag) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&m.mode, "mode", engine.ModePlan, "how the model works: plan (validated JSON plans), code (Python in a sandboxed, budgeted REPL) or auto (one direct call when the context and query fit in --auto-share of the root model's window, else code)")
	fl.StringVar(&m.python, "python", engine.PythonEmbedded, "code mode's interpreter: embedded (pure Go, in the binary) or pyodide (CPython in WebAssembly; needs Node.js and the npm package pyodide)")
	fl.Float64Var(&m.autoShare, "auto-share", rlm.DefaultAutoShare, "--mode auto: the share of the root model's window (above 0, at most 1) the context and query may take to be answered by one direct call")
	m.rootWindowFlags.register(cmd)
}

// spec sets the mode fields of sp.
func (m *modeFlag) spec(sp *rlm.Spec) {
	sp.Mode, sp.Python, sp.AutoShare = m.mode, m.python, m.autoShare
	m.rootWindowFlags.spec(sp)
}

// rootWindowFlags are the root loop's window and its compaction
// (--context-window, --compact-at, --no-compaction): rlm run, submit and
// mcp serve through modeFlag, and rlm chat.
type rootWindowFlags struct {
	contextWindow int
	compactAt     compactAtFlag
	noCompaction  bool
}

func (w *rootWindowFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&w.contextWindow, "context-window", 0, fmt.Sprintf("the root model's context window in tokens, used by --mode auto and by the root loop, whose prompt must fit it (0: the model table's, else %d; docs/launch.md)", model.DefaultContextWindow))
	fl.Var(&w.compactAt, "compact-at", fmt.Sprintf("the share of the root model's window (above 0, at most 1; default %g) the root conversation reaches before its older turns are replaced by a summary the root model writes (docs/engine.md, Compaction)", engine.DefaultCompactAt))
	fl.BoolVar(&w.noCompaction, "no-compaction", false, "never compact the root conversation: a root prompt that cannot fit the window fails before it is sent (prompt_too_large)")
}

// spec sets the root window fields of sp.
func (w *rootWindowFlags) spec(sp *rlm.Spec) {
	sp.ContextWindow = w.contextWindow
	sp.CompactAt, _ = w.compactAt.get()
	sp.NoCompaction = w.noCompaction
}

// compactAtFlag is --compact-at FRACTION: a share of the window above 0
// and at most 1, refused otherwise when the flags are parsed; unset, the
// engine's default.
type compactAtFlag struct{ optFloat }

func (c *compactAtFlag) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	if math.IsNaN(v) || v <= 0 || v > 1 {
		return fmt.Errorf("%s is not a share of the window above 0 and at most 1", s)
	}
	c.v, c.set = v, true
	return nil
}

func (c *compactAtFlag) Type() string { return "fraction" }
