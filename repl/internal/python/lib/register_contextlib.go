package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/contextlib"

func init() { modules = append(modules, contextlib.Register) }
