package io

import (
	"bytes"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// BytesIO is io.BytesIO: a byte buffer with a position.
type BytesIO struct {
	buf    []byte
	pos    int
	closed bool
	id     uint64
}

// Type returns io.BytesIO.
func (*BytesIO) Type() *python.Type { return BytesIOType }

func (b *BytesIO) isClosed() bool   { return b.closed }
func (b *BytesIO) close()           { b.closed = true; b.buf = nil }
func (b *BytesIO) closedErr() error { return closedError(true) }

// PyRepr renders <_io.BytesIO object at 0x...>.
func (b *BytesIO) PyRepr(t *python.Thread) (string, error) {
	return "<_io.BytesIO object at " + addr(&b.id) + ">", nil
}

// bytesArg returns the content of a bytes-like object.
func bytesArg(t *python.Thread, x obj) ([]byte, bool, error) {
	switch v := python.Unwrap(x).(type) {
	case *python.Bytes:
		return []byte(v.String()), true, nil
	case *python.ByteArray:
		c, err := python.Call(t, python.BytesType, []obj{v}, nil)
		if err != nil {
			return nil, false, err
		}
		return []byte(c.(*python.Bytes).String()), true, nil
	}
	return nil, false, nil
}

func newBytesIO(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	b := &BytesIO{}
	if err := b.init(t, args, kwargs); err != nil {
		return nil, err
	}
	if cls != BytesIOType {
		return python.NewInstance(cls, b), nil
	}
	return b, nil
}

// init is BytesIO.__init__(initial_bytes=b”).
func (b *BytesIO) init(t *python.Thread, args []obj, kwargs []kwarg) error {
	a, err := python.UnpackArgs("BytesIO", args, kwargs, 0, "initial_bytes")
	if err != nil {
		return err
	}
	*b = BytesIO{id: b.id}
	if a[0] != nil && a[0] != python.None {
		data, ok, err := bytesArg(t, a[0])
		if err != nil {
			return err
		}
		if !ok {
			return python.Errorf(python.TypeErrorType, "a bytes-like object is required, not '%s'", python.TypeName(a[0]))
		}
		if err := t.CheckSize(int64(len(data))); err != nil {
			return err
		}
		b.buf = data
	}
	return nil
}

func (b *BytesIO) write(t *python.Thread, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	end := b.pos + len(data)
	if end > len(b.buf) {
		if err := t.CheckSize(int64(end)); err != nil {
			return err
		}
		if end > cap(b.buf) {
			nb := make([]byte, len(b.buf), max(end, 2*cap(b.buf)))
			copy(nb, b.buf)
			b.buf = nb
		}
		old := len(b.buf)
		b.buf = b.buf[:end]
		for i := old; i < b.pos; i++ {
			b.buf[i] = 0
		}
	}
	copy(b.buf[b.pos:], data)
	b.pos = end
	return nil
}

func (b *BytesIO) read(size int64) []byte {
	if b.pos >= len(b.buf) {
		return nil
	}
	end := len(b.buf)
	if size >= 0 && int64(b.pos)+size < int64(end) {
		end = b.pos + int(size)
	}
	out := append([]byte(nil), b.buf[b.pos:end]...)
	b.pos = end
	return out
}

func (b *BytesIO) readline(size int64) []byte {
	if b.pos >= len(b.buf) {
		return nil
	}
	end := len(b.buf)
	if size >= 0 && int64(b.pos)+size < int64(end) {
		end = b.pos + int(size)
	}
	if i := bytes.IndexByte(b.buf[b.pos:end], '\n'); i >= 0 {
		end = b.pos + i + 1
	}
	out := append([]byte(nil), b.buf[b.pos:end]...)
	b.pos = end
	return out
}

// Next is the iterator protocol: the next line, nil at the end.
func (b *BytesIO) Next(t *python.Thread) (obj, error) {
	if b.closed {
		return nil, closedError(true)
	}
	line := b.readline(-1)
	if len(line) == 0 {
		return nil, nil
	}
	return python.NewBytes(string(line)), nil
}

func bytesSelf(args []obj, name string) (*BytesIO, error) {
	b, ok := python.Unwrap(args[0]).(*BytesIO)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for '_io.BytesIO' objects doesn't apply to a '%s' object", name, python.TypeName(args[0]))
	}
	if b.closed {
		return nil, closedError(true)
	}
	return b, nil
}

