package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/itertools"

func init() { modules = append(modules, itertools.Register) }
