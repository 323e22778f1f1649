package python

import (
	"fmt"
	"strings"
)

// Exception is an instance of BaseException or a subclass (built-in or
// user-defined). It is also a Go error: a Python exception propagating
// through Go code.
type Exception struct {
	identity
	cls             *Type
	args            *Tuple
	dict            *Dict
	cause           *Exception
	context         *Exception
	suppressContext bool
	traceback       []TraceEntry
	tb              *Traceback // __traceback__, built when asked
	lastFrame       *Frame
	// value is StopIteration's value; code is SystemExit's.
	value Object
	group *excGroup // an exception group's message and exceptions
}

// TraceEntry is one frame an exception passed through.
type TraceEntry struct {
	File  string
	Name  string
	Line  int
	frame *Frame
}

// Type returns the exception's class.
func (e *Exception) Type() *Type { return e.cls }

// Error renders the exception as Python's last traceback line does.
func (e *Exception) Error() string {
	msg := e.message()
	if msg == "" {
		return e.cls.name
	}
	return e.cls.name + ": " + msg
}

// TypeName returns the exception class's name (with the module for
// classes outside builtins, as tracebacks show them).
func (e *Exception) TypeName() string {
	if e.cls.module != "builtins" && e.cls.module != "__main__" && e.cls.module != "" {
		return e.cls.module + "." + e.cls.qualname
	}
	return e.cls.name
}

// Class returns the exception's class.
func (e *Exception) Class() *Type { return e.cls }

// Message returns str(e) for built-in exceptions (user classes with
// __str__ need a thread: use Str).
func (e *Exception) Message() string { return e.message() }

func (e *Exception) message() string {
	if s, ok := e.specialStr(); ok {
		return s
	}
	if e.args == nil {
		return ""
	}
	switch len(e.args.items) {
	case 0:
		return ""
	case 1:
		if e.cls.IsSubtype(KeyErrorType) {
			return reprNoThread(e.args.items[0])
		}
		return strNoThread(e.args.items[0])
	}
	return reprNoThread(e.args)
}

// Args returns e.args.
func (e *Exception) Args() []Object {
	if e.args == nil {
		return nil
	}
	return e.args.items
}

// Traceback returns the frames the exception passed through, innermost
// last.
func (e *Exception) Traceback() []TraceEntry { return e.traceback }

// Cause returns __cause__ or nil.
func (e *Exception) Cause() *Exception { return e.cause }

// Context returns __context__ or nil.
func (e *Exception) Context() *Exception { return e.context }

func (e *Exception) dictOf() *Dict {
	if e.dict == nil {
		e.dict = NewDict(2)
	}
	return e.dict
}

// addTrace records that the exception passed through frame f at line.
func (e *Exception) addTrace(f *Frame, line int) {
	if e.lastFrame == f {
		return
	}
	e.lastFrame = f
	file, name := "", ""
	if f.code != nil {
		file, name = f.code.File, f.code.Name
	}
	e.traceback = append([]TraceEntry{{File: file, Name: name, Line: line, frame: f}}, e.traceback...)
}

// setTraceback is e.__traceback__ = v.
func (e *Exception) setTraceback(v Object) error {
	switch tb := v.(type) {
	case NoneType:
		e.traceback, e.tb, e.lastFrame = nil, nil, nil
	case *Traceback:
		e.traceback = tb.entries[tb.i:]
		e.tb, e.lastFrame = nil, nil
		if len(e.traceback) > 0 {
			e.lastFrame = e.traceback[0].frame
		}
	default:
		return Errorf(TypeErrorType, "__traceback__ must be a traceback or None")
	}
	return nil
}

// NewException makes an exception of class cls with args.
func NewException(cls *Type, args ...Object) *Exception {
	return &Exception{cls: cls, args: NewTuple(args)}
}

// Errorf makes an exception of class cls with a formatted message.
func Errorf(cls *Type, format string, args ...any) *Exception {
	return &Exception{cls: cls, args: NewTuple([]Object{NewStr(fmt.Sprintf(format, args...))})}
}

