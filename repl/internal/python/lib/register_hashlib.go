package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/hashlib"

func init() { modules = append(modules, hashlib.Register) }
