package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/enum"

func init() { modules = append(modules, enum.Register) }