// NotSupported raises NotImplementedError for a construct code mode does
// not support, naming it and what to write instead.
func NotSupported(what, instead string) *Exception {
	msg := what + " is not supported in code mode"
	if instead != "" {
		msg += "; " + instead
	}
	return Errorf(NotImplementedErrorType, "%s", msg)
}

// IsInstance reports whether err is a Python exception of class cls.
func IsInstance(err error, cls *Type) bool {
	e, ok := err.(*Exception)
	return ok && e.cls.IsSubtype(cls)
}

// AsException returns err as a Python exception, if it is one.
func AsException(err error) (*Exception, bool) {
	e, ok := err.(*Exception)
	return e, ok
}

// specialStr is str() of the exception classes whose str is not their
// args': OSError's "[Errno N] msg" and the Unicode errors.
func (e *Exception) specialStr() (string, bool) {
	args := e.Args()
	switch {
	case e.group != nil:
		return e.groupStr(), true
	case e.cls.IsSubtype(SyntaxErrorType):
		return e.syntaxStr(), true
	case e.cls.IsSubtype(OSErrorType) && len(args) >= 2 && len(args) <= 5:
		s := "[Errno " + strNoThread(args[0]) + "] " + strNoThread(args[1])
		if len(args) >= 3 && args[2] != None {
			s += ": " + reprNoThread(args[2])
		}
		return s, true
	case e.cls.IsSubtype(UnicodeEncodeErrorType) || e.cls.IsSubtype(UnicodeDecodeErrorType):
		if e.dict == nil {
			return "", false
		}
		enc, _ := e.dict.GetStr("encoding")
		obj, _ := e.dict.GetStr("object")
		st, _ := e.dict.GetStr("start")
		en, _ := e.dict.GetStr("end")
		reason, _ := e.dict.GetStr("reason")
		if enc == nil || obj == nil || st == nil || en == nil || reason == nil {
			return "", false
		}
		start, _ := AsInt64(st)
		end, _ := AsInt64(en)
		if e.cls.IsSubtype(UnicodeEncodeErrorType) {
			s, _ := obj.(*Str)
			if s == nil || start < 0 || int(start) >= s.Len() {
				return "", false
			}
			if end == start+1 {
				var r rune
				for _, c := range s.At(int(start)).s {
					r = c
				}
				var ch string
				switch {
				case r < 0x100:
					ch = fmt.Sprintf(`\x%02x`, r)
				case r < 0x10000:
					ch = fmt.Sprintf(`\u%04x`, r)
				default:
					ch = fmt.Sprintf(`\U%08x`, r)
				}
				return fmt.Sprintf("'%s' codec can't encode character '%s' in position %d: %s", StrValue(enc), ch, start, strNoThread(reason)), true
			}
			return fmt.Sprintf("'%s' codec can't encode characters in position %d-%d: %s", StrValue(enc), start, end-1, strNoThread(reason)), true
		}
		b, _ := obj.(*Bytes)
		if b == nil || start < 0 || int(start) >= len(b.b) {
			return "", false
		}
		if end == start+1 {
			return fmt.Sprintf("'%s' codec can't decode byte 0x%02x in position %d: %s", StrValue(enc), b.b[start], start, strNoThread(reason)), true
		}
		return fmt.Sprintf("'%s' codec can't decode bytes in position %d-%d: %s", StrValue(enc), start, end-1, strNoThread(reason)), true
	}
	return "", false
}

// syntaxAttr is a SyntaxError attribute: set, else from the args (i 0 is
// msg, then the details' items).
func (e *Exception) syntaxAttr(name string, i int) Object {
	if e.dict != nil {
		if v, ok := e.dict.GetStr(name); ok {
			return v
		}
	}
	args := e.Args()
	if i == 0 {
		if len(args) > 0 {
			return args[0]
		}
		return None
	}
	if len(args) == 2 {
		if tu, ok := args[1].(*Tuple); ok && len(tu.items) >= 4 && i-1 < len(tu.items) {
			return tu.items[i-1]
		}
	}
	return None
}

