package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/os"

func init() { modules = append(modules, os.Register) }
