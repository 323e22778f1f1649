// Package builtin registers the built-in workspace tools: fs_read and
// fs_list (read) and fs_write (write), all confined to one workspace
// directory chosen by the host.
//
// Confinement runs twice: in the preflight, so a path that leaves the
// workspace is refused with Kind confinement_denied before authority and
// before any pending operation exists, and again in the handler through an
// os.Root, so a link swapped in after approval still cannot escape.
package builtin

import (
	"context"
	"encoding/json"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/workspace"
)

// Options bound the built-in tools. Zero fields take the defaults.
type Options struct {
	MaxFileBytes int64 // fs_read content limit; default 8192
	MaxEntries   int   // fs_list entry limit; default 1000
}

const (
	defaultMaxFileBytes = 8192
	defaultMaxEntries   = 1000
)

// pathIn is the argument of fs_read and fs_list.
type pathIn struct {
	Path string `json:"path" jsonschema:"minLength=1,maxLength=4096"`
}

// writeIn is the argument of fs_write.
type writeIn struct {
	Path    string `json:"path" jsonschema:"minLength=1,maxLength=4096"`
	Content string `json:"content"`
}

// Register adds fs_read, fs_list and fs_write over ws to reg.
func Register(reg *tool.Registry, ws *workspace.Root, opts Options) error {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = defaultMaxFileBytes
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = defaultMaxEntries
	}
	// confine is the preflight of all three tools: check resolves the
	// path argument in the workspace.
	confine := func(check func(path string) (string, error)) tool.Preflight {
		return func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
			var a writeIn // its path is the path of every tool's arguments
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, nil, err
			}
			rel, err := check(a.Path)
			if err != nil {
				return nil, nil, err
			}
			return nil, map[string]any{"path": rel}, nil
		}
	}
	resolve := func(allowRoot bool) tool.Preflight {
		return confine(func(path string) (string, error) { return ws.Resolve(path, allowRoot) })
	}
	read := tool.Func("fs_read", "Read a UTF-8 text file in the workspace. path is relative to the workspace root, using '/' separators.",
		func(ctx context.Context, in pathIn) (workspace.File, error) {
			return ws.ReadFile(in.Path, opts.MaxFileBytes)
		})
	// JSON may encode one byte of content or path as six ("\u003c", "\ufffd"
	// for invalid UTF-8): a read within MaxFileBytes is never oversized.
	read.Limits = tool.Limits{MaxOutputBytes: 6*(opts.MaxFileBytes+workspace.MaxPathBytes) + 1024}
	read.Preflight = resolve(false)

	list := tool.Func("fs_list", "List a directory in the workspace, sorted by name. Use \".\" for the workspace root.",
		func(ctx context.Context, in pathIn) (workspace.Listing, error) {
			l, err := ws.List(in.Path, opts.MaxEntries)
			if err != nil {
				return l, err
			}
			return fitListing(l, listOutputBytes)
		})
	list.Limits = tool.Limits{MaxOutputBytes: listOutputBytes}
	list.Preflight = resolve(true)

	write := tool.Func("fs_write", "Create or replace a text file in the workspace. The parent directory must exist.",
		func(ctx context.Context, in writeIn) (workspace.Written, error) {
			return ws.WriteFile(in.Path, []byte(in.Content))
		})
	write.Effect = authority.EffectWrite
	write.Preflight = confine(func(path string) (string, error) {
		rel, _, err := ws.CheckWritable(path)
		return rel, err
	})
	for _, s := range []tool.Spec{read, list, write} {
		if err := reg.Register(s); err != nil {
			return err
		}
	}
	return nil
}

// listOutputBytes is fs_list's output limit.
const listOutputBytes = 64 << 10

// fitListing keeps the longest prefix of l's entries whose JSON fits in
// max bytes, setting Truncated when it drops any: a directory with more
// (or longer) names than fit is a truncated listing, not an oversized
// output.
func fitListing(l workspace.Listing, max int) (workspace.Listing, error) {
	if b, err := json.Marshal(l); err != nil || len(b) <= max {
		return l, err
	}
	frame, err := json.Marshal(workspace.Listing{Path: l.Path, Entries: []workspace.Entry{}, Truncated: true})
	if err != nil {
		return l, err
	}
	n := len(frame)
	for i, e := range l.Entries {
		b, err := json.Marshal(e)
		if err != nil {
			return l, err
		}
		if n += len(b); i > 0 {
			n++ // the comma before it
		}
		if n > max {
			l.Entries, l.Truncated = l.Entries[:i], true
			break
		}
	}
	return l, nil
}