// syntaxStr is str() of a SyntaxError: "msg (file, line N)".
func (e *Exception) syntaxStr() string {
	msg := strNoThread(e.syntaxAttr("msg", 0))
	file, _ := e.syntaxAttr("filename", 1).(*Str)
	line, hasLine := e.syntaxAttr("lineno", 2).(Int)
	if file != nil {
		base := file.s
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			base = base[i+1:]
		}
		if hasLine {
			return fmt.Sprintf("%s (%s, line %d)", msg, base, line)
		}
		return fmt.Sprintf("%s (%s)", msg, base)
	}
	if hasLine {
		return fmt.Sprintf("%s (line %d)", msg, line)
	}
	return msg
}

// errnoClasses maps errno values to the OSError subclasses OSError(errno,
// ...) makes.
var errnoClasses = map[int64]func() *Type{
	1: func() *Type { return PermissionErrorType }, 2: func() *Type { return FileNotFoundErrorType },
	13: func() *Type { return PermissionErrorType }, 17: func() *Type { return FileExistsErrorType },
	20: func() *Type { return NotADirectoryErrorType }, 21: func() *Type { return IsADirectoryErrorType },
	110: func() *Type { return TimeoutErrorType },
}

// exceptionNew is BaseException.__new__.
func exceptionNew(t *Thread, cls *Type, args []Object, _ []Kwarg) (Object, error) {
	if cls.IsSubtype(BaseExceptionGroupType) {
		c, g, err := newExceptionGroup(t, cls, args)
		if err != nil {
			return nil, err
		}
		return &Exception{cls: c, args: NewTuple(append([]Object(nil), args...)), group: g}, nil
	}
	if cls == OSErrorType && len(args) >= 2 {
		if n, ok := AsInt64(args[0]); ok {
			if f, ok := errnoClasses[n]; ok {
				cls = f()
			}
		}
	}
	e := &Exception{cls: cls, args: NewTuple(append([]Object(nil), args...))}
	if cls.IsSubtype(StopIterationType) && len(args) > 0 {
		e.value = args[0]
	}
	return e, nil
}

// Exception classes.
var (
	BaseExceptionType, ExceptionType, ArithmeticErrorType, AssertionErrorType,
	AttributeErrorType, BufferErrorType, EOFErrorType, FloatingPointErrorType,
	GeneratorExitType, ImportErrorType, ModuleNotFoundErrorType, IndexErrorType,
	KeyErrorType, KeyboardInterruptType, LookupErrorType, MemoryErrorType,
	NameErrorType, NotImplementedErrorType, OSErrorType, OverflowErrorType,
	RecursionErrorType, ReferenceErrorType, RuntimeErrorType, StopIterationType,
	StopAsyncIterationType, SyntaxErrorType, IndentationErrorType, TabErrorType,
	SystemErrorType, SystemExitType, TypeErrorType, UnboundLocalErrorType,
	UnicodeErrorType, UnicodeEncodeErrorType, UnicodeDecodeErrorType,
	UnicodeTranslateErrorType, ValueErrorType, ZeroDivisionErrorType,
	FileNotFoundErrorType, PermissionErrorType, TimeoutErrorType,
	ConnectionErrorType, FileExistsErrorType, IsADirectoryErrorType,
	NotADirectoryErrorType, WarningType, UserWarningType, DeprecationWarningType,
	RuntimeWarningType, ExceptionGroupType, BaseExceptionGroupType,
	PendingDeprecationWarningType, SyntaxWarningType, FutureWarningType,
	ImportWarningType, UnicodeWarningType, BytesWarningType, ResourceWarningType,
	EncodingWarningType, BlockingIOErrorType, ChildProcessErrorType,
	BrokenPipeErrorType, ConnectionAbortedErrorType, ConnectionRefusedErrorType,
	ConnectionResetErrorType, InterruptedErrorType, ProcessLookupErrorType *Type
)

