package itertools

import (
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// ident gives a Go-implemented object a stable identity hash (the
// interpreter core's identity type is not exported; without a hash of its
// own such an object would hash differently on each call).
type ident struct{ id uint64 }

var nextIdent atomic.Uint64

// PyHash returns the object's identity hash.
func (i *ident) PyHash(*python.Thread) (int64, error) {
	if i.id == 0 {
		i.id = nextIdent.Add(1)
	}
	return int64(i.id), nil
}
