package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/types"

func init() { modules = append(modules, types.Register) }
