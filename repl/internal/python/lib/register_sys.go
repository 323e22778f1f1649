package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/sys"

func init() { modules = append(modules, sys.Register) }
