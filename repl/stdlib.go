package repl

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python/lib"
)

var stdlibOnce sync.Once

// registerStdlib makes the standard modules importable (once per process,
// on the first interpreter).
func registerStdlib() { stdlibOnce.Do(lib.Register) }
