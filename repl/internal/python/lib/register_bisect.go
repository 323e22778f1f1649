package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/bisect"

func init() { modules = append(modules, bisect.Register) }
