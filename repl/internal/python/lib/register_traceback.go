package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/traceback"

func init() { modules = append(modules, traceback.Register) }
