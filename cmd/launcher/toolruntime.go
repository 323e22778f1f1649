package launcher

import (
	"context"
	"os"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
)

// toolSession is the tool runtime a command opened from its toolFlags
// (rlm.Tools: the workspace tools, the --mcp servers' tools, the grant,
// the run and its effect journal).
type toolSession = rlm.Tools

// spec sets the tool fields of sp from the flags.
func (f *toolFlags) spec(sp *rlm.Spec) {
	sp.Workspace, sp.Allow, sp.Authority, sp.StateDir, sp.Resume, sp.MCP = f.workspace, f.allow, f.authority, f.stateDir, f.resume, f.mcp
}

// open opens the tool runtime; ctx bounds the import of MCP tools
// (Ctrl-C stops a server that does not answer).
func (f *toolFlags) open(ctx context.Context) (*toolSession, error) {
	return f.openWith(ctx, authority.NewStore())
}

// openWith is open with the given authority store, shared with an agent
// runtime whose children call the session's tools.
func (f *toolFlags) openWith(ctx context.Context, auth *authority.Store) (*toolSession, error) {
	return rlm.OpenTools(ctx, f.toolSpec(), auth, os.Stderr)
}

// toolSpec is the Spec of a tool runtime of its own (rlm.OpenTools, and
// rlm tools list's Spec.OpenRegistry): the flags' tool fields and the
// Config's tools, which a session gets as an option instead
// (launcher.options).
func (f *toolFlags) toolSpec() rlm.Spec {
	var sp rlm.Spec
	f.spec(&sp)
	sp.Tools = f.l.cfg.Tools
	return sp
}
