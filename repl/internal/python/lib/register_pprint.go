package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/pprint"

func init() { modules = append(modules, pprint.Register) }
