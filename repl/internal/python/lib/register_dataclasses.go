package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/dataclasses"

func init() { modules = append(modules, dataclasses.Register) }
