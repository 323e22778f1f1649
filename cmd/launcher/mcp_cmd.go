package launcher

import (
	"context"
	"io"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/tool"
)

// importMCP registers the tools of every --mcp server in reg, for a
// listing (rlm tools list). A tool that cannot be imported is reported on
// stderr and skipped.
func (f *toolFlags) importMCP(ctx context.Context, reg *tool.Registry, stderr io.Writer) error {
	host, err := rlm.ImportMCPTools(ctx, f.mcp, reg, stderr)
	f.host = host
	return err
}

// closeMCP shuts the --mcp servers of a listing down (idempotent).
func (f *toolFlags) closeMCP() {
	if f.host != nil {
		f.host.Close()
	}
}
