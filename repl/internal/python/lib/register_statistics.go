package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/statistics"

func init() { modules = append(modules, statistics.Register) }
