package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/io"

func init() { modules = append(modules, io.Register) }
