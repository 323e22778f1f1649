package corpus

import (
	"runtime/debug"
	"unsafe"

	"github.com/rlm-go/rlm/fault"
)

// A file mapping reads the file's pages on access. When the file is
// truncated while mapped, an access past its new end raises SIGBUS, which
// by default kills the process. Every read of mapped memory in this
// package therefore runs under guard, which turns such a fault into an
// error of Kind context_changed; callers reading the bytes of Bytes
// themselves use View.

// guard runs f on e's data; a memory fault on e's mapping during f (a
// truncated file) is returned as context_changed. Other panics pass
// through unchanged. Texts that are not mapped run f directly.
func guard[T any](e *entry, f func() (T, error)) (v T, err error) {
	bk := e.back
	if !bk.mapped || len(bk.data) == 0 {
		return f()
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(bk.data)))
	hi := lo + uintptr(len(bk.data))
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		r := recover()
		if r == nil {
			return
		}
		af, ok := r.(interface{ Addr() uintptr })
		if !ok || af.Addr() < lo || af.Addr() >= hi {
			panic(r)
		}
		var zero T
		v, err = zero, changedErr(e, int64(af.Addr()-lo))
	}()
	return f()
}

func changedErr(e *entry, offset int64) *fault.Error {
	err := newErr(KindContextChanged, "the context file changed (was truncated) while in use; part of the text is gone").
		With("handle", e.h.String()).With("offset", offset)
	if e.path != "" {
		err.With("path", e.path)
	}
	return err.WithHint("do not modify a context file during a run; copy a file that is still being written (cp log snapshot.log) and pass the copy")
}

// View runs f on the text of h without copying, with the same guard as
// the store's own operations: if the file behind a mapped text is
// truncated while f reads it, View returns Kind context_changed instead of
// the process dying of SIGBUS. The bytes are valid only during f and must
// not be modified or retained. f's own error is returned as is.
func (s *Store) View(h Handle, f func(data []byte) error) error {
	e, err := s.acquire(h)
	if err != nil {
		return err
	}
	defer s.unref(e.back)
	_, err = guard(e, func() (struct{}, error) { return struct{}{}, f(e.data) })
	return err
}
