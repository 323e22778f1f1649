package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/difflib"

func init() { modules = append(modules, difflib.Register) }