func initExceptions() {
	exc := func(name string, base *Type) *Type {
		var c *Type
		if base == nil {
			c = newType(name, ObjectType, exceptionNew)
		} else {
			c = newType(name, base, nil)
		}
		return c
	}
	BaseExceptionType = exc("BaseException", nil)
	initAfterNew[BaseExceptionType] = true
	BaseExceptionGroupType = exc("BaseExceptionGroup", BaseExceptionType)
	GeneratorExitType = exc("GeneratorExit", BaseExceptionType)
	KeyboardInterruptType = exc("KeyboardInterrupt", BaseExceptionType)
	SystemExitType = exc("SystemExit", BaseExceptionType)
	ExceptionType = exc("Exception", BaseExceptionType)
	ArithmeticErrorType = exc("ArithmeticError", ExceptionType)
	FloatingPointErrorType = exc("FloatingPointError", ArithmeticErrorType)
	OverflowErrorType = exc("OverflowError", ArithmeticErrorType)
	ZeroDivisionErrorType = exc("ZeroDivisionError", ArithmeticErrorType)
	AssertionErrorType = exc("AssertionError", ExceptionType)
	AttributeErrorType = exc("AttributeError", ExceptionType)
	BufferErrorType = exc("BufferError", ExceptionType)
	EOFErrorType = exc("EOFError", ExceptionType)
	ExceptionGroupType = exc("ExceptionGroup", ExceptionType)
	ImportErrorType = exc("ImportError", ExceptionType)
	ModuleNotFoundErrorType = exc("ModuleNotFoundError", ImportErrorType)
	LookupErrorType = exc("LookupError", ExceptionType)
	IndexErrorType = exc("IndexError", LookupErrorType)
	KeyErrorType = exc("KeyError", LookupErrorType)
	MemoryErrorType = exc("MemoryError", ExceptionType)
	NameErrorType = exc("NameError", ExceptionType)
	UnboundLocalErrorType = exc("UnboundLocalError", NameErrorType)
	OSErrorType = exc("OSError", ExceptionType)
	ConnectionErrorType = exc("ConnectionError", OSErrorType)
	FileExistsErrorType = exc("FileExistsError", OSErrorType)
	FileNotFoundErrorType = exc("FileNotFoundError", OSErrorType)
	IsADirectoryErrorType = exc("IsADirectoryError", OSErrorType)
	NotADirectoryErrorType = exc("NotADirectoryError", OSErrorType)
	PermissionErrorType = exc("PermissionError", OSErrorType)
	TimeoutErrorType = exc("TimeoutError", OSErrorType)
	ReferenceErrorType = exc("ReferenceError", ExceptionType)
	RuntimeErrorType = exc("RuntimeError", ExceptionType)
	NotImplementedErrorType = exc("NotImplementedError", RuntimeErrorType)
	RecursionErrorType = exc("RecursionError", RuntimeErrorType)
	StopAsyncIterationType = exc("StopAsyncIteration", ExceptionType)
	StopIterationType = exc("StopIteration", ExceptionType)
	SyntaxErrorType = exc("SyntaxError", ExceptionType)
	IndentationErrorType = exc("IndentationError", SyntaxErrorType)
	TabErrorType = exc("TabError", IndentationErrorType)
	SystemErrorType = exc("SystemError", ExceptionType)
	TypeErrorType = exc("TypeError", ExceptionType)
	ValueErrorType = exc("ValueError", ExceptionType)
	UnicodeErrorType = exc("UnicodeError", ValueErrorType)
	UnicodeDecodeErrorType = exc("UnicodeDecodeError", UnicodeErrorType)
	UnicodeEncodeErrorType = exc("UnicodeEncodeError", UnicodeErrorType)
	UnicodeTranslateErrorType = exc("UnicodeTranslateError", UnicodeErrorType)
	WarningType = exc("Warning", ExceptionType)
	UserWarningType = exc("UserWarning", WarningType)
	DeprecationWarningType = exc("DeprecationWarning", WarningType)
	RuntimeWarningType = exc("RuntimeWarning", WarningType)
	PendingDeprecationWarningType = exc("PendingDeprecationWarning", WarningType)
	SyntaxWarningType = exc("SyntaxWarning", WarningType)
	FutureWarningType = exc("FutureWarning", WarningType)
	ImportWarningType = exc("ImportWarning", WarningType)
	UnicodeWarningType = exc("UnicodeWarning", WarningType)
	BytesWarningType = exc("BytesWarning", WarningType)
	ResourceWarningType = exc("ResourceWarning", WarningType)
	EncodingWarningType = exc("EncodingWarning", WarningType)
	BlockingIOErrorType = exc("BlockingIOError", OSErrorType)
	ChildProcessErrorType = exc("ChildProcessError", OSErrorType)
	BrokenPipeErrorType = exc("BrokenPipeError", ConnectionErrorType)
	ConnectionAbortedErrorType = exc("ConnectionAbortedError", ConnectionErrorType)
	ConnectionRefusedErrorType = exc("ConnectionRefusedError", ConnectionErrorType)
	ConnectionResetErrorType = exc("ConnectionResetError", ConnectionErrorType)
	InterruptedErrorType = exc("InterruptedError", OSErrorType)
	ProcessLookupErrorType = exc("ProcessLookupError", OSErrorType)

	b := BaseExceptionType
	b.dict.SetStr("__init__", NewMethod(b, "__init__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		e, ok := args[0].(*Exception)
		if !ok {
			return None, nil
		}
		e.args = NewTuple(append([]Object(nil), args[1:]...))
		if e.cls.IsSubtype(StopIterationType) {
			e.value = None
			if len(args) > 1 {
				e.value = args[1]
			}
		}
		return None, nil
	}))
	b.dict.SetStr("args", NewGetSet("args", func(_ *Thread, o Object) (Object, error) {
		return o.(*Exception).args, nil
	}, func(t *Thread, o, v Object) error {
		items, err := ToSlice(t, v)
		if err != nil {
			return err
		}
		o.(*Exception).args = NewTuple(items)
		return nil
	}))
	b.dict.SetStr("__cause__", NewGetSet("__cause__", func(_ *Thread, o Object) (Object, error) {
		if c := o.(*Exception).cause; c != nil {
			return c, nil
		}
		return None, nil
	}, func(_ *Thread, o, v Object) error {
		e := o.(*Exception)
		if v == None {
			e.cause = nil
		} else if c, ok := v.(*Exception); ok {
			e.cause = c
		} else {
			return Errorf(TypeErrorType, "exception cause must be None or derive from BaseException")
		}
		e.suppressContext = true
		return nil
	}))
	b.dict.SetStr("__context__", NewGetSet("__context__", func(_ *Thread, o Object) (Object, error) {
		if c := o.(*Exception).context; c != nil {
			return c, nil
		}
		return None, nil
	}, func(_ *Thread, o, v Object) error {
		e := o.(*Exception)
		if c, ok := v.(*Exception); ok {
			e.context = c
		} else {
			e.context = nil
		}
		return nil
	}))
	b.dict.SetStr("__suppress_context__", NewGetSet("__suppress_context__", func(_ *Thread, o Object) (Object, error) {
		return MakeBool(o.(*Exception).suppressContext), nil
	}, func(_ *Thread, o, v Object) error {
		o.(*Exception).suppressContext = Truth(nil, v)
		return nil
	}))
	b.dict.SetStr("__traceback__", NewGetSet("__traceback__", func(_ *Thread, o Object) (Object, error) {
		return o.(*Exception).tracebackOf(), nil
	}, func(_ *Thread, o, v Object) error {
		return o.(*Exception).setTraceback(v)
	}))
	b.dict.SetStr("with_traceback", NewMethod(b, "with_traceback", func(_ *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "BaseException.with_traceback() takes exactly one argument (%d given)", len(args)-1)
		}
		if err := args[0].(*Exception).setTraceback(args[1]); err != nil {
			return nil, err
		}
		return args[0], nil
	}))
	b.dict.SetStr("add_note", NewMethod(b, "add_note", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "add_note() takes exactly one argument (%d given)", len(args)-1)
		}
		e := args[0].(*Exception)
		s, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "note must be a str, not '%s'", typeName(args[1]))
		}
		notes, _ := e.dictOf().GetStr("__notes__")
		l, ok := notes.(*List)
		if !ok {
			l = NewList(nil)
			e.dictOf().SetStr("__notes__", l)
		}
		l.items = append(l.items, s)
		return None, nil
	}))
	StopIterationType.dict.SetStr("value", NewGetSet("value", func(_ *Thread, o Object) (Object, error) {
		if v := o.(*Exception).value; v != nil {
			return v, nil
		}
		return None, nil
	}, func(_ *Thread, o, v Object) error { o.(*Exception).value = v; return nil }))
	SystemExitType.dict.SetStr("code", NewGetSet("code", func(_ *Thread, o Object) (Object, error) {
		e := o.(*Exception)
		switch len(e.args.items) {
		case 0:
			return None, nil
		case 1:
			return e.args.items[0], nil
		}
		return e.args, nil
	}, nil))
	argAttr := func(c *Type, name string, i int) {
		c.dict.SetStr(name, NewGetSet(name, func(_ *Thread, o Object) (Object, error) {
			e := o.(*Exception)
			if v, ok := e.dictOf().GetStr(name); ok {
				return v, nil
			}
			if e.args != nil && i < len(e.args.items) && len(e.args.items) > 1 {
				return e.args.items[i], nil
			}
			return None, nil
		}, func(_ *Thread, o, v Object) error { o.(*Exception).dictOf().SetStr(name, v); return nil }))
	}
	initExceptionGroups()
	argAttr(OSErrorType, "errno", 0)
	argAttr(OSErrorType, "strerror", 1)
	argAttr(OSErrorType, "filename", 2)
	for _, n := range []string{"name", "obj"} {
		argAttr(AttributeErrorType, n, 99)
		argAttr(NameErrorType, n, 99)
	}
	argAttr(ImportErrorType, "name", 99)
	argAttr(ImportErrorType, "path", 99)
	// SyntaxError(msg, (filename, lineno, offset, text[, end_lineno,
	// end_offset])): the attributes come from the args, unless set.
	for i, n := range []string{"msg", "filename", "lineno", "offset", "text", "end_lineno", "end_offset"} {
		SyntaxErrorType.dict.SetStr(n, NewGetSet(n, func(_ *Thread, o Object) (Object, error) {
			return o.(*Exception).syntaxAttr(n, i), nil
		}, func(_ *Thread, o, v Object) error { o.(*Exception).dictOf().SetStr(n, v); return nil }))
	}
}

