package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/decimal"

func init() { modules = append(modules, decimal.Register) }
