package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/json"

func init() { modules = append(modules, json.Register) }
