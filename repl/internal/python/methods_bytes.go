package python

import (
	"bytes"
	"encoding/hex"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// bytesLike returns the contents of a bytes-like object.
func bytesLike(x Object) (string, bool) {
	switch v := x.(type) {
	case *Bytes:
		return v.b, true
	case *ByteArray:
		return string(v.b), true
	case *Instance:
		return bytesLike(v.base)
	}
	return "", false
}

func decodeBytes(b, enc, errs string) (string, error) {
	s, err := pystr.Decode(b, enc, errs, 1<<62)
	if err != nil {
		return "", unicodeError(err)
	}
	return s, nil
}

func bytesNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	b, err := bytesFrom(t, "bytes", args, kwargs)
	if err != nil {
		return nil, err
	}
	return NewBytes(string(b)), nil
}

func bytearrayNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	b, err := bytesFrom(t, "bytearray", args, kwargs)
	if err != nil {
		return nil, err
	}
	return &ByteArray{b: b}, nil
}

func bytesFrom(t *Thread, fn string, args []Object, kwargs []Kwarg) ([]byte, error) {
	a, err := UnpackArgs(fn, args, kwargs, 0, "source", "encoding", "errors")
	if err != nil {
		return nil, err
	}
	if a[0] == nil {
		return nil, nil
	}
	if s, ok := a[0].(*Str); ok {
		if a[1] == nil {
			return nil, Errorf(TypeErrorType, "string argument without an encoding")
		}
		errs := "strict"
		if a[2] != nil {
			errs = StrValue(a[2])
		}
		b, err := pystr.Encode(s.s, StrValue(a[1]), errs, limitOf(t))
		if err != nil {
			return nil, unicodeError(err)
		}
		return []byte(b), nil
	}
	if a[1] != nil {
		return nil, Errorf(TypeErrorType, "encoding without a string argument")
	}
	if b, ok := bytesLike(a[0]); ok {
		return []byte(b), nil
	}
	if n, ok, err := indexValue(t, a[0]); ok {
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, Errorf(ValueErrorType, "negative count")
		}
		if err := t.grow(n); err != nil {
			return nil, err
		}
		return make([]byte, n), nil
	}
	var out []byte
	err = Iterate(t, a[0], func(x Object) error {
		n, ok, err := indexValue(t, x)
		if err != nil {
			return err
		}
		if !ok {
			return Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
		}
		if n < 0 || n > 255 {
			return Errorf(ValueErrorType, "bytes must be in range(0, 256)")
		}
		out = append(out, byte(n))
		return nil
	})
	if err != nil && !isIterable(a[0]) {
		return nil, Errorf(TypeErrorType, "cannot convert '%s' object to %s", typeName(a[0]), fn)
	}
	return out, err
}

func selfBytes(args []Object, name string) (string, error) {
	if len(args) > 0 {
		if b, ok := bytesLike(args[0]); ok {
			return b, nil
		}
	}
	return "", Errorf(TypeErrorType, "descriptor '%s' requires a 'bytes' object", name)
}

