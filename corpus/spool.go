package corpus

import (
	"context"
	"io"
	"os"

	"github.com/rlm-go/rlm/fault"
)

// spoolChunk is the read size used when spooling a stream to disk.
const spoolChunk = 1 << 20

// AddStream registers the text read from r until EOF, under an optional
// name, without holding it in memory: the bytes are copied to a temporary
// file in dir (os.TempDir() when dir is empty), which is memory-mapped like
// AddFile and removed at once (the mapping keeps the data until the handle
// is released). Resident memory therefore stays bounded whatever the input
// size; the input needs free disk space in dir instead. ctx is checked
// between reads. Failures have Kind io_error (detail "dir" for the spool
// file) or the context's kind. The text's kind is "text".
func (s *Store) AddStream(ctx context.Context, name, dir string, r io.Reader) (Handle, error) {
	f, err := os.CreateTemp(dir, "rlm-stream-*")
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, KindIOError, "cannot create spool file").
			With("dir", spoolDir(dir)).With("hint", "set TMPDIR to a writable directory with room for the input")
	}
	path := f.Name()
	defer os.Remove(path)
	if _, err := copyCtx(ctx, f, r, nil); err != nil {
		f.Close()
		return Handle{}, streamErr(err, name, dir)
	}
	if err := f.Close(); err != nil {
		return Handle{}, streamErr(err, name, dir)
	}
	return s.addMapped(ctx, path, &entry{kind: TextKindText, name: name})
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
	return fault.Wrap(err, fault.PhaseContext, KindIOError, "spooling the input failed").
		With("name", name).With("dir", spoolDir(dir)).
		With("hint", "the input is spooled to disk: check free space in the directory (or set TMPDIR)")
}

// copyCtx copies r to w in spoolChunk reads, checking ctx between reads and
// calling see (if set) with each chunk. Context errors are returned as the
// store's kinds; read and write errors as they are.
func copyCtx(ctx context.Context, w io.Writer, r io.Reader, see func([]byte)) (int64, error) {
	buf := make([]byte, spoolChunk)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, ctxErr(err)
		}
		k, rerr := r.Read(buf)
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

// addMapped maps the file at path and registers it as e (whose data and
// backing it fills in).
func (s *Store) addMapped(ctx context.Context, path string, e *entry) (Handle, error) {
	if err := ctx.Err(); err != nil {
		return Handle{}, ctxErr(err)
	}
	b, mapped, err := mapFile(path)
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, KindIOError, "cannot map spool file")
	}
	e.data = b
	h, err := s.add(e, &backing{data: b, mapped: mapped})
	if err != nil && mapped {
		_ = unmapFile(b)
	}
	return h, err
}
