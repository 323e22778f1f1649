package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/unicodedata"

func init() { modules = append(modules, unicodedata.Register) }
