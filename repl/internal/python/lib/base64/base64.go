// Package base64 is code mode's base64 module: the Base64 (standard,
// URL-safe, MIME lines), Base32 (and its extended-hex alphabet) and Base16
// encodings with CPython's rules for what decoding accepts and its
// binascii.Error messages. Ascii85 and Base85 are refused.
package base64

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes base64 importable.
func Register() {
	python.Setup()
	python.RegisterModule("base64", load)
}

var (
	errOnce  sync.Once
	errorCls *python.Type // binascii.Error
)

func load(in *python.Interp) (*python.Module, error) {
	errOnce.Do(func() {
		errorCls = python.NewBuiltinType("Error", "binascii", python.ValueErrorType, nil)
	})
	m := python.NewModule("base64")
	m.Func("b64encode", b64encode)
	m.Func("b64decode", b64decode)
	m.Func("standard_b64encode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("standard_b64encode", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		b, err := encodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return python.NewBytes(base64.StdEncoding.EncodeToString(b)), nil
	})
	m.Func("standard_b64decode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("standard_b64decode", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		s, err := decodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return a2bBase64(s, false)
	})
	m.Func("urlsafe_b64encode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("urlsafe_b64encode", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		b, err := encodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return python.NewBytes(base64.URLEncoding.EncodeToString(b)), nil
	})
	m.Func("urlsafe_b64decode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("urlsafe_b64decode", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		s, err := decodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return a2bBase64(translate(s, "-_", "+/"), false)
	})
	m.Func("encodebytes", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("encodebytes", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		b, err := encodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		if err := t.CheckSize(int64(len(b))*2 + 16); err != nil {
			return nil, err
		}
		var out strings.Builder
		for i := 0; i < len(b); i += 57 {
			out.WriteString(base64.StdEncoding.EncodeToString(b[i:min(i+57, len(b))]))
			out.WriteByte('\n')
		}
		return python.NewBytes(out.String()), nil
	})
	m.Func("decodebytes", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("decodebytes", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		b, err := encodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return a2bBase64(string(b), false)
	})
	m.Func("b32encode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return b32encode(t, "b32encode", base32.StdEncoding, args, kwargs)
	})
	m.Func("b32hexencode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return b32encode(t, "b32hexencode", base32.HexEncoding, args, kwargs)
	})
	m.Func("b32decode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return b32decode(t, "b32decode", b32Alphabet, true, args, kwargs)
	})
	m.Func("b32hexdecode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return b32decode(t, "b32hexdecode", b32HexAlphabet, false, args, kwargs)
	})
	m.Func("b16encode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("b16encode", []string{"s"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		b, err := encodeArg(t, v[0])
		if err != nil {
			return nil, err
		}
		return python.NewBytes(strings.ToUpper(hex.EncodeToString(b))), nil
	})
	m.Func("b16decode", b16decode)
	for _, n := range []string{"a85encode", "a85decode", "b85encode", "b85decode", "z85encode", "z85decode"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("base64."+n, "use b64encode/b64decode")
		})
	}
	for _, n := range []string{"encode", "decode"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("base64."+n+" (file objects)", "use encodebytes/decodebytes on bytes")
		})
	}
	m.Set("MAXLINESIZE", python.MakeInt(76))
	m.Set("MAXBINSIZE", python.MakeInt(57))
	m.Set("bytes_types", python.NewTuple([]python.Object{python.BytesType, python.ByteArrayType}))
	var all []python.Object
	for _, n := range []string{"encode", "decode", "encodebytes", "decodebytes", "b64encode", "b64decode", "b32encode", "b32decode", "b32hexencode", "b32hexdecode", "b16encode", "b16decode", "b85encode", "b85decode", "a85encode", "a85decode", "standard_b64encode", "standard_b64decode", "urlsafe_b64encode", "urlsafe_b64decode"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// pyArgs binds the arguments of a function CPython defines in Python.
func pyArgs(name string, params []string, required int, args []python.Object, kwargs []python.Kwarg) ([]python.Object, error) {
	if len(args) > len(params) {
		takes := itoa(len(params))
		if required < len(params) {
			takes = "from " + itoa(required) + " to " + itoa(len(params))
		}
		word := "arguments"
		if len(params) == 1 && required == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", name, takes, word, len(args), was)
	}
	out := make([]python.Object, len(params))
	copy(out, args)
	for _, kw := range kwargs {
		i := -1
		for k, p := range params {
			if p == kw.Name {
				i = k
			}
		}
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if out[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		out[i] = kw.Value
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", name, params[i])
		}
	}
	return out, nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// encodeArg returns a bytes-like argument of an encoder.
func encodeArg(t *python.Thread, x python.Object) ([]byte, error) {
	switch v := python.Unwrap(x).(type) {
	case *python.Bytes:
		return []byte(v.String()), nil
	case *python.ByteArray:
		r, err := python.Call(t, python.BytesType, []python.Object{v}, nil)
		if err != nil {
			return nil, err
		}
		return []byte(r.(*python.Bytes).String()), nil
	}
	if python.TypeName(x) == "memoryview" {
		r, err := python.Call(t, python.BytesType, []python.Object{x}, nil)
		if err == nil {
			if b, ok := r.(*python.Bytes); ok {
				return []byte(b.String()), nil
			}
		}
	}
	return nil, python.Errorf(python.TypeErrorType, "a bytes-like object is required, not '%s'", python.TypeName(x))
}

// decodeArg is base64._bytes_from_decode_data: an ASCII str or a
// bytes-like object.
func decodeArg(t *python.Thread, x python.Object) (string, error) {
	if s, ok := x.(*python.Str); ok {
		if !s.IsASCII() {
			return "", python.Errorf(python.ValueErrorType, "string argument should contain only ASCII characters")
		}
		return s.String(), nil
	}
	b, err := encodeArg(t, x)
	if err != nil {
		return "", python.Errorf(python.TypeErrorType, "argument should be a bytes-like object or ASCII string, not '%s'", python.TypeName(x))
	}
	return string(b), nil
}

func translate(s, from, to string) string {
	return strings.Map(func(r rune) rune {
		if i := strings.IndexRune(from, r); i >= 0 {
			return rune(to[i])
		}
		return r
	}, s)
}

func b64encode(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("b64encode", []string{"s", "altchars"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	b, err := encodeArg(t, v[0])
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(int64(len(b))*4/3 + 4); err != nil {
		return nil, err
	}
	out := base64.StdEncoding.EncodeToString(b)
	if v[1] != nil && v[1] != python.None {
		alt, err := encodeArg(t, v[1])
		if err != nil {
			return nil, err
		}
		if len(alt) != 2 {
			r, _ := python.Repr(t, v[1])
			return nil, python.Errorf(python.AssertionErrorType, "%s", r)
		}
		out = translate(out, "+/", string(alt))
	}
	return python.NewBytes(out), nil
}

func b64decode(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("b64decode", []string{"s", "altchars", "validate"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := decodeArg(t, v[0])
	if err != nil {
		return nil, err
	}
	if v[1] != nil && v[1] != python.None {
		alt, err := decodeArg(t, v[1])
		if err != nil {
			return nil, err
		}
		if len(alt) != 2 {
			r, _ := python.Repr(t, v[1])
			return nil, python.Errorf(python.AssertionErrorType, "%s", r)
		}
		s = translate(s, alt, "+/")
	}
	strict := false
	if v[2] != nil {
		if strict, err = python.TruthE(t, v[2]); err != nil {
			return nil, err
		}
	}
	return a2bBase64(s, strict)
}

func b64val(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// a2bBase64 is binascii.a2b_base64(s, strict_mode): in the default mode
// characters outside the alphabet are skipped and decoding stops at the
// padding that completes a group; the strict mode refuses anything else.
func a2bBase64(s string, strict bool) (python.Object, error) {
	if strict && len(s) > 0 && s[0] == '=' {
		return nil, python.Errorf(errorCls, "Leading padding not allowed")
	}
	out := make([]byte, 0, len(s)*3/4)
	quad, pads, data := 0, 0, 0
	var left uint
	padStarted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			padStarted = true
			pads++
			if quad >= 2 && quad+pads >= 4 {
				if strict && i+1 < len(s) {
					return nil, python.Errorf(errorCls, "Excess data after padding")
				}
				quad = 0
				break
			}
			continue
		}
		v := b64val(c)
		if v < 0 {
			if strict {
				return nil, python.Errorf(errorCls, "Only base64 data is allowed")
			}
			continue
		}
		if strict && padStarted {
			return nil, python.Errorf(errorCls, "Discontinuous padding not allowed")
		}
		pads = 0
		data++
		switch quad {
		case 0:
			left = uint(v)
			quad = 1
		case 1:
			out = append(out, byte(left<<2|uint(v)>>4))
			left = uint(v) & 0xf
			quad = 2
		case 2:
			out = append(out, byte(left<<4|uint(v)>>2))
			left = uint(v) & 0x3
			quad = 3
		case 3:
			out = append(out, byte(left<<6|uint(v)))
			quad = 0
		}
	}
	if quad != 0 {
		if quad == 1 {
			return nil, python.Errorf(errorCls, "Invalid base64-encoded string: number of data characters (%d) cannot be 1 more than a multiple of 4", data)
		}
		return nil, python.Errorf(errorCls, "Incorrect padding")
	}
	return python.NewBytes(string(out)), nil
}

const (
	b32Alphabet    = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b32HexAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
)

func b32encode(t *python.Thread, name string, enc *base32.Encoding, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs(name, []string{"s"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	b, err := encodeArg(t, v[0])
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(int64(len(b))*8/5 + 8); err != nil {
		return nil, err
	}
	return python.NewBytes(enc.EncodeToString(b)), nil
}

// b32decode is b32decode(s, casefold=False, map01=None) and
// b32hexdecode(s, casefold=False).
func b32decode(t *python.Thread, name, alphabet string, hasMap01 bool, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	params := []string{"s", "casefold"}
	if hasMap01 {
		params = append(params, "map01")
	}
	v, err := pyArgs(name, params, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := decodeArg(t, v[0])
	if err != nil {
		return nil, err
	}
	if len(s)%8 != 0 {
		return nil, python.Errorf(errorCls, "Incorrect padding")
	}
	if hasMap01 && v[2] != nil && v[2] != python.None {
		m, err := decodeArg(t, v[2])
		if err != nil {
			return nil, err
		}
		if len(m) != 1 {
			r, _ := python.Repr(t, v[2])
			return nil, python.Errorf(python.AssertionErrorType, "%s", r)
		}
		s = strings.NewReplacer("0", "O", "1", m).Replace(s)
	}
	if v[1] != nil {
		cf, err := python.TruthE(t, v[1])
		if err != nil {
			return nil, err
		}
		if cf {
			s = strings.ToUpper(s)
		}
	}
	// Strip the padding: at most 6 '=', and what is left must be a valid
	// length.
	l := len(s)
	body := strings.TrimRight(s, "=")
	padchars := l - len(body)
	var out []byte
	var acc uint64
	for i := 0; i < len(body); i += 8 {
		chunk := body[i:min(i+8, len(body))]
		acc = 0
		for _, c := range []byte(chunk) {
			k := strings.IndexByte(alphabet, c)
			if k < 0 {
				return nil, python.Errorf(errorCls, "Non-base32 digit found")
			}
			acc = acc<<5 | uint64(k)
		}
		acc <<= uint(5 * (8 - len(chunk)))
		for k := 4; k >= 0; k-- {
			out = append(out, byte(acc>>(8*uint(k))))
		}
	}
	if l > 0 && padchars > 0 {
		keep := map[int]int{0: 5, 1: 4, 3: 3, 4: 2, 6: 1}
		n, ok := keep[padchars]
		if !ok {
			return nil, python.Errorf(errorCls, "Incorrect padding")
		}
		out = out[:len(out)-5+n]
	}
	return python.NewBytes(string(out)), nil
}

func b16decode(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("b16decode", []string{"s", "casefold"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := decodeArg(t, v[0])
	if err != nil {
		return nil, err
	}
	if v[1] != nil {
		cf, err := python.TruthE(t, v[1])
		if err != nil {
			return nil, err
		}
		if cf {
			s = strings.ToUpper(s)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return nil, python.Errorf(errorCls, "Non-base16 digit found")
		}
	}
	if len(s)%2 == 1 {
		return nil, python.Errorf(errorCls, "Odd-length string")
	}
	b, _ := hex.DecodeString(s)
	return python.NewBytes(string(b)), nil
}
