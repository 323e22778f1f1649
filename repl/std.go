package repl

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// standardGlobals are the names code mode predeclares in every
// interpreter beside Python's builtins: the finishing functions and the
// official RLM implementation's answer dict.
var standardGlobals = map[string]bool{
	"FINAL": true, "FINAL_VAR": true, "SHOW_VARS": true, "answer": true,
	"__name__": true, "__doc__": true, "__builtins__": true,
}

var (
	builtinNamesOnce sync.Once
	builtinNames     map[string]bool
)

// IsStandard reports whether name is one of code mode's standard
// predeclared names (a Python builtin, FINAL, FINAL_VAR, SHOW_VARS,
// answer): a host builtin may not use it.
func IsStandard(name string) bool {
	if standardGlobals[name] {
		return true
	}
	builtinNamesOnce.Do(func() {
		builtinNames = map[string]bool{}
		in := python.New(python.Config{})
		for _, k := range in.Builtins().Keys() {
			builtinNames[python.StrValue(k)] = true
		}
	})
	return builtinNames[name]
}

// predeclare binds FINAL, FINAL_VAR, SHOW_VARS and answer.
func (it *Interp) predeclare() {
	g := it.py.Globals()
	g.SetStr("FINAL", python.NewBuiltin("FINAL", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "FINAL() takes exactly one argument (%d given)", len(args)+len(kwargs))
		}
		return nil, it.finish(t, args[0])
	}))
	g.SetStr("FINAL_VAR", python.NewBuiltin("FINAL_VAR", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "FINAL_VAR() takes exactly one argument (%d given)", len(args)+len(kwargs))
		}
		name, ok := args[0].(*python.Str)
		if !ok {
			// FINAL_VAR(x) with a value: taken as FINAL(x).
			return nil, it.finish(t, args[0])
		}
		n := strings.TrimSpace(strings.Trim(name.String(), "\"'"))
		v, found := g.GetStr(n)
		if !found {
			return nil, python.Errorf(python.NameErrorType, "FINAL_VAR: no variable named %s; assign it first, or call FINAL(value)", python.StrRepr(n))
		}
		return nil, it.finish(t, v)
	}))
	g.SetStr("SHOW_VARS", python.NewBuiltin("SHOW_VARS", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vars := it.Vars()
		if len(vars) == 0 {
			t.Print("No variables defined.\n")
			return python.None, nil
		}
		var b strings.Builder
		for _, v := range vars {
			fmt.Fprintf(&b, "%s: %s = %s\n", v.Name, v.Type, v.Preview)
		}
		t.Print(b.String())
		return python.None, nil
	}))
	ans := python.NewDict(2)
	ans.SetStr("content", python.NewStr(""))
	ans.SetStr("ready", python.False)
	g.SetStr("answer", ans)
}

// finish records a cell's final value and stops the cell.
func (it *Interp) finish(t *python.Thread, v python.Object) error {
	g, err := ToGo(v)
	if err != nil {
		s, serr := python.StrOf(t, v)
		if serr != nil {
			return serr
		}
		g = s
	}
	r, err := python.Repr(t, v)
	if err != nil {
		return err
	}
	it.mu.Lock()
	if it.cell != nil {
		it.cell.final = &Final{Value: g, Repr: r}
	}
	it.mu.Unlock()
	return &python.StopError{Kind: "final"}
}

// answerReady reports whether v is the answer dict with ready set.
func answerReady(v python.Object) bool {
	d, ok := v.(*python.Dict)
	if !ok {
		return false
	}
	r, ok := d.GetStr("ready")
	if !ok {
		return false
	}
	return r == python.True
}

func answerFinal(v python.Object) *Final {
	d := v.(*python.Dict)
	c, ok := d.GetStr("content")
	if !ok {
		c = python.None
	}
	g, err := ToGo(c)
	if err != nil {
		s, serr := python.StrOf(nil, c)
		if serr == nil {
			g = s
		}
	}
	r, _ := python.Repr(nil, c)
	return &Final{Value: g, Repr: r}
}

// holdsHostText reports whether a container holds a context, looking
// depth levels down (and at most 10,000 items).
func holdsHostText(v python.Object, depth int) bool {
	budget := 10000
	var walk func(v python.Object, depth int) bool
	walk = func(v python.Object, depth int) bool {
		if budget--; budget < 0 {
			return false
		}
		if _, ok := python.HostTextOf(v); ok {
			return true
		}
		if depth == 0 {
			return false
		}
		found := false
		switch x := v.(type) {
		case *python.List:
			for _, it := range x.Items() {
				if found = walk(it, depth-1); found {
					break
				}
			}
		case *python.Tuple:
			for _, it := range x.Items() {
				if found = walk(it, depth-1); found {
					break
				}
			}
		case *python.Dict:
			x.Items(func(k, it python.Object) bool {
				found = walk(k, depth-1) || walk(it, depth-1)
				return !found
			})
		}
		return found
	}
	return walk(v, depth)
}

// preview renders a value's repr, cut to n bytes.
func preview(v python.Object, n int) string {
	if h, ok := python.HostTextOf(v); ok {
		return fmt.Sprintf("<%s: %d bytes>", h.Name(), h.Size())
	}
	if holdsHostText(v, 3) {
		// A preview must not read contexts (a host-side rendering is not
		// the model's operation, and a context can be large).
		return "<" + v.Type().Name() + " holding contexts>"
	}
	s, err := python.Repr(nil, v)
	if err != nil {
		s = "<" + v.Type().Name() + ">"
	}
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// IsKeyword reports whether s is a Python keyword (not a valid variable
// name).
func IsKeyword(s string) bool { return keywords[s] }
