//go:build unix

package effect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// releaseLeaseLock drops j's lease lock but leaves the file, as the kernel
// does when the owning process is killed.
func releaseLeaseLock(t *testing.T, j *Journal) {
	t.Helper()
	if err := syscall.Flock(int(j.lease.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	j.lease.Close()
	j.lease = nil
}

// TestLeaseOfDeadOwner: an owner whose lease is gone (the process died)
// no longer holds its attempts, and its stale lease file is collected.
func TestLeaseOfDeadOwner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "effects.db")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := j.Prepare(ctx, runReq("r", "1", `{}`))
	j.Begin(ctx, d.Ticket)
	// A crash leaves the lease file without its lock.
	releaseLeaseLock(t, j)
	if err := errors.Join(j.conn.Close(), j.db.Close()); err != nil {
		t.Fatal(err)
	}
	j2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if _, err := os.Stat(j.leasePath); !os.IsNotExist(err) {
		t.Fatalf("stale lease not collected: %v", err)
	}
	// Admitted but never dispatched by a dead owner: runnable again.
	again, err := j2.Prepare(ctx, runReq("r", "1", `{}`))
	if err != nil || again.Action != ActionExecute {
		t.Fatalf("%+v %v", again, err)
	}
}
