package python

// Frame and traceback objects as Python code sees them: enough for
// e.__traceback__, sys.exc_info()[2], tb.tb_lineno and tb.tb_next,
// tb.tb_frame.f_lineno and f_locals, and a generator's gi_frame. Code
// objects (f_code, tb_lasti) are refused.

// FrameObject is a frame object (a traceback's tb_frame, a generator's
// gi_frame).
type FrameObject struct {
	identity
	f *Frame
}

// Type returns frame.
func (*FrameObject) Type() *Type { return FrameType }

// frameObject returns the Python frame object of f (one per frame).
func frameObject(f *Frame) Object {
	if f == nil {
		return None
	}
	if f.obj == nil {
		f.obj = &FrameObject{f: f}
	}
	return f.obj
}

// PyRepr renders <frame at 0x..., file '<cell 1>', line 3, code f>.
func (fo *FrameObject) PyRepr(*Thread) (string, error) {
	file, name := "", ""
	if fo.f.code != nil {
		file, name = fo.f.code.File, fo.f.code.Name
	}
	return "<frame at " + addr(fo) + ", file " + StrRepr(file) + ", line " + itoa(fo.f.line) + ", code " + name + ">", nil
}

// Traceback is a traceback object: one frame an exception passed through
// and the traceback of the frames it came from.
type Traceback struct {
	identity
	entries []TraceEntry // the exception's entries when it was built, outermost first
	i       int
	next    *Traceback
}

// Type returns traceback.
func (*Traceback) Type() *Type { return TracebackType }

// tracebackOf returns e.__traceback__: None before e was raised.
func (e *Exception) tracebackOf() Object {
	entries := e.traceback
	for len(entries) > 0 && entries[0].frame == nil && entries[0].File == "" && entries[0].Name == "" {
		entries = entries[1:] // a SyntaxError's position
	}
	if len(entries) == 0 {
		return None
	}
	if e.tb != nil && len(e.tb.entries) == len(entries) && &e.tb.entries[0] == &entries[0] {
		return e.tb
	}
	e.tb = &Traceback{entries: entries}
	return e.tb
}

// TracebackObject returns the exception's __traceback__ (None if it has
// none): sys.exc_info()[2].
func (e *Exception) TracebackObject() Object { return e.tracebackOf() }

func (tb *Traceback) nextTB() Object {
	if tb.i+1 >= len(tb.entries) {
		return None
	}
	if tb.next == nil {
		tb.next = &Traceback{entries: tb.entries, i: tb.i + 1}
	}
	return tb.next
}

// PyRepr renders <traceback object at 0x...>.
func (tb *Traceback) PyRepr(*Thread) (string, error) {
	return "<traceback object at " + addr(tb) + ">", nil
}

func initFrameTypes() {
	tb := TracebackType
	getset(tb, "tb_next", func(_ *Thread, x Object) (Object, error) { return x.(*Traceback).nextTB(), nil })
	getset(tb, "tb_lineno", func(_ *Thread, x Object) (Object, error) {
		v := x.(*Traceback)
		return MakeInt(int64(v.entries[v.i].Line)), nil
	})
	getset(tb, "tb_frame", func(_ *Thread, x Object) (Object, error) {
		v := x.(*Traceback)
		if f := v.entries[v.i].frame; f != nil {
			return frameObject(f), nil
		}
		return None, nil
	})
	getset(tb, "tb_lasti", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("traceback.tb_lasti (bytecode offsets)", "use tb_lineno")
	})
	fr := FrameType
	getset(fr, "f_lineno", func(_ *Thread, x Object) (Object, error) { return MakeInt(int64(x.(*FrameObject).f.line)), nil })
	getset(fr, "f_globals", func(_ *Thread, x Object) (Object, error) { return x.(*FrameObject).f.globals, nil })
	getset(fr, "f_locals", func(_ *Thread, x Object) (Object, error) { return frameLocals(x.(*FrameObject).f), nil })
	getset(fr, "f_builtins", func(t *Thread, x Object) (Object, error) { return t.interp.builtins, nil })
	getset(fr, "f_back", func(_ *Thread, x Object) (Object, error) {
		b := x.(*FrameObject).f.back
		for b != nil && b.inlined {
			b = b.back
		}
		return frameObject(b), nil
	})
	getset(fr, "f_trace", func(_ *Thread, x Object) (Object, error) { return None, nil })
	getset(fr, "f_code", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("frame code objects (f_code)", "use f_lineno and f_locals")
	})
	getset(fr, "f_lasti", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("frame.f_lasti (bytecode offsets)", "use f_lineno")
	})
	method(fr, "clear", func(_ *Thread, args []Object, _ []Kwarg) (Object, error) { return None, nil })
}
