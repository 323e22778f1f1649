package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// mcpHost returns the MCP host of --mcp, loaded once per command; nil
// without --mcp. Servers start only when used.
func (f *toolFlags) mcpHost() (*mcp.Host, error) {
	if f.mcp == "" {
		return nil, nil
	}
	if f.host == nil {
		cfg, err := mcp.LoadConfig(f.mcp)
		if err != nil {
			return nil, err
		}
		f.mcpCfg, f.host = cfg, mcp.NewHost(cfg, mcp.Options{Version: version()})
	}
	return f.host, nil
}

// importMCP registers the tools of the --mcp servers in reg: every server
// when caps is nil (rlm tools list), else the servers caps may grant. A
// tool that cannot be imported is reported on stderr and skipped.
func (f *toolFlags) importMCP(ctx context.Context, reg *tool.Registry, caps *capability.Set, stderr io.Writer) error {
	h, err := f.mcpHost()
	if h == nil || err != nil {
		return err
	}
	names := f.mcpCfg.Names()
	if caps != nil {
		if names = f.mcpCfg.Granted(*caps); len(names) == 0 {
			return nil
		}
	}
	skipped, err := h.Import(ctx, reg, names...)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "rlm: mcp: skipped tool %q of server %s: %v\n", s.Tool, s.Server, s.Error)
	}
	return err
}

// closeMCP shuts the --mcp servers down (idempotent).
func (f *toolFlags) closeMCP() {
	if f.host != nil {
		f.host.Close()
	}
}

// mcpContexts replaces each --context mcp://<server>/<uri> with a file
// holding that resource, read through the --mcp host; done removes the
// files and stops the servers.
func (f *toolFlags) mcpContexts(ctx context.Context, paths []string) (out []string, done func(), err error) {
	done = f.closeMCP
	var dir string
	for _, p := range paths {
		srv, uri, ok := mcp.ParseContextURI(p)
		if !ok {
			if strings.HasPrefix(p, mcp.ContextScheme) {
				return nil, done, fault.New(fault.PhaseConfig, fault.KindInvalid, "an MCP context is mcp://<server>/<uri>").With("context", p)
			}
			out = append(out, p)
			continue
		}
		h, err := f.mcpHost()
		if err != nil {
			return nil, done, err
		}
		if h == nil {
			return nil, done, fault.New(fault.PhaseConfig, fault.KindInvalid, "an mcp:// context needs --mcp FILE").With("context", p).
				WithHint("pass --mcp with the mcpServers file that configures the server")
		}
		data, _, err := h.ReadResource(ctx, srv, uri)
		if err != nil {
			return nil, done, err
		}
		if dir == "" {
			if dir, err = os.MkdirTemp("", "rlm-mcp-context-"); err != nil {
				return nil, done, err
			}
			d := dir
			done = func() { f.closeMCP(); os.RemoveAll(d) }
		}
		name := filepath.Join(dir, fmt.Sprintf("%d-%s-%s", len(out), srv, safeFileName(uri)))
		if err := os.WriteFile(name, data, 0o600); err != nil {
			return nil, done, err
		}
		out = append(out, name)
	}
	return out, done, nil
}

func safeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) > 80 {
		b = b[len(b)-80:]
	}
	return string(b)
}
