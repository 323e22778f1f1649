package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/collections"

func init() { modules = append(modules, collections.Register) }
