package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/string"

func init() { modules = append(modules, string.Register) }