// builtinExceptions lists the exception classes bound in builtins.
func builtinExceptions() []*Type {
	return []*Type{
		BaseExceptionType, ExceptionType, ArithmeticErrorType, AssertionErrorType,
		AttributeErrorType, BufferErrorType, EOFErrorType, FloatingPointErrorType,
		GeneratorExitType, ImportErrorType, ModuleNotFoundErrorType, IndexErrorType,
		KeyErrorType, KeyboardInterruptType, LookupErrorType, MemoryErrorType,
		NameErrorType, NotImplementedErrorType, OSErrorType, OverflowErrorType,
		RecursionErrorType, ReferenceErrorType, RuntimeErrorType, StopIterationType,
		StopAsyncIterationType, SyntaxErrorType, IndentationErrorType, TabErrorType,
		SystemErrorType, SystemExitType, TypeErrorType, UnboundLocalErrorType,
		UnicodeErrorType, UnicodeEncodeErrorType, UnicodeDecodeErrorType,
		UnicodeTranslateErrorType, ValueErrorType, ZeroDivisionErrorType,
		FileNotFoundErrorType, PermissionErrorType, TimeoutErrorType,
		ConnectionErrorType, FileExistsErrorType, IsADirectoryErrorType,
		NotADirectoryErrorType, WarningType, UserWarningType, DeprecationWarningType,
		RuntimeWarningType, ExceptionGroupType, BaseExceptionGroupType,
		PendingDeprecationWarningType, SyntaxWarningType, FutureWarningType,
		ImportWarningType, UnicodeWarningType, BytesWarningType, ResourceWarningType,
		EncodingWarningType, BlockingIOErrorType, ChildProcessErrorType,
		BrokenPipeErrorType, ConnectionAbortedErrorType, ConnectionRefusedErrorType,
		ConnectionResetErrorType, InterruptedErrorType, ProcessLookupErrorType,
	}
}