func bytesIOMethods() {
	c := BytesIOType
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, ok := python.Unwrap(args[0]).(*BytesIO)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor '__init__' requires a '_io.BytesIO' object but received a '%s'", python.TypeName(args[0]))
		}
		return python.None, b.init(t, args[1:], kwargs)
	})
	c.AddMethod("getvalue", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if _, err := python.UnpackArgs("getvalue", args[1:], kwargs, 0); err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "getvalue")
		if err != nil {
			return nil, err
		}
		return python.NewBytes(string(b.buf)), nil
	})
	c.AddMethod("getbuffer", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("BytesIO.getbuffer()", "use getvalue(), which returns a copy as bytes")
	})
	c.AddMethod("write", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("write", args[1:], kwargs, 1, "b", "/")
		if err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "write")
		if err != nil {
			return nil, err
		}
		data, ok, err := bytesArg(t, a[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "a bytes-like object is required, not '%s'", python.TypeName(a[0]))
		}
		return python.MakeInt(int64(len(data))), b.write(t, data)
	})
	for _, name := range []string{"read", "read1"} {
		n := name
		c.AddMethod(n, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs(n, args[1:], kwargs, 0, "size", "/")
			if err != nil {
				return nil, err
			}
			b, err := bytesSelf(args, n)
			if err != nil {
				return nil, err
			}
			size, err := sizeArg(t, a[0])
			if err != nil {
				return nil, err
			}
			return python.NewBytes(string(b.read(size))), nil
		})
	}
	c.AddMethod("readline", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("readline", args[1:], kwargs, 0, "size", "/")
		if err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "readline")
		if err != nil {
			return nil, err
		}
		size, err := sizeArg(t, a[0])
		if err != nil {
			return nil, err
		}
		return python.NewBytes(string(b.readline(size))), nil
	})
	c.AddMethod("readinto", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("readinto", args[1:], kwargs, 1, "buffer", "/")
		if err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "readinto")
		if err != nil {
			return nil, err
		}
		ba, ok := a[0].(*python.ByteArray)
		if !ok {
			if _, isBytes := a[0].(*python.Bytes); isBytes {
				return nil, python.Errorf(python.TypeErrorType, "readinto() argument must be read-write bytes-like object, not bytes")
			}
			return nil, python.Errorf(python.TypeErrorType, "readinto() argument must be read-write bytes-like object, not %s", python.TypeName(a[0]))
		}
		n, err := python.Len(t, ba)
		if err != nil {
			return nil, err
		}
		data := b.read(int64(n))
		for i, c := range data {
			if err := python.SetItem(t, ba, python.MakeInt(int64(i)), python.MakeInt(int64(c))); err != nil {
				return nil, err
			}
		}
		return python.MakeInt(int64(len(data))), nil
	})
	c.AddMethod("tell", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if _, err := python.UnpackArgs("tell", args[1:], kwargs, 0); err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "tell")
		if err != nil {
			return nil, err
		}
		return python.MakeInt(int64(b.pos)), nil
	})
	c.AddMethod("seek", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("seek", args[1:], kwargs, 1, "pos", "whence", "/")
		if err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "seek")
		if err != nil {
			return nil, err
		}
		pos, err := python.ArgInt(t, "seek", a[0])
		if err != nil {
			return nil, err
		}
		whence := int64(0)
		if a[1] != nil {
			if whence, err = python.ArgInt(t, "seek", a[1]); err != nil {
				return nil, err
			}
		}
		switch whence {
		case 0:
			if pos < 0 {
				return nil, python.Errorf(python.ValueErrorType, "negative seek value %d", pos)
			}
		case 1:
			pos += int64(b.pos)
		case 2:
			pos += int64(len(b.buf))
		default:
			return nil, python.Errorf(python.ValueErrorType, "invalid whence (%d, should be 0, 1 or 2)", whence)
		}
		if pos < 0 {
			pos = 0
		}
		if pos > 1<<40 {
			return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
		}
		b.pos = int(pos)
		return python.MakeInt(pos), nil
	})
	c.AddMethod("truncate", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("truncate", args[1:], kwargs, 0, "size", "/")
		if err != nil {
			return nil, err
		}
		b, err := bytesSelf(args, "truncate")
		if err != nil {
			return nil, err
		}
		size := int64(b.pos)
		if a[0] != nil && a[0] != python.None {
			n, ok, err := python.IndexValue(t, a[0])
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(a[0]))
			}
			size = n
		}
		if size < 0 {
			return nil, python.Errorf(python.ValueErrorType, "negative size value %d", size)
		}
		if size < int64(len(b.buf)) {
			b.buf = b.buf[:size]
		}
		return python.MakeInt(size), nil
	})
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, err := bytesSelf(args, "__next__")
		if err != nil {
			return nil, err
		}
		line := b.readline(-1)
		if len(line) == 0 {
			return nil, python.NewException(python.StopIterationType)
		}
		return python.NewBytes(string(line)), nil
	})
}
