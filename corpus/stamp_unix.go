//go:build linux || darwin

package corpus

import (
	"os"
	"syscall"
)

// stampOf returns the identity of the file fi describes: device, inode,
// size, modification and change times (see fileStamp).
func stampOf(fi os.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: fi.ModTime().UnixNano(), ctime: changeTime(st)}, true
}
