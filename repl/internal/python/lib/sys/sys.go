// Package sys is code mode's sys module: the interpreter's facts
// (version_info, maxsize, float_info, int_info, platform, byteorder, ...),
// stdout and stderr writing to the cell's output, exit, exc_info and
// exception, getrecursionlimit; what depends on a process or a file
// system (sys.modules, sys.path, getsizeof, settrace, stdin, ...) is
// refused with a hint. sys.version names code mode; version_info is
// CPython 3.12.1's.
package sys

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes sys importable.
func Register() {
	python.Setup()
	python.RegisterModule("sys", load)
}

var (
	typesOnce  sync.Once
	streamType *python.Type
)

// stream is sys.stdout, sys.stderr or sys.stdin.
type stream struct {
	name string
	fd   int
}

// Type returns _io.TextIOWrapper.
func (s *stream) Type() *python.Type { return streamType }

// PyRepr renders <_io.TextIOWrapper name='<stdout>' mode='w' encoding='utf-8'>.
func (s *stream) PyRepr(*python.Thread) (string, error) {
	mode := "w"
	if s.fd == 0 {
		mode = "r"
	}
	return "<_io.TextIOWrapper name='" + s.name + "' mode='" + mode + "' encoding='utf-8'>", nil
}

// WriteString lets print(file=sys.stderr) write without a method call.
func (s *stream) WriteString(t *python.Thread, text string) error {
	switch s.fd {
	case 1:
		t.Print(text)
	case 2:
		t.PrintErr(text)
	default:
		return python.Errorf(python.OSErrorType, "not writable")
	}
	return nil
}

func initTypes() {
	typesOnce.Do(func() {
		streamType = python.NewBuiltinType("TextIOWrapper", "_io", nil, nil)
		initStream(streamType)
	})
}

func initStream(c *python.Type) {
	self := func(args []python.Object) *stream { return args[0].(*stream) }
	c.AddMethod("write", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "TextIOWrapper.write() takes exactly one argument (%d given)", len(args)-1)
		}
		s, ok := args[1].(*python.Str)
		if !ok {
			if !python.IsStr(args[1]) {
				return nil, python.Errorf(python.TypeErrorType, "write() argument must be str, not %s", python.TypeName(args[1]))
			}
			text, err := python.StrOf(t, args[1])
			if err != nil {
				return nil, err
			}
			s = python.NewStr(text)
		}
		st := self(args)
		if st.fd == 0 {
			return nil, python.Errorf(python.OSErrorType, "not writable")
		}
		if err := st.WriteString(t, s.String()); err != nil {
			return nil, err
		}
		return python.MakeInt(int64(s.Len())), nil
	})
	c.AddMethod("writelines", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "TextIOWrapper.writelines() takes exactly one argument (%d given)", len(args)-1)
		}
		st := self(args)
		return python.None, python.Iterate(t, args[1], func(x python.Object) error {
			if !python.IsStr(x) {
				return python.Errorf(python.TypeErrorType, "write() argument must be str, not %s", python.TypeName(x))
			}
			text, err := python.StrOf(t, x)
			if err != nil {
				return err
			}
			return st.WriteString(t, text)
		})
	})
	c.AddMethod("flush", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.None, nil
	})
	for _, n := range []string{"isatty", "readable", "seekable", "writable"} {
		n := n
		c.AddMethod(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			st := self(args)
			switch n {
			case "readable":
				return python.MakeBool(st.fd == 0), nil
			case "writable":
				return python.MakeBool(st.fd != 0), nil
			}
			return python.False, nil
		})
	}
	for _, n := range []string{"read", "readline", "readlines", "fileno", "detach", "seek", "tell", "truncate", "reconfigure", "close"} {
		n := n
		c.AddMethod(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			st := self(args)
			if st.fd == 0 {
				return nil, python.NotSupported("reading sys.stdin", "code mode has no standard input: the data is in `context`")
			}
			return nil, python.NotSupported(st.name+"."+n+"()", "write to it with print() or .write()")
		})
	}
	c.AddGetSet("name", func(t *python.Thread, obj python.Object) (python.Object, error) {
		return python.NewStr(obj.(*stream).name), nil
	}, nil)
	c.AddGetSet("encoding", func(t *python.Thread, obj python.Object) (python.Object, error) {
		return python.NewStr("utf-8"), nil
	}, nil)
	c.AddGetSet("errors", func(t *python.Thread, obj python.Object) (python.Object, error) {
		if obj.(*stream).fd == 2 {
			return python.NewStr("backslashreplace"), nil
		}
		return python.NewStr("strict"), nil
	}, nil)
	c.AddGetSet("closed", func(t *python.Thread, obj python.Object) (python.Object, error) {
		return python.False, nil
	}, nil)
	c.AddGetSet("mode", func(t *python.Thread, obj python.Object) (python.Object, error) {
		if obj.(*stream).fd == 0 {
			return python.NewStr("r"), nil
		}
		return python.NewStr("w"), nil
	}, nil)
}

