package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/warnings"

func init() { modules = append(modules, warnings.Register) }