func initBytesMethods() {
	for _, c := range []*Type{BytesType, ByteArrayType} {
		ba := c == ByteArrayType
		mk := func(b string) Object {
			if ba {
				return &ByteArray{b: []byte(b)}
			}
			return NewBytes(b)
		}
		addDunders(c, "__len__", "__getitem__", "__contains__", "__iter__", "__repr__", "__eq__", "__ne__",
			"__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__")
		method(c, "decode", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			b, err := selfBytes(args, "decode")
			if err != nil {
				return nil, err
			}
			a, err := UnpackArgs("decode", args[1:], kwargs, 0, "encoding", "errors")
			if err != nil {
				return nil, err
			}
			enc, errs := "utf-8", "strict"
			if a[0] != nil {
				enc = StrValue(a[0])
			}
			if a[1] != nil {
				errs = StrValue(a[1])
			}
			s, err := decodeBytes(b, enc, errs)
			if err != nil {
				return nil, err
			}
			return NewStr(s), nil
		})
		method(c, "hex", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			b, err := selfBytes(args, "hex")
			if err != nil {
				return nil, err
			}
			if len(args) > 1 || len(kwargs) > 0 {
				a, err := UnpackArgs("hex", args[1:], kwargs, 0, "sep", "bytes_per_sep")
				if err != nil {
					return nil, err
				}
				sep := StrValue(a[0])
				h := hex.EncodeToString([]byte(b))
				var parts []string
				for i := 0; i < len(h); i += 2 {
					parts = append(parts, h[i:i+2])
				}
				return NewStr(strings.Join(parts, sep)), nil
			}
			return NewStr(hex.EncodeToString([]byte(b))), nil
		})
		classMethod(c, "fromhex", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if len(args) != 2 {
				return nil, Errorf(TypeErrorType, "fromhex() takes exactly one argument")
			}
			s := strings.Join(strings.Fields(StrValue(args[1])), "")
			b, err := hex.DecodeString(s)
			if err != nil {
				return nil, Errorf(ValueErrorType, "non-hexadecimal number found in fromhex() arg")
			}
			return mk(string(b)), nil
		})
		method(c, "join", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			sep, err := selfBytes(args, "join")
			if err != nil {
				return nil, err
			}
			var parts []string
			i := 0
			err = Iterate(t, args[1], func(x Object) error {
				b, ok := bytesLike(x)
				if !ok {
					return Errorf(TypeErrorType, "sequence item %d: expected a bytes-like object, %s found", i, typeName(x))
				}
				i++
				parts = append(parts, b)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return mk(strings.Join(parts, sep)), nil
		})
		bfn := func(name string, f func(b string, args []string) (Object, error)) {
			method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
				b, err := selfBytes(args, name)
				if err != nil {
					return nil, err
				}
				var sa []string
				for _, x := range args[1:] {
					if x == None {
						sa = append(sa, "\x00none")
						continue
					}
					if n, ok := AsInt64(x); ok {
						sa = append(sa, "\x00int"+string(rune(n)))
						continue
					}
					s, ok := bytesLike(x)
					if !ok {
						return nil, Errorf(TypeErrorType, "a bytes-like object is required, not '%s'", typeName(x))
					}
					sa = append(sa, s)
				}
				for _, kw := range kwargs {
					if kw.Name == "maxsplit" || kw.Name == "sep" {
						continue
					}
					return nil, Errorf(TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
				}
				return f(b, sa)
			})
		}
		bfn("startswith", func(b string, a []string) (Object, error) {
			return MakeBool(len(a) > 0 && strings.HasPrefix(b, a[0])), nil
		})
		bfn("endswith", func(b string, a []string) (Object, error) {
			return MakeBool(len(a) > 0 && strings.HasSuffix(b, a[0])), nil
		})
		bfn("find", func(b string, a []string) (Object, error) { return MakeInt(int64(strings.Index(b, a[0]))), nil })
		bfn("rfind", func(b string, a []string) (Object, error) { return MakeInt(int64(strings.LastIndex(b, a[0]))), nil })
		bfn("index", func(b string, a []string) (Object, error) {
			i := strings.Index(b, a[0])
			if i < 0 {
				return nil, Errorf(ValueErrorType, "subsection not found")
			}
			return MakeInt(int64(i)), nil
		})
		bfn("count", func(b string, a []string) (Object, error) { return MakeInt(int64(strings.Count(b, a[0]))), nil })
		bfn("replace", func(b string, a []string) (Object, error) {
			if len(a) < 2 {
				return nil, Errorf(TypeErrorType, "replace expected at least 2 arguments")
			}
			return mk(strings.ReplaceAll(b, a[0], a[1])), nil
		})
		bfn("strip", func(b string, a []string) (Object, error) {
			if len(a) == 0 || a[0] == "\x00none" {
				return mk(strings.Trim(b, " \t\n\r\x0b\x0c")), nil
			}
			return mk(strings.Trim(b, a[0])), nil
		})
		bfn("lstrip", func(b string, a []string) (Object, error) {
			if len(a) == 0 || a[0] == "\x00none" {
				return mk(strings.TrimLeft(b, " \t\n\r\x0b\x0c")), nil
			}
			return mk(strings.TrimLeft(b, a[0])), nil
		})
		bfn("rstrip", func(b string, a []string) (Object, error) {
			if len(a) == 0 || a[0] == "\x00none" {
				return mk(strings.TrimRight(b, " \t\n\r\x0b\x0c")), nil
			}
			return mk(strings.TrimRight(b, a[0])), nil
		})
		bfn("split", func(b string, a []string) (Object, error) {
			var parts []string
			if len(a) == 0 || a[0] == "\x00none" {
				parts = strings.FieldsFunc(b, func(r rune) bool { return r == ' ' || (r >= '\t' && r <= '\r') })
			} else {
				parts = strings.Split(b, a[0])
			}
			out := make([]Object, len(parts))
			for i, p := range parts {
				out[i] = mk(p)
			}
			return NewList(out), nil
		})
		bfn("splitlines", func(b string, a []string) (Object, error) {
			parts := pystr.SplitLines(b, false)
			out := make([]Object, len(parts))
			for i, p := range parts {
				out[i] = mk(p)
			}
			return NewList(out), nil
		})
		bfn("upper", func(b string, a []string) (Object, error) { return mk(string(bytes.ToUpper([]byte(b)))), nil })
		bfn("lower", func(b string, a []string) (Object, error) { return mk(string(bytes.ToLower([]byte(b)))), nil })
		bfn("isdigit", func(b string, a []string) (Object, error) {
			return MakeBool(b != "" && strings.Trim(b, "0123456789") == ""), nil
		})
		bfn("isalpha", func(b string, a []string) (Object, error) {
			return MakeBool(b != "" && strings.Trim(b, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""), nil
		})
		bfn("isspace", func(b string, a []string) (Object, error) {
			return MakeBool(b != "" && strings.Trim(b, " \t\n\r\x0b\x0c") == ""), nil
		})
		bfn("isascii", func(b string, a []string) (Object, error) { return MakeBool(isASCII(b)), nil })
	}
	c := ByteArrayType
	method(c, "append", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		ba, ok := args[0].(*ByteArray)
		if !ok || len(args) != 2 {
			return nil, Errorf(TypeErrorType, "bytearray.append() takes exactly one argument")
		}
		n, ok := AsInt64(args[1])
		if !ok || n < 0 || n > 255 {
			return nil, Errorf(ValueErrorType, "byte must be in range(0, 256)")
		}
		ba.b = append(ba.b, byte(n))
		return None, nil
	})
	method(c, "extend", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		ba, ok := args[0].(*ByteArray)
		if !ok || len(args) != 2 {
			return nil, Errorf(TypeErrorType, "bytearray.extend() takes exactly one argument")
		}
		b, err := bytesFrom(t, "bytearray", args[1:], nil)
		if err != nil {
			return nil, err
		}
		ba.b = append(ba.b, b...)
		return None, nil
	})
}
