//go:build linux

package corpus

import (
	"io"
	"os"
	"syscall"
)

// growPipe enlarges the kernel buffer of r when it is a pipe, so spooling
// moves a megabyte per read instead of 64 KiB. Failure is harmless.
func growPipe(r io.Reader) {
	f, ok := r.(*os.File)
	if !ok {
		return
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	const fSetPipeSz = 1031 // F_SETPIPE_SZ
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSz, spoolChunk)
}
