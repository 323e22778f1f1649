// Package hashlib is code mode's hashlib module: md5, sha1, the SHA-2
// family (sha224, sha256, sha384, sha512, sha512_224, sha512_256), the
// SHA-3 family (sha3_224 ... sha3_512) and the SHAKE functions, from Go's
// standard library, with CPython's hash objects (update, digest,
// hexdigest, copy, name, digest_size, block_size), new(), pbkdf2_hmac and
// file_digest over an in-memory file. blake2b and blake2s (Go's standard
// library has neither) and scrypt are refused.
package hashlib

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes hashlib importable.
func Register() {
	python.Setup()
	python.RegisterModule("hashlib", load)
	setupOnce.Do(setup)
}

var setupOnce sync.Once

// setup fills the tables of algorithms. It runs on the first Register,
// not at package initialisation, so that importing the package builds
// nothing.
func setup() {
	algos = makeAlgos()
	refused = map[string]string{
		"blake2b": "Go's standard library has no BLAKE2; use sha256 or sha3_256",
		"blake2s": "Go's standard library has no BLAKE2; use sha256 or sha3_256",
	}
}

// algo is a hash algorithm.
type algo struct {
	name      string
	new       func() hash.Hash
	blockSize int
	xof       bool
}

// algos are the algorithms by name (set by setup).
var algos map[string]*algo

// makeAlgos returns the table of algos.
func makeAlgos() map[string]*algo {
	return map[string]*algo{
		"md5":        {"md5", md5.New, 64, false},
		"sha1":       {"sha1", sha1.New, 64, false},
		"sha224":     {"sha224", sha256.New224, 64, false},
		"sha256":     {"sha256", sha256.New, 64, false},
		"sha384":     {"sha384", sha512.New384, 128, false},
		"sha512":     {"sha512", sha512.New, 128, false},
		"sha512_224": {"sha512_224", sha512.New512_224, 128, false},
		"sha512_256": {"sha512_256", sha512.New512_256, 128, false},
		"sha3_224":   {"sha3_224", func() hash.Hash { return sha3.New224() }, 144, false},
		"sha3_256":   {"sha3_256", func() hash.Hash { return sha3.New256() }, 136, false},
		"sha3_384":   {"sha3_384", func() hash.Hash { return sha3.New384() }, 104, false},
		"sha3_512":   {"sha3_512", func() hash.Hash { return sha3.New512() }, 72, false},
		"shake_128":  {"shake_128", func() hash.Hash { return shakeHash{sha3.NewSHAKE128()} }, 168, true},
		"shake_256":  {"shake_256", func() hash.Hash { return shakeHash{sha3.NewSHAKE256()} }, 136, true},
	}
}

// constructors are the module functions named after algorithms.
var constructors = []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_224", "sha3_256", "sha3_384", "sha3_512", "shake_128", "shake_256"}

// guaranteed is CPython's hashlib.algorithms_guaranteed.
var guaranteed = []string{"blake2b", "blake2s", "md5", "sha1", "sha224", "sha256", "sha384", "sha3_224", "sha3_256", "sha3_384", "sha3_512", "sha512", "shake_128", "shake_256"}

// refused are the algorithms of algorithms_guaranteed code mode refuses,
// with the hint of the refusal (set by setup).
var refused map[string]string

// shakeHash adapts a SHAKE to hash.Hash for the code that shares the
// other algorithms' (Sum is never used: digests take a length).
type shakeHash struct{ *sha3.SHAKE }

func (shakeHash) Sum(b []byte) []byte { return b }
func (shakeHash) Size() int           { return 0 }

var (
	typesOnce sync.Once
	hashType  *python.Type
	xofType   *python.Type
	// unsupportedDigest is _hashlib.UnsupportedDigestmodError.
	unsupportedDigest *python.Type
)

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	m := python.NewModule("hashlib")
	for _, n := range constructors {
		a := algos[n]
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			data, err := ctorArgs("openssl_"+a.name, args, kwargs)
			if err != nil {
				return nil, err
			}
			return newHash(t, a, data)
		})
	}
	for n, why := range refused {
		n, why := n, why
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("hashlib."+n, why)
		})
	}
	m.Func("new", hashNew)
	m.Func("pbkdf2_hmac", pbkdf2HMAC)
	m.Func("file_digest", fileDigest)
	m.Func("scrypt", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.NotSupported("hashlib.scrypt", "use hashlib.pbkdf2_hmac")
	})
	m.Set("algorithms_guaranteed", nameSet(t0(), guaranteed))
	var avail []string
	for n := range algos {
		avail = append(avail, n)
	}
	sort.Strings(avail)
	m.Set("algorithms_available", nameSet(t0(), avail))
	all := []python.Object{}
	for _, n := range append(append([]string{}, constructors...), "blake2b", "blake2s", "new", "algorithms_guaranteed", "algorithms_available", "pbkdf2_hmac", "file_digest") {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewTuple(all))
	return m, nil
}

