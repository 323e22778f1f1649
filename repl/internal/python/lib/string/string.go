// Package string is code mode's string module: the character-class
// constants, capwords, Template (substitute, safe_substitute,
// get_identifiers, is_valid; a subclass may change the delimiter) and
// Formatter (format, vformat and the methods a subclass overrides: parse,
// get_field, get_value, check_unused_args, format_field, convert_field).
package string

import (
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// Register makes string importable.
func Register() {
	python.Setup()
	python.RegisterModule("string", load)
}

const (
	lower       = "abcdefghijklmnopqrstuvwxyz"
	upper       = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits      = "0123456789"
	punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	whitespace  = " \t\n\r\x0b\x0c"
	idPattern   = "(?a:[_a-z][_a-z0-9]*)"
)

var (
	typesOnce     sync.Once
	templateType  *python.Type
	formatterType *python.Type
)

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	m := python.NewModule("string")
	consts := []struct{ name, v string }{
		{"ascii_lowercase", lower}, {"ascii_uppercase", upper}, {"ascii_letters", lower + upper},
		{"digits", digits}, {"hexdigits", digits + "abcdef" + "ABCDEF"}, {"octdigits", "01234567"},
		{"punctuation", punctuation}, {"whitespace", whitespace},
		{"printable", digits + lower + upper + punctuation + whitespace},
	}
	for _, c := range consts {
		m.Set(c.name, python.NewStr(c.v))
	}
	m.Func("capwords", capwords)
	m.Set("Template", templateType)
	m.Set("Formatter", formatterType)
	all := []string{"ascii_letters", "ascii_lowercase", "ascii_uppercase", "capwords", "digits", "hexdigits", "octdigits", "printable", "punctuation", "whitespace", "Formatter", "Template"}
	items := make([]python.Object, len(all))
	for i, n := range all {
		items[i] = python.NewStr(n)
	}
	m.Set("__all__", python.NewList(items))
	return m, nil
}

func initTypes() {
	typesOnce.Do(func() {
		initTemplate()
		initFormatter()
	})
}

// capwords is capwords(s, sep=None): sep.join(w.capitalize() for w in
// s.split(sep)), sep None joining with a space.
func capwords(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	sig := &signature{name: "capwords", pos: []string{"s", "sep"}, required: 1}
	vals, err := sig.bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	sep := vals["sep"]
	if sep == nil {
		sep = python.None
	}
	parts, err := python.CallMethod(t, vals["s"], "split", []python.Object{sep}, nil)
	if err != nil {
		return nil, err
	}
	words, err := python.ToSlice(t, parts)
	if err != nil {
		return nil, err
	}
	out := make([]python.Object, len(words))
	for i, w := range words {
		if out[i], err = python.CallMethod(t, w, "capitalize", nil, nil); err != nil {
			return nil, err
		}
	}
	joiner := sep
	if joiner == python.None {
		joiner = python.NewStr(" ")
	} else if ok, err := python.TruthE(t, joiner); err != nil {
		return nil, err
	} else if !ok {
		joiner = python.NewStr(" ")
	}
	return python.CallMethod(t, joiner, "join", []python.Object{python.NewList(out)}, nil)
}

// signature binds the arguments of a function CPython defines in Python,
// with Python's messages.
type signature struct {
	name     string
	pos      []string
	required int
}

func (s *signature) bind(args []python.Object, kwargs []python.Kwarg) (map[string]python.Object, error) {
	if len(args) > len(s.pos) {
		return nil, tooMany(s.name, len(s.pos), s.required, len(args))
	}
	vals := map[string]python.Object{}
	for i, a := range args {
		vals[s.pos[i]] = a
	}
	for _, kw := range kwargs {
		found := false
		for _, n := range s.pos {
			if n == kw.Name {
				found = true
			}
		}
		if !found {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", s.name, kw.Name)
		}
		if vals[kw.Name] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", s.name, kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	var missing []string
	for _, n := range s.pos[:s.required] {
		if vals[n] == nil {
			missing = append(missing, "'"+n+"'")
		}
	}
	if len(missing) > 0 {
		return nil, missingArgs(s.name, missing)
	}
	return vals, nil
}

func tooMany(name string, max, required, given int) error {
	takes := itoa(max)
	if required < max {
		takes = "from " + itoa(required) + " to " + itoa(max)
	}
	word := "arguments"
	if max == 1 && required == max {
		word = "argument"
	}
	was := "were"
	if given == 1 {
		was = "was"
	}
	return python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", name, takes, word, given, was)
}

func missingArgs(name string, missing []string) error {
	var list string
	switch len(missing) {
	case 1:
		list = missing[0]
	case 2:
		list = missing[0] + " and " + missing[1]
	default:
		list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + missing[len(missing)-1]
	}
	word := "argument"
	if len(missing) > 1 {
		word = "arguments"
	}
	return python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", name, len(missing), word, list)
}

func itoa(n int) string {
	if n < 10 && n >= 0 {
		return string(rune('0' + n))
	}
	var b []byte
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// strOf returns the text of a str (a context included); ok is false for
// other objects.
func strOf(t *python.Thread, x python.Object) (string, bool, error) {
	if s, ok := x.(*python.Str); ok {
		return s.String(), true, nil
	}
	var out string
	ok, err := python.ViewText(t, x, "text", func(v *python.TextView) error {
		out = string(v.Bytes)
		return nil
	})
	return out, ok, err
}

var _ = pystr.NewFormatParser
