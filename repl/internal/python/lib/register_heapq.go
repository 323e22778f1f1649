package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/heapq"

func init() { modules = append(modules, heapq.Register) }
