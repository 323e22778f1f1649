package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/fractions"

func init() { modules = append(modules, fractions.Register) }
