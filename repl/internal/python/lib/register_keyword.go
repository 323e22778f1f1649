package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/keyword"

func init() { modules = append(modules, keyword.Register) }
