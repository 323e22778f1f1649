package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/csv"

func init() { modules = append(modules, csv.Register) }
