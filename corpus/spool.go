package corpus

import (
	"bytes"
	"context"
	"io"
	"os"
	"syscall"

	"github.com/rlm-go/rlm/fault"
)

// spoolChunk is the read size used when spooling a stream to disk.
const spoolChunk = 1 << 20

// AddStream registers the text read from r until EOF, under an optional
// name, without holding it in memory: the bytes are copied to a temporary
// file in dir (os.TempDir() when dir is empty), which is memory-mapped like
// AddFile and removed at once (the mapping keeps the data until the handle
// is released). Resident memory therefore stays bounded whatever the input
// size; the input needs free disk space in dir instead. An ended ctx stops
// the copy at once, even while a read is blocked on a stalled pipe (that
// read is abandoned: see copyCtx). Failures have Kind io_error (detail "dir" for the spool
// file) or the context's kind. The text's kind is "text".
//
// When r is an *os.File open on a regular file at offset 0 (a shell's
// "< file" redirect), that file is mapped directly instead: no copy.
func (s *Store) AddStream(ctx context.Context, name, dir string, r io.Reader) (Handle, error) {
	if f, ok := r.(*os.File); ok {
		if h, ok, err := s.addOpenFile(ctx, name, f); ok {
			return h, err
		}
	}
	growPipe(r)
	f, err := os.CreateTemp(dir, "rlm-stream-*")
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot create spool file").
			With("dir", spoolDir(dir)).WithHint("set TMPDIR to a writable directory with room for the input")
	}
	path := f.Name()
	defer os.Remove(path)
	// Lines are counted while the bytes pass, saving a second scan.
	var lines int64
	var last byte
	n, err := copyCtx(ctx, f, r, func(b []byte) {
		lines += int64(bytes.Count(b, nl))
		last = b[len(b)-1]
	})
	if err != nil {
		f.Close()
		return Handle{}, streamErr(err, name, dir)
	}
	if err := f.Close(); err != nil {
		return Handle{}, streamErr(err, name, dir)
	}
	if n > 0 && last != '\n' {
		lines++
	}
	e := &entry{kind: TextKindText, name: name}
	e.lines.Store(lines + 1)
	return s.addMapped(ctx, path, e)
}

func spoolDir(dir string) string {
	if dir == "" {
		return os.TempDir()
	}
	return dir
}

func streamErr(err error, name, dir string) error {
	if fe := fault.As(err); fe != nil {
		return err
	}
	return fault.Wrap(err, fault.PhaseContext, fault.KindIO, "spooling the input failed").
		With("name", name).With("dir", spoolDir(dir)).
		WithHint("the input is spooled to disk: check free space in the directory (or set TMPDIR)")
}

// copyCtx copies r to w in spoolChunk reads, checking ctx between reads and
// calling see (if set) with each chunk. Context errors are returned as the
// store's kinds; read and write errors as they are.
//
// Each read runs in its own goroutine while copyCtx waits for it or for
// ctx to end, so a read that blocks (a pipe whose writer stalls without
// closing it) does not keep an ended ctx from returning at once. That
// goroutine then stays blocked in r.Read until the read returns (the
// writer sends more, closes, or r is closed) and ends without touching w,
// dropping what that read returned; r and the buffer are not used by
// copyCtx after it returns.
func copyCtx(ctx context.Context, w io.Writer, r io.Reader, see func([]byte)) (int64, error) {
	return copyCtxBuf(ctx, w, r, make([]byte, spoolChunk), see)
}

// copyCtxBuf is copyCtx reading into buf, which a caller copying many
// inputs reuses; after copyCtxBuf fails on an ended ctx, buf may still be
// written by the abandoned read and must not be reused.
func copyCtxBuf(ctx context.Context, w io.Writer, r io.Reader, buf []byte, see func([]byte)) (int64, error) {
	type result struct {
		k   int
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned read still ends
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, ctxErr(err)
		}
		go func() {
			k, err := r.Read(buf)
			done <- result{k, err}
		}()
		var res result
		select {
		case res = <-done:
		case <-ctx.Done():
			return n, ctxErr(ctx.Err())
		}
		k, rerr := res.k, res.err
		if k > 0 {
			if see != nil {
				see(buf[:k])
			}
			if _, err := w.Write(buf[:k]); err != nil {
				return n, err
			}
			n += int64(k)
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// addOpenFile registers f by mapping it, when it is a regular file read
// from its start; ok is false (and nothing done) otherwise.
func (s *Store) addOpenFile(ctx context.Context, name string, f *os.File) (h Handle, ok bool, err error) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return Handle{}, false, nil
	}
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != 0 {
		return Handle{}, false, nil
	}
	if err := ctx.Err(); err != nil {
		return Handle{}, true, ctxErr(err)
	}
	b, rd, err := mapOpen(f)
	if err != nil {
		return Handle{}, true, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot map input").With("name", name)
	}
	h, err = s.add(&entry{kind: TextKindText, data: b, name: name}, fileBacking(b, rd))
	if err != nil {
		_ = unmapFile(b, rd)
	}
	return h, true, err
}

// addMapped maps the file at path and registers it as e (whose data and
// backing it fills in).
func (s *Store) addMapped(ctx context.Context, path string, e *entry) (Handle, error) {
	if err := ctx.Err(); err != nil {
		return Handle{}, ctxErr(err)
	}
	b, rd, err := mapFile(path)
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot map spool file")
	}
	e.data = b
	h, err := s.add(e, fileBacking(b, rd))
	if err != nil {
		_ = unmapFile(b, rd)
	}
	return h, err
}

// Open opens an input for reading like os.Open, but returns at once with
// the ctx's kind (cancelled, time_limit_exceeded; Phase context) when ctx
// ends while the open blocks: a named pipe no writer has opened yet. The
// abandoned open is released by connecting to the pipe as a writer for a
// moment; the file it returns is closed. Other errors are os.Open's.
func Open(ctx context.Context, path string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		ch <- result{f, err}
	}()
	select {
	case r := <-ch:
		return r.f, r.err
	case <-ctx.Done():
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		go func() {
			if r := <-ch; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, ctxErr(ctx.Err())
	}
}
