package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/datetime"

func init() { modules = append(modules, datetime.Register) }
