package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/copy"

func init() { modules = append(modules, copy.Register) }
