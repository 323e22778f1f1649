package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/base64"

func init() { modules = append(modules, base64.Register) }
