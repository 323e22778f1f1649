package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/functools"

func init() { modules = append(modules, functools.Register) }
