package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/math"

func init() { modules = append(modules, math.Register) }
