package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/operator"

func init() { modules = append(modules, operator.Register) }
