package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/re"

func init() { modules = append(modules, re.Register) }
