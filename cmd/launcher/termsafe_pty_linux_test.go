//go:build linux

package launcher

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY returns the controller and the terminal of a new
// pseudo-terminal (Linux: /dev/ptmx), or skips the test when the system
// has none.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		ctl.Close()
		t.Skipf("no pseudo-terminal: TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		ctl.Close()
		t.Skipf("no pseudo-terminal: TIOCSPTLCK: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		ctl.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ctl.Close(); tty.Close() })
	return ctl, tty
}

// runOnTerminal runs the built binary with its stdout on a terminal and
// returns what the terminal received (CR LF read back as LF) and stderr.
func runOnTerminal(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	ctl, tty := openPTY(t)
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, builtBinary(t), args...)
	cmd.Env = binaryEnv("XDG_STATE_HOME=" + t.TempDir())
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = tty, &errb
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ctl) // ends with EIO once the terminal is closed
		read <- b
	}()
	err := cmd.Run()
	tty.Close() // the child's copy is closed: the controller reads to the end
	out := <-read
	if ctx.Err() != nil {
		t.Fatalf("rlm %v did not finish; stderr: %s", args, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n"), errb.String(), code
}

// The text answer on a terminal is neutralized (--raw keeps its bytes);
// before, OSC 52, OSC 0 and ESC[2J from the model's answer reached the
// terminal.
func TestAnswerOnTerminalNeutralizedBinary(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\n"), 0o644)
	cas := writeCassette(t, dir, hostileAnswer)

	out, errOut, code := runOnTerminal(t, "run", "--context", ctxFile, "--replay", cas, "q")
	if code != 0 {
		t.Fatalf("exit %d: %q\n%s", code, out, errOut)
	}
	if c := controls(out); len(c) > 0 {
		t.Errorf("the terminal received controls %q: %q", c, out)
	}
	if want := "done␛]52;c;cm0gLXJmIH4K␇␛]0;title␇␛[2J\n"; out != want {
		t.Errorf("terminal shows %q, want %q", out, want)
	}

	out, errOut, code = runOnTerminal(t, "run", "--context", ctxFile, "--replay", cas, "--raw", "q")
	if code != 0 || out != rawAnswer+"\n" {
		t.Errorf("--raw: exit %d, terminal got %q (stderr %s)", code, out, errOut)
	}
}