// t0 is the nil thread set building needs (adding strs cannot fail).
func t0() *python.Thread { return nil }

func nameSet(t *python.Thread, names []string) python.Object {
	s := python.NewSet(true)
	for _, n := range names {
		_ = s.Add(t, python.NewStr(n))
	}
	return s
}

// ctorArgs parses (string=b”, *, usedforsecurity=True) and returns the
// initial data (nil if none).
func ctorArgs(fn string, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) > 1 {
		return nil, python.Errorf(python.TypeErrorType, "%s() takes at most 1 positional argument (%d given)", fn, len(args))
	}
	var data python.Object
	if len(args) == 1 {
		data = args[0]
	}
	for _, kw := range kwargs {
		switch kw.Name {
		case "string":
			if data != nil {
				return nil, python.Errorf(python.TypeErrorType, "argument for %s() given by name ('string') and position (1)", fn)
			}
			data = kw.Value
		case "usedforsecurity":
		default:
			return nil, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for %s()", kw.Name, fn)
		}
	}
	return data, nil
}

// bytesOf returns the bytes of a bytes-like argument, with hashlib's
// errors.
func bytesOf(t *python.Thread, x python.Object) ([]byte, error) {
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
	if python.IsStr(x) {
		return nil, python.Errorf(python.TypeErrorType, "Strings must be encoded before hashing")
	}
	if python.TypeName(x) == "memoryview" {
		r, err := python.Call(t, python.BytesType, []python.Object{x}, nil)
		if err != nil {
			return nil, err
		}
		if b, ok := r.(*python.Bytes); ok {
			return []byte(b.String()), nil
		}
	}
	return nil, python.Errorf(python.TypeErrorType, "object supporting the buffer API required")
}

// hashObj is a hash object: _hashlib.HASH, or _hashlib.HASHXOF for SHAKE.
type hashObj struct {
	a  *algo
	h  hash.Hash
	id int64 // hash(): the object's identity
}

// nextID numbers hash objects for hash() (the interpreter gives
// Go-implemented objects no identity of their own).
var nextID atomic.Int64

// PyHash is hash(h): by identity, as for any object.
func (o *hashObj) PyHash(*python.Thread) (int64, error) {
	if o.id == 0 {
		o.id = nextID.Add(1) << 4
	}
	return o.id, nil
}

// Type returns _hashlib.HASH or _hashlib.HASHXOF.
func (o *hashObj) Type() *python.Type {
	if o.a.xof {
		return xofType
	}
	return hashType
}

