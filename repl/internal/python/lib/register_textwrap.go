package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/textwrap"

func init() { modules = append(modules, textwrap.Register) }