func strList(ss ...string) *python.List {
	out := make([]python.Object, len(ss))
	for i, s := range ss {
		out[i] = python.NewStr(s)
	}
	return python.NewList(out)
}

func ints(ns ...int64) []python.Object {
	out := make([]python.Object, len(ns))
	for i, n := range ns {
		out[i] = python.MakeInt(n)
	}
	return out
}

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	// The struct sequence classes, per interpreter (a program may change
	// them).
	versionInfoType := NewStructSeqType("version_info", "sys", []string{"major", "minor", "micro", "releaselevel", "serial"}, 5)
	floatInfoType := NewStructSeqType("float_info", "sys", []string{"max", "max_exp", "max_10_exp", "min", "min_exp", "min_10_exp", "dig", "mant_dig", "epsilon", "radix", "rounds"}, 11)
	intInfoType := NewStructSeqType("int_info", "sys", []string{"bits_per_digit", "sizeof_digit", "default_max_str_digits", "str_digits_check_threshold"}, 4)
	hashInfoType := NewStructSeqType("hash_info", "sys", []string{"width", "modulus", "inf", "nan", "imag", "algorithm", "hash_bits", "seed_bits", "cutoff"}, 9)
	flagType := NewStructSeqType("flags", "sys", []string{"debug", "inspect", "interactive", "optimize", "dont_write_bytecode", "no_user_site", "no_site", "ignore_environment", "verbose", "bytes_warning", "quiet", "hash_randomization", "isolated", "dev_mode", "utf8_mode", "warn_default_encoding", "safe_path", "int_max_str_digits"}, 18)
	m := python.NewModule("sys")
	m.Set("version_info", NewStructSeq(versionInfoType, []python.Object{python.MakeInt(3), python.MakeInt(12), python.MakeInt(1), python.NewStr("final"), python.MakeInt(0)}))
	m.Set("version", python.NewStr("3.12.1 (code mode: an interpreter of Python 3.12 in Go)"))
	m.Set("hexversion", python.MakeInt(0x030c01f0))
	m.Set("api_version", python.MakeInt(1013))
	m.Set("maxsize", python.MakeInt(9223372036854775807))
	m.Set("maxunicode", python.MakeInt(1114111))
	m.Set("byteorder", python.NewStr("little"))
	m.Set("platform", python.NewStr("linux"))
	m.Set("float_repr_style", python.NewStr("short"))
	m.Set("float_info", NewStructSeq(floatInfoType, []python.Object{
		python.Float(1.7976931348623157e+308), python.MakeInt(1024), python.MakeInt(308),
		python.Float(2.2250738585072014e-308), python.MakeInt(-1021), python.MakeInt(-307),
		python.MakeInt(15), python.MakeInt(53), python.Float(2.220446049250313e-16), python.MakeInt(2), python.MakeInt(1),
	}))
	m.Set("int_info", NewStructSeq(intInfoType, ints(30, 4, 4300, 640)))
	m.Set("hash_info", NewStructSeq(hashInfoType, []python.Object{python.MakeInt(64), python.MakeInt(2305843009213693951),
		python.MakeInt(314159), python.MakeInt(0), python.MakeInt(1000003), python.NewStr("siphash13"),
		python.MakeInt(64), python.MakeInt(128), python.MakeInt(0)}))
	m.Set("flags", NewStructSeq(flagType, append(ints(0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0), python.False, python.MakeInt(0), python.MakeInt(0), python.False, python.MakeInt(4300))))
	m.Set("argv", strList(""))
	m.Set("orig_argv", strList())
	m.Set("warnoptions", strList())
	m.Set("builtin_module_names", python.NewTuple(strList("builtins", "sys").Items()))
	m.Set("dont_write_bytecode", python.True)
	m.Set("stdout", &stream{name: "<stdout>", fd: 1})
	m.Set("stderr", &stream{name: "<stderr>", fd: 2})
	m.Set("stdin", &stream{name: "<stdin>", fd: 0})
	m.Set("__stdout__", &stream{name: "<stdout>", fd: 1})
	m.Set("__stderr__", &stream{name: "<stderr>", fd: 2})
	m.Set("__stdin__", &stream{name: "<stdin>", fd: 0})
	m.Func("getrecursionlimit", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "sys.getrecursionlimit() takes no arguments (%d given)", len(args)+len(kwargs))
		}
		return python.MakeInt(int64(t.Interp().Config().MaxDepth)), nil
	})
	m.Func("setrecursionlimit", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := oneArg("setrecursionlimit", args, kwargs); err != nil {
			return nil, err
		}
		n, err := python.ArgInt(t, "setrecursionlimit", args[0])
		if err != nil {
			if _, isFloat := args[0].(python.Float); isFloat {
				return nil, python.Errorf(python.TypeErrorType, "'float' object cannot be interpreted as an integer")
			}
			return nil, err
		}
		if n < 1 {
			return nil, python.Errorf(python.ValueErrorType, "recursion limit must be greater or equal than 1")
		}
		if limit := int64(t.Interp().Config().MaxDepth); n != limit {
			return nil, python.NotSupported("changing the recursion limit", "code mode's limit is "+itoa(limit)+" frames; write deep recursion as a loop")
		}
		return python.None, nil
	})
	m.Func("get_int_max_str_digits", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "sys.get_int_max_str_digits() takes no arguments (%d given)", len(args)+len(kwargs))
		}
		return python.MakeInt(4300), nil
	})
	m.Func("set_int_max_str_digits", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.NotSupported("sys.set_int_max_str_digits()", "code mode converts ints of at most 4300 digits to text")
	})
	m.Func("exit", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "sys.exit() takes no keyword arguments")
		}
		if len(args) > 1 {
			return nil, python.Errorf(python.TypeErrorType, "exit expected at most 1 argument, got %d", len(args))
		}
		if len(args) == 1 && args[0] == python.None {
			args = nil
		}
		return nil, python.NewException(python.SystemExitType, args...)
	})
	m.Func("exc_info", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "sys.exc_info() takes no arguments (%d given)", len(args)+len(kwargs))
		}
		e := t.Handled()
		if e == nil {
			return python.NewTuple([]python.Object{python.None, python.None, python.None}), nil
		}
		return python.NewTuple([]python.Object{e.Class(), e, e.TracebackObject()}), nil
	})
	m.Func("exception", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "sys.exception() takes no arguments (%d given)", len(args)+len(kwargs))
		}
		if e := t.Handled(); e != nil {
			return e, nil
		}
		return python.None, nil
	})
	for _, n := range []string{"getdefaultencoding", "getfilesystemencoding"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if len(args)+len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "sys.%s() takes no arguments (%d given)", n, len(args)+len(kwargs))
			}
			return python.NewStr("utf-8"), nil
		})
	}
	m.Func("intern", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := oneArg("intern", args, kwargs); err != nil {
			return nil, err
		}
		if _, ok := args[0].(*python.Str); !ok {
			return nil, python.Errorf(python.TypeErrorType, "intern() argument must be str, not %s", python.TypeName(args[0]))
		}
		return args[0], nil
	})
	m.Func("is_finalizing", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.False, nil
	})
	m.SetGetattr(func(t *python.Thread, name string) (python.Object, error) {
		if name == "modules" {
			// Available once the interpreter lists its imported modules.
			if im, ok := any(t.Interp()).(interface{ ImportedModules() *python.Dict }); ok {
				return im.ImportedModules(), nil
			}
		}
		if hint, ok := refused[name]; ok {
			return nil, python.NotSupported("sys."+name, hint)
		}
		return nil, nil
	})
	return m, nil
}

