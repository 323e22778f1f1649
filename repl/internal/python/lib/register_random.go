package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/random"

func init() { modules = append(modules, random.Register) }
