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

const pathArgs = `{
  "type": "object",
  "properties": {"path": {"type": "string", "minLength": 1, "maxLength": 4096}},
  "required": ["path"],
  "additionalProperties": false
}`

const writeArgs = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096},
    "content": {"type": "string"}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

const readResult = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "content": {"type": "string"},
    "bytes": {"type": "integer", "minimum": 0},
    "truncated": {"type": "boolean"}
  },
  "required": ["path", "content", "bytes", "truncated"]
}`

const listResult = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "entries": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "name": {"type": "string"},
        "type": {"enum": ["file", "dir", "symlink", "other"]},
        "size": {"type": "integer", "minimum": 0}
      },
      "required": ["name", "type", "size"]
    }},
    "truncated": {"type": "boolean"}
  },
  "required": ["path", "entries", "truncated"]
}`

const writeResult = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "bytes": {"type": "integer", "minimum": 0},
    "created": {"type": "boolean"}
  },
  "required": ["path", "bytes", "created"]
}`

type pathArg struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func decode(raw json.RawMessage) (pathArg, error) {
	var a pathArg
	err := json.Unmarshal(raw, &a)
	return a, err
}

// Register adds fs_read, fs_list and fs_write over ws to reg.
func Register(reg *tool.Registry, ws *workspace.Root, opts Options) error {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = defaultMaxFileBytes
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = defaultMaxEntries
	}
	resolve := func(allowRoot bool) tool.Preflight {
		return func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
			a, err := decode(args)
			if err != nil {
				return nil, nil, err
			}
			rel, err := ws.Resolve(a.Path, allowRoot)
			if err != nil {
				return nil, nil, err
			}
			return nil, map[string]any{"path": rel}, nil
		}
	}
	specs := []tool.Spec{
		{
			Name:        "fs_read",
			Description: "Read a UTF-8 text file in the workspace. path is relative to the workspace root, using '/' separators.",
			Args:        json.RawMessage(pathArgs), Result: json.RawMessage(readResult),
			Effect:    tool.EffectRead,
			Limits:    tool.Limits{MaxOutputBytes: opts.MaxFileBytes + 1024},
			Preflight: resolve(false),
			Handler: func(ctx context.Context, req tool.Request) (any, error) {
				a, err := decode(req.Args)
				if err != nil {
					return nil, err
				}
				return ws.ReadFile(a.Path, opts.MaxFileBytes)
			},
		},
		{
			Name:        "fs_list",
			Description: "List a directory in the workspace, sorted by name. Use \".\" for the workspace root.",
			Args:        json.RawMessage(pathArgs), Result: json.RawMessage(listResult),
			Effect:    tool.EffectRead,
			Limits:    tool.Limits{MaxOutputBytes: 64 << 10},
			Preflight: resolve(true),
			Handler: func(ctx context.Context, req tool.Request) (any, error) {
				a, err := decode(req.Args)
				if err != nil {
					return nil, err
				}
				return ws.List(a.Path, opts.MaxEntries)
			},
		},
		{
			Name:        "fs_write",
			Description: "Create or replace a text file in the workspace. The parent directory must exist.",
			Args:        json.RawMessage(writeArgs), Result: json.RawMessage(writeResult),
			Effect: tool.EffectWrite,
			Preflight: func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
				a, err := decode(args)
				if err != nil {
					return nil, nil, err
				}
				rel, _, err := ws.CheckWritable(a.Path)
				if err != nil {
					return nil, nil, err
				}
				return nil, map[string]any{"path": rel}, nil
			},
			Handler: func(ctx context.Context, req tool.Request) (any, error) {
				a, err := decode(req.Args)
				if err != nil {
					return nil, err
				}
				return ws.WriteFile(a.Path, []byte(a.Content))
			},
		},
	}
	for _, s := range specs {
		if err := reg.Register(s); err != nil {
			return err
		}
	}
	return nil
}
