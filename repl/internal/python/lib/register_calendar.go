package lib

import "github.com/rlm-go/rlm/repl/internal/python/lib/calendar"

func init() { modules = append(modules, calendar.Register) }
