// Package calendar is code mode's calendar module, as CPython 3.12 has it
// in the C locale: isleap, leapdays, weekday, monthrange, monthcalendar,
// the month and day names, the Month and Day enums, timegm, and the
// Calendar, TextCalendar and HTMLCalendar classes (which programs
// subclass to change a calendar's look). The locale classes are refused.
//
// The module is written in Python (calendar.py, embedded) and run by the
// interpreter when a program imports it, so that its classes behave as
// classes of a Python module do when subclassed; it needs the enum module
// (and datetime for the methods that return dates).
package calendar

import (
	"context"
	_ "embed"

	"github.com/rlm-go/rlm/repl/internal/python"
)

//go:embed calendar.py
var source string

// Register makes calendar importable.
func Register() {
	python.Setup()
	python.RegisterModule("calendar", load)
}

// importSteps bounds the work of running the module's source.
const importSteps = 5_000_000

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("calendar")
	m.Set("__doc__", python.NewStr("Calendar printing functions\n\nNote when comparing these calendars to the ones printed by cal(1): By\ndefault, these calendars have Monday as the first day of the week, and\nSunday as the last (the European convention). Use setfirstweekday() to\nset the first day of the week (0=Monday, 6=Sunday)."))
	m.Func("_refuse_locale", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		what := "locale-dependent calendars"
		if len(args) == 1 {
			what = python.StrValue(args[0])
		}
		return nil, python.NotSupported(what, "code mode has the C locale only: use TextCalendar or HTMLCalendar, which print English names")
	})
	m.Func("main", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.NotSupported("calendar.main (the command line)", "call calendar.month(year, month) or calendar.calendar(year)")
	})
	exec, ok := in.Builtins().GetStr("exec")
	if !ok {
		return nil, python.NotSupported("the calendar module without exec()", "")
	}
	t := python.NewThread(context.Background(), in, importSteps, func(string) {})
	if _, err := python.Call(t, exec, []python.Object{python.NewStr(source), m.Dict()}, nil); err != nil {
		return nil, err
	}
	m.SetGetattr(func(t *python.Thread, name string) (python.Object, error) {
		// Deprecated spellings CPython 3.12 still answers (with a
		// DeprecationWarning).
		switch name {
		case "January":
			return python.MakeInt(1), nil
		case "February":
			return python.MakeInt(2), nil
		}
		return nil, nil
	})
	return m, nil
}