// refused names what sys has in CPython and code mode does not, with a
// hint.
var refused = map[string]string{
	"modules":            "import the modules you need; the set of imported modules is not available",
	"path":               "code mode has no file system: modules come with the interpreter",
	"meta_path":          "code mode has no import system to extend",
	"path_hooks":         "code mode has no import system to extend",
	"executable":         "code mode runs in no process of its own",
	"prefix":             "code mode has no installation directory",
	"exec_prefix":        "code mode has no installation directory",
	"base_prefix":        "code mode has no installation directory",
	"getsizeof":          "object sizes are not Python's in code mode; use len() of the data",
	"getrefcount":        "code mode has no reference counts",
	"settrace":           "code mode has no tracing",
	"setprofile":         "code mode has no profiling",
	"gettrace":           "code mode has no tracing",
	"getprofile":         "code mode has no profiling",
	"_getframe":          "frames are not objects in code mode",
	"implementation":     "code mode is not CPython's implementation",
	"getswitchinterval":  "code mode has no threads",
	"setswitchinterval":  "code mode has no threads",
	"excepthook":         "code mode prints exceptions itself",
	"displayhook":        "code mode prints values itself",
	"ps1":                "code mode is not interactive",
	"ps2":                "code mode is not interactive",
	"last_value":         "use sys.exception() inside an except block",
	"last_type":          "use sys.exception() inside an except block",
	"last_traceback":     "use sys.exception() inside an except block",
	"getallocatedblocks": "code mode has no allocator statistics",
	"audit":              "code mode has no audit hooks",
	"addaudithook":       "code mode has no audit hooks",
}

func oneArg(name string, args []python.Object, kwargs []python.Kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "sys.%s() takes no keyword arguments", name)
	}
	if len(args) != 1 {
		return python.Errorf(python.TypeErrorType, "sys.%s() takes exactly one argument (%d given)", name, len(args))
	}
	return nil
}

func itoa(n int64) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
