package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/numbers"

func init() { modules = append(modules, numbers.Register) }
