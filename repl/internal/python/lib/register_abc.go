package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/abc"

func init() { modules = append(modules, abc.Register) }
