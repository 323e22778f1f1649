package python

import (
	"bytes"
	"context"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// HostText is a text the host owns (a context, a file of one, a chunk)
// that code sees as a str. The interpreter never holds the text's bytes
// beyond one View call: every read is one operation the host admits,
// meters and traces, and a slice or a method's result is a copy.
type HostText interface {
	// Size is the text's length in bytes (UTF-8).
	Size() int64
	// View admits one operation of the given kind ("slice", "search",
	// "regex", "text", "iterate", or "index": the interpreter's own scan
	// that counts code points, once per text) and runs f over the text's
	// bytes.
	View(ctx context.Context, op string, f func(b []byte) error) error
	// Name names the text in messages ("context", "context_1").
	Name() string
}

// HostMethods lets a HostText add methods of its own (search, partition,
// ...), which take precedence over nothing: str's methods come first, and
// a host method may not reuse a str method's name.
type HostMethods interface {
	HostMethod(name string, self Object) BuiltinFunc
	HostMethodNames() []string
}

// HostAttrs lets a HostText add attributes of its own (context.pages),
// computed when read; they come before str's methods and the host's.
// HostAttr reports ok false for a name that is not one.
type HostAttrs interface {
	HostAttr(t *Thread, name string, self Object) (v Object, ok bool, err error)
}

// CodePoints converts byte offsets into a context (a str made by
// NewHostStr) to code-point offsets, in place; the offsets must be
// non-decreasing.
func CodePoints(t *Thread, x Object, offs []int64) error {
	s, ok := x.(*hostStr)
	if !ok {
		return Errorf(TypeErrorType, "not a context")
	}
	if err := s.count(t); err != nil {
		return err
	}
	if s.ascii {
		return nil
	}
	return s.h.View(s.ctx(t), "index", func(b []byte) error {
		for i, off := range offs {
			if off < 0 || off > int64(len(b)) {
				continue
			}
			offs[i] = s.cpOff(b, off)
		}
		return nil
	})
}

// hostStr is a HostText as a Python str.
type hostStr struct {
	identity
	h      HostText
	n      int64 // code points; -1 until counted
	ascii  bool
	cps    []int64 // byte offset of code point k*hostStep (non-ASCII texts)
	hashed bool
	hashv  int64
}

const hostStep = 256

// NewHostStr returns h as a str object.
func NewHostStr(h HostText) Object { return &hostStr{h: h, n: -1} }

// HostTextOf returns the HostText behind a context object.
func HostTextOf(x Object) (HostText, bool) {
	if h, ok := x.(*hostStr); ok {
		return h.h, true
	}
	return nil, false
}

// Type returns str.
func (*hostStr) Type() *Type { return StrType }

func (s *hostStr) ctx(t *Thread) context.Context {
	if t == nil || t.ctx == nil {
		return context.Background()
	}
	return t.ctx
}

// count scans the text once: its length in code points and, unless it is
// ASCII, a checkpoint every hostStep code points.
func (s *hostStr) count(t *Thread) error {
	if s.n >= 0 {
		return nil
	}
	return s.h.View(s.ctx(t), "index", func(b []byte) error {
		if isASCIIBytes(b) {
			s.n, s.ascii = int64(len(b)), true
			return nil
		}
		var k int64
		cps := make([]int64, 0, len(b)/hostStep/2+1)
		for off := 0; off < len(b); {
			if k%hostStep == 0 {
				cps = append(cps, int64(off))
			}
			if b[off] < 0x80 {
				off++
			} else {
				_, w := utf8.DecodeRune(b[off:])
				off += w
			}
			k++
			if k&0xfffff == 0 {
				if err := t.Tick(1); err != nil {
					return err
				}
			}
		}
		if k%hostStep == 0 {
			cps = append(cps, int64(len(b)))
		}
		s.n, s.cps = k, cps
		return nil
	})
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func (s *hostStr) length(t *Thread) (int, error) {
	if err := s.count(t); err != nil {
		return 0, err
	}
	return int(s.n), nil
}

// byteOff returns the byte offset of code point i, within b.
func (s *hostStr) byteOff(b []byte, i int64) int64 {
	if s.ascii {
		return i
	}
	if i >= s.n {
		return int64(len(b))
	}
	off := s.cps[i/hostStep]
	for k := i - i%hostStep; k < i; k++ {
		if b[off] < 0x80 {
			off++
		} else {
			_, w := utf8.DecodeRune(b[off:])
			off += int64(w)
		}
	}
	return off
}

// cpOff returns the code point offset of byte offset off (a rune start).
func (s *hostStr) cpOff(b []byte, off int64) int64 {
	if s.ascii {
		return off
	}
	lo, hi := 0, len(s.cps)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if s.cps[m] <= off {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return int64(lo)*hostStep + int64(utf8.RuneCount(b[s.cps[lo]:off]))
}

func (s *hostStr) tooLarge(t *Thread, n int64) error {
	name := s.h.Name()
	return Errorf(MemoryErrorType, "%s is %d bytes; one value may hold at most %d bytes: slice it (%s[a:b]), search it (%s.search(...) or re.finditer(p, %s)), or split it (%s.partition(lines=N))",
		name, n, t.MaxValue(), name, name, name, name)
}

// materialize copies the whole text into a str, within the value bound.
func (s *hostStr) materialize(t *Thread) (*Str, error) {
	size := s.h.Size()
	if t != nil && t.MaxValue() > 0 && size > t.MaxValue() {
		return nil, s.tooLarge(t, size)
	}
	var out *Str
	err := s.h.View(s.ctx(t), "text", func(b []byte) error {
		out = NewStr(string(b))
		return nil
	})
	return out, err
}

// mapText returns f of the whole text as a str, as f of the materialized
// text would, without copying the text into a str first: f reads the
// host's bytes during the view, and its result is copied if it shares
// them. check runs inside the view, where a method checks its arguments
// after materializing its receiver.
func (s *hostStr) mapText(t *Thread, check func() error, f func(string) string) (*Str, error) {
	size := s.h.Size()
	if t != nil && t.MaxValue() > 0 && size > t.MaxValue() {
		return nil, s.tooLarge(t, size)
	}
	var out *Str
	err := s.h.View(s.ctx(t), "text", func(b []byte) error {
		if err := check(); err != nil {
			return err
		}
		in := unsafe.String(unsafe.SliceData(b), len(b))
		r := f(in)
		if p, lo := uintptr(unsafe.Pointer(unsafe.StringData(r))), uintptr(unsafe.Pointer(unsafe.SliceData(b))); len(r) > 0 && p >= lo && p < lo+uintptr(len(b)) {
			r = strings.Clone(r) // f returned (part of) its input
		}
		out = NewStr(r)
		return nil
	})
	return out, err
}

// slice returns code points [i, j) as a str.
func (s *hostStr) slice(t *Thread, i, j int64) (*Str, error) {
	if j <= i {
		return emptyStr, nil
	}
	var out *Str
	err := s.h.View(s.ctx(t), "slice", func(b []byte) error {
		a, e := s.byteOff(b, i), s.byteOff(b, j)
		if t != nil && t.MaxValue() > 0 && e-a > t.MaxValue() {
			return s.tooLarge(t, e-a)
		}
		var ascii int32
		if s.ascii {
			ascii = 1
		}
		out = &Str{s: string(b[a:e]), meta: strMeta(int64(j-i), ascii)}
		return nil
	})
	return out, err
}

func (s *hostStr) getItem(t *Thread, key Object) (Object, error) {
	n, err := s.length(t)
	if err != nil {
		return nil, err
	}
	if sl, ok := key.(*Slice); ok {
		start, _, step, cnt, err := sliceIndices(t, sl, n)
		if err != nil {
			return nil, err
		}
		if step == 1 {
			return s.slice(t, int64(start), int64(start+cnt))
		}
		lo, hi := start, start+(cnt-1)*step
		if lo > hi {
			lo, hi = hi, lo
		}
		if cnt == 0 {
			return emptyStr, nil
		}
		part, err := s.slice(t, int64(lo), int64(hi+1))
		if err != nil {
			return nil, err
		}
		return strStep(part, start-lo, step, cnt), nil
	}
	i, err := normIndex(t, key, n, "string")
	if err != nil {
		return nil, err
	}
	return s.slice(t, int64(i), int64(i+1))
}

func (s *hostStr) contains(t *Thread, x Object) (bool, error) {
	sub, ok, err := strArg(t, x)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, Errorf(TypeErrorType, "'in <string>' requires string as left operand, not %s", typeName(x))
	}
	var found bool
	err = s.h.View(s.ctx(t), "search", func(b []byte) error {
		found = bytes.Contains(b, []byte(sub.s))
		return nil
	})
	return found, err
}

// search runs find, rfind, index, rindex, count, startswith and endswith
// over the text without copying it.
func (s *hostStr) search(t *Thread, name string, args []Object, kwargs []Kwarg) (Object, error) {
	if name == "startswith" || name == "endswith" {
		if err := nargs(name, args, kwargs, 1, 3); err != nil {
			return nil, err
		}
		if len(args) > 1 {
			// With bounds, work on the window.
			m, err := s.materialize(t)
			if err != nil {
				return nil, err
			}
			return CallMethod(t, m, name, args, kwargs)
		}
		var prefixes []string
		switch p := args[0].(type) {
		case *Str:
			prefixes = []string{p.s}
		case *Tuple:
			for _, x := range p.items {
				ps, ok := x.(*Str)
				if !ok {
					return nil, Errorf(TypeErrorType, "tuple for %s must only contain str, not %s", name, typeName(x))
				}
				prefixes = append(prefixes, ps.s)
			}
		default:
			return nil, Errorf(TypeErrorType, "%s first arg must be str or a tuple of str, not %s", name, typeName(args[0]))
		}
		var ok bool
		err := s.h.View(s.ctx(t), "slice", func(b []byte) error {
			for _, p := range prefixes {
				if name == "startswith" && bytes.HasPrefix(b, []byte(p)) || name == "endswith" && bytes.HasSuffix(b, []byte(p)) {
					ok = true
				}
			}
			return nil
		})
		return MakeBool(ok), err
	}
	sub, start, end, err := searchArgs(t, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	n, err := s.length(t)
	if err != nil {
		return nil, err
	}
	st, en := adjustOpt(start, end, n)
	var res int64 = -1
	err = s.h.View(s.ctx(t), "search", func(b []byte) error {
		if en < st || (name != "count" && int(en-st) < pystr.Len(sub.s)) {
			if name == "count" {
				res = 0
			}
			return nil
		}
		a, e := s.byteOff(b, st), s.byteOff(b, en)
		w := b[a:e]
		switch name {
		case "count":
			if sub.s == "" {
				res = en - st + 1
			} else {
				res = int64(bytes.Count(w, []byte(sub.s)))
			}
		case "find", "index":
			if i := bytes.Index(w, []byte(sub.s)); i >= 0 {
				res = s.cpOff(b, a+int64(i))
			}
		default:
			if i := bytes.LastIndex(w, []byte(sub.s)); i >= 0 {
				res = s.cpOff(b, a+int64(i))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if res < 0 && (name == "index" || name == "rindex") {
		return nil, Errorf(ValueErrorType, "substring not found")
	}
	return MakeInt(res), nil
}

func adjustOpt(start, end pystr.Opt, n int) (int64, int64) {
	st, en := int64(0), int64(n)
	if v, ok := start.Value(); ok {
		st = int64(v)
		if st < 0 {
			st = max(st+int64(n), 0)
		}
	}
	if v, ok := end.Value(); ok {
		en = int64(v)
		if en > int64(n) {
			en = int64(n)
		} else if en < 0 {
			en = max(en+int64(n), 0)
		}
	}
	return st, en
}

// iter iterates the text's code points, reading it a chunk at a time.
func (s *hostStr) iter(t *Thread) (Object, error) {
	return &hostIter{s: s}, nil
}

type hostIter struct {
	s     *hostStr
	off   int64
	chunk string
	pos   int
}

func (*hostIter) Type() *Type { return StrIterType }

const hostChunk = 1 << 20

func (it *hostIter) Next(t *Thread) (Object, error) {
	if it.pos >= len(it.chunk) {
		if it.off >= it.s.h.Size() {
			return nil, nil
		}
		err := it.s.h.View(it.s.ctx(t), "iterate", func(b []byte) error {
			end := min(it.off+hostChunk, int64(len(b)))
			for end < int64(len(b)) && !utf8.RuneStart(b[end]) {
				end++
			}
			it.chunk = string(b[it.off:end])
			it.off = end
			return nil
		})
		if err != nil {
			return nil, err
		}
		it.pos = 0
		if it.chunk == "" {
			return nil, nil
		}
	}
	c := it.chunk[it.pos]
	if c < 0x80 {
		it.pos++
		return asciiChars[c], nil
	}
	r, w := utf8.DecodeRuneInString(it.chunk[it.pos:])
	it.pos += w
	if r == utf8.RuneError && w == 1 {
		return NewStr("\uFFFD"), nil
	}
	return &Str{s: string(r), meta: strMeta(1, 2)}, nil
}

func (s *hostStr) compare(t *Thread, op CmpOp, other Object) (Object, error) {
	var o *Str
	switch v := other.(type) {
	case *Str:
		o = v
	case *hostStr:
		if v == s {
			return cmpResult(op, 0), nil
		}
		m, err := v.materialize(t)
		if err != nil {
			return nil, err
		}
		o = m
	default:
		return NotImplemented, nil
	}
	if (op == CmpEq || op == CmpNe) && int64(len(o.s)) != s.h.Size() {
		return MakeBool(op == CmpNe), nil
	}
	var c int
	err := s.h.View(s.ctx(t), "search", func(b []byte) error {
		c = bytes.Compare(b, []byte(o.s))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cmpResult(op, c), nil
}

func (s *hostStr) compareStr(t *Thread, op CmpOp, x *Str) (Object, error) { return s.compare(t, op, x) }

func (s *hostStr) hash(t *Thread) (int64, error) {
	if !s.hashed {
		m, err := s.materialize(t)
		if err != nil {
			return 0, err
		}
		s.hashv, s.hashed = m.Hash(), true
	}
	return s.hashv, nil
}

func (s *hostStr) repr(t *Thread) (string, error) {
	m, err := s.materialize(t)
	if err != nil {
		return "", err
	}
	return StrRepr(m.s), nil
}

// TextView gives library code (re) the bytes of a str or a context, and
// the conversions between byte and code-point offsets.
type TextView struct {
	Bytes []byte
	str   *Str
	host  *hostStr
}

// CodePoint returns the code-point offset of a byte offset.
func (v *TextView) CodePoint(off int) int {
	if v.host != nil {
		return int(v.host.cpOff(v.Bytes, int64(off)))
	}
	return v.str.cpOffBytes(off)
}

// ByteOffset returns the byte offset of a code-point offset.
func (v *TextView) ByteOffset(i int) int {
	if v.host != nil {
		return int(v.host.byteOff(v.Bytes, int64(i)))
	}
	return v.str.byteOffset(i)
}

// Len returns the length in code points.
func (v *TextView) Len() int {
	if v.host != nil {
		return int(v.host.n)
	}
	return v.str.Len()
}

// StrTextView returns the TextView of a str, by value: what ViewText
// gives f for a str, without the callback (a str's bytes stay valid).
func StrTextView(s *Str) TextView { return TextView{Bytes: unsafeBytes(s.s), str: s} }

// ViewText runs f over the bytes of a str or a context. ok is false when
// x is neither.
func ViewText(t *Thread, x Object, op string, f func(v *TextView) error) (bool, error) {
	switch s := x.(type) {
	case *Str:
		return true, f(&TextView{Bytes: unsafeBytes(s.s), str: s})
	case *hostStr:
		if err := s.count(t); err != nil {
			return true, err
		}
		return true, s.h.View(s.ctx(t), op, func(b []byte) error {
			return f(&TextView{Bytes: b, host: s})
		})
	case *Instance:
		if st, ok := s.base.(*Str); ok {
			return ViewText(t, st, op, f)
		}
	}
	return false, nil
}

func (s *Str) cpOffBytes(b int) int { return s.cpOffset(b) }

// IsStr reports whether x is a str (a context included).
func IsStr(x Object) bool {
	switch v := x.(type) {
	case *Str, *hostStr:
		return true
	case *Instance:
		_, ok := v.base.(*Str)
		return ok
	}
	return false
}

var _ = strings.Contains

// firstHost returns args[0] when it is a context.
func firstHost(args []Object) (*hostStr, bool) {
	if len(args) == 0 {
		return nil, false
	}
	h, ok := args[0].(*hostStr)
	return h, ok
}