func newHash(t *python.Thread, a *algo, data python.Object) (python.Object, error) {
	o := &hashObj{a: a, h: a.new()}
	if data != nil {
		b, err := bytesOf(t, data)
		if err != nil {
			return nil, err
		}
		if err := o.write(t, b); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// write hashes b, counting a step per 64 KiB.
func (o *hashObj) write(t *python.Thread, b []byte) error {
	for len(b) > 0 {
		n := min(len(b), 1<<16)
		o.h.Write(b[:n])
		b = b[n:]
		if err := t.Tick(1); err != nil {
			return err
		}
	}
	return nil
}

// PyRepr renders <sha256 _hashlib.HASH object @ 0x...>.
func (o *hashObj) PyRepr(t *python.Thread) (string, error) {
	tn := "HASH"
	if o.a.xof {
		tn = "HASHXOF"
	}
	id, err := python.Call(t, idFunc(t), []python.Object{o}, nil)
	if err != nil {
		return "", err
	}
	n, _ := python.AsInt64(id)
	return fmt.Sprintf("<%s _hashlib.%s object @ 0x%x>", o.a.name, tn, n), nil
}

func idFunc(t *python.Thread) python.Object {
	v, _ := t.Interp().Builtins().GetStr("id")
	return v
}

func (o *hashObj) clone() (*hashObj, error) {
	h := o.a.new()
	m, ok := o.h.(encoding.BinaryMarshaler)
	if sh, isShake := o.h.(shakeHash); isShake {
		m, ok = sh.SHAKE, true
	}
	if !ok {
		return nil, python.NotSupported("copying a "+o.a.name+" hash object", "")
	}
	state, err := m.MarshalBinary()
	if err != nil {
		return nil, python.NotSupported("copying a "+o.a.name+" hash object", "")
	}
	var u encoding.BinaryUnmarshaler
	if sh, isShake := h.(shakeHash); isShake {
		u = sh.SHAKE
	} else {
		u = h.(encoding.BinaryUnmarshaler)
	}
	if err := u.UnmarshalBinary(state); err != nil {
		return nil, python.NotSupported("copying a "+o.a.name+" hash object", "")
	}
	return &hashObj{a: o.a, h: h}, nil
}

// digest returns the digest without changing the object (n for SHAKE).
func (o *hashObj) digest(n int) ([]byte, error) {
	c, err := o.clone()
	if err != nil {
		return nil, err
	}
	if sh, ok := c.h.(shakeHash); ok {
		out := make([]byte, n)
		_, _ = sh.Read(out)
		return out, nil
	}
	return c.h.Sum(nil), nil
}

func self(args []python.Object) *hashObj { return args[0].(*hashObj) }

func initTypes() {
	typesOnce.Do(func() {
		unsupportedDigest = python.NewBuiltinType("UnsupportedDigestmodError", "_hashlib", python.ValueErrorType, nil)
		hashType = python.NewBuiltinType("HASH", "_hashlib", nil, nil)
		xofType = python.NewBuiltinType("HASHXOF", "_hashlib", hashType, nil)
		hashType.SetFinal()
		c := hashType
		noArgs := func(name string, args []python.Object, kwargs []python.Kwarg) error {
			if len(kwargs) > 0 {
				return python.Errorf(python.TypeErrorType, "HASH.%s() takes no keyword arguments", name)
			}
			if len(args) != 1 {
				return python.Errorf(python.TypeErrorType, "HASH.%s() takes no arguments (%d given)", name, len(args)-1)
			}
			return nil
		}
		c.AddMethod("update", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "HASH.update() takes no keyword arguments")
			}
			if len(args) != 2 {
				return nil, python.Errorf(python.TypeErrorType, "HASH.update() takes exactly one argument (%d given)", len(args)-1)
			}
			b, err := bytesOf(t, args[1])
			if err != nil {
				return nil, err
			}
			return python.None, self(args).write(t, b)
		})
		c.AddMethod("copy", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if err := noArgs("copy", args, kwargs); err != nil {
				return nil, err
			}
			return self(args).clone()
		})
		c.AddMethod("digest", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			o := self(args)
			if o.a.xof {
				n, err := xofLength("digest", t, args, kwargs)
				if err != nil {
					return nil, err
				}
				d, err := o.digest(n)
				return python.NewBytes(string(d)), err
			}
			if err := noArgs("digest", args, kwargs); err != nil {
				return nil, err
			}
			d, err := o.digest(0)
			return python.NewBytes(string(d)), err
		})
		c.AddMethod("hexdigest", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			o := self(args)
			if o.a.xof {
				n, err := xofLength("hexdigest", t, args, kwargs)
				if err != nil {
					return nil, err
				}
				d, err := o.digest(n)
				return python.NewStr(hex.EncodeToString(d)), err
			}
			if err := noArgs("hexdigest", args, kwargs); err != nil {
				return nil, err
			}
			d, err := o.digest(0)
			return python.NewStr(hex.EncodeToString(d)), err
		})
		c.AddGetSet("name", func(t *python.Thread, obj python.Object) (python.Object, error) {
			return python.NewStr(obj.(*hashObj).a.name), nil
		}, nil)
		c.AddGetSet("digest_size", func(t *python.Thread, obj python.Object) (python.Object, error) {
			o := obj.(*hashObj)
			if o.a.xof {
				return python.MakeInt(0), nil
			}
			return python.MakeInt(int64(o.h.Size())), nil
		}, nil)
		c.AddGetSet("block_size", func(t *python.Thread, obj python.Object) (python.Object, error) {
			return python.MakeInt(int64(obj.(*hashObj).a.blockSize)), nil
		}, nil)
	})
}

// xofLength parses the length of a SHAKE digest.
func xofLength(name string, t *python.Thread, args []python.Object, kwargs []python.Kwarg) (int, error) {
	var v python.Object
	if len(args) > 2 {
		return 0, python.Errorf(python.TypeErrorType, "%s() takes at most 1 argument (%d given)", name, len(args)-1)
	}
	if len(args) == 2 {
		v = args[1]
	}
	for _, kw := range kwargs {
		if kw.Name != "length" {
			return 0, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		v = kw.Value
	}
	if v == nil {
		return 0, python.Errorf(python.TypeErrorType, "%s() missing required argument 'length' (pos 1)", name)
	}
	n, err := python.ArgInt(t, name, v)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, python.Errorf(python.ValueErrorType, "length must be non-negative")
	}
	if err := t.CheckSize(n * 2); err != nil {
		return 0, err
	}
	return int(n), nil
}

// lookup returns the algorithm a name names (case-insensitively), with
// CPython's error for an unknown one.
func lookup(t *python.Thread, name python.Object) (*algo, error) {
	s, ok := name.(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "new() argument 'name' must be str, not %s", python.TypeName(name))
	}
	n := strings.ToLower(s.String())
	if why, ok := refused[n]; ok {
		return nil, python.NotSupported("hashlib."+n, why)
	}
	a, ok := algos[n]
	if !ok {
		return nil, python.Errorf(python.ValueErrorType, "unsupported hash type %s", s.String())
	}
	return a, nil
}

