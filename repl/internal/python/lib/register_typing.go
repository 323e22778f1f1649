package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/typing"

func init() { modules = append(modules, typing.Register) }
