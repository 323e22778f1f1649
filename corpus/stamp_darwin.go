package corpus

import "syscall"

// changeTime is st's change time (ctime) in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