// hashNew is new(name, data=b”, **kwargs).
func hashNew(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	var name, data python.Object
	if len(args) > 2 {
		return nil, python.Errorf(python.TypeErrorType, "__hash_new() takes from 1 to 2 positional arguments but %d were given", len(args))
	}
	if len(args) > 0 {
		name = args[0]
	}
	if len(args) > 1 {
		data = args[1]
	}
	var rest []python.Kwarg
	for _, kw := range kwargs {
		switch kw.Name {
		case "name":
			if name != nil {
				return nil, python.Errorf(python.TypeErrorType, "__hash_new() got multiple values for argument 'name'")
			}
			name = kw.Value
		case "data":
			if data != nil {
				return nil, python.Errorf(python.TypeErrorType, "__hash_new() got multiple values for argument 'data'")
			}
			data = kw.Value
		default:
			rest = append(rest, kw)
		}
	}
	if name == nil {
		return nil, python.Errorf(python.TypeErrorType, "__hash_new() missing 1 required positional argument: 'name'")
	}
	a, err := lookup(t, name)
	if err != nil {
		return nil, err
	}
	if _, err := ctorArgs("openssl_"+a.name, nil, rest); err != nil {
		return nil, err
	}
	return newHash(t, a, data)
}

// pbkdf2HMAC is pbkdf2_hmac(hash_name, password, salt, iterations,
// dklen=None), one HMAC a step.
func pbkdf2HMAC(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := python.UnpackArgs("pbkdf2_hmac", args, kwargs, 4, "hash_name", "password", "salt", "iterations", "dklen")
	if err != nil {
		return nil, err
	}
	a, err := lookup(t, v[0])
	if err != nil && python.IsInstance(err, python.ValueErrorType) || err == nil && a.xof {
		return nil, python.Errorf(unsupportedDigest, "[digital envelope routines] unsupported")
	}
	if err != nil {
		return nil, err
	}
	pw, err := bytesOf(t, v[1])
	if err != nil {
		return nil, err
	}
	salt, err := bytesOf(t, v[2])
	if err != nil {
		return nil, err
	}
	iters, err := python.ArgInt(t, "pbkdf2_hmac", v[3])
	if err != nil {
		return nil, err
	}
	if iters < 1 {
		return nil, python.Errorf(python.ValueErrorType, "iteration value must be greater than 0.")
	}
	size := a.new().Size()
	dklen := int64(size)
	if v[4] != nil && v[4] != python.None {
		if dklen, err = python.ArgInt(t, "pbkdf2_hmac", v[4]); err != nil {
			return nil, err
		}
		if dklen < 1 {
			return nil, python.Errorf(python.ValueErrorType, "key length must be greater than 0.")
		}
	}
	if err := t.CheckSize(dklen); err != nil {
		return nil, err
	}
	mac := hmac.New(a.new, pw)
	var out []byte
	buf := make([]byte, 4)
	for block := uint32(1); int64(len(out)) < dklen; block++ {
		mac.Reset()
		mac.Write(salt)
		buf[0], buf[1], buf[2], buf[3] = byte(block>>24), byte(block>>16), byte(block>>8), byte(block)
		mac.Write(buf)
		u := mac.Sum(nil)
		tb := append([]byte(nil), u...)
		for i := int64(1); i < iters; i++ {
			if i&1023 == 0 {
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
			mac.Reset()
			mac.Write(u)
			u = mac.Sum(u[:0])
			for k := range tb {
				tb[k] ^= u[k]
			}
		}
		out = append(out, tb...)
	}
	return python.NewBytes(string(out[:dklen])), nil
}

// fileDigest is file_digest(fileobj, digest, /) for an in-memory binary
// file (getbuffer or read).
func fileDigest(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "file_digest() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	if len(args) != 2 {
		return nil, python.Errorf(python.TypeErrorType, "file_digest() takes 2 positional arguments but %d were given", len(args))
	}
	f, digest := args[0], args[1]
	var h python.Object
	var err error
	if python.IsStr(digest) {
		h, err = hashNew(t, []python.Object{digest}, nil)
	} else {
		h, err = python.Call(t, digest, nil, nil)
	}
	if err != nil {
		return nil, err
	}
	if has, _ := python.HasAttr(t, f, "getbuffer"); has {
		buf, err := python.CallMethod(t, f, "getbuffer", nil, nil)
		if err != nil {
			return nil, err
		}
		if _, err := python.CallMethod(t, h, "update", []python.Object{buf}, nil); err != nil {
			return nil, err
		}
		return h, nil
	}
	return nil, python.NotSupported("hashlib.file_digest of a file without getbuffer()", "hash fileobj.read() with update()")
}
