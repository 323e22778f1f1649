package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/time"

func init() { modules = append(modules, time.Register) }
