package rlm

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/fault"
)

// Output is an output file a session writes, named by the flag (or Spec
// field) that gives it.
type Output struct{ Flag, Path string }

// CheckOutputs verifies, before any input is read or any model is called,
// that every output file named by a flag (flag name → path; empty paths are
// skipped) can be written: its directory exists and accepts a new file, or
// the file exists, is not a directory and opens for writing. Nothing is
// created or truncated. Two flags naming the same file are an error too.
func CheckOutputs(outs ...Output) error {
	byPath := map[string]string{}
	for _, o := range outs {
		flag, path := o.Flag, o.Path
		if path == "" {
			continue
		}
		abs, err := filepath.Abs(path)
		if err == nil {
			if other, dup := byPath[abs]; dup {
				return fault.New(fault.PhaseConfig, KindUnwritableOutput, "two outputs name the same file").
					With("flag", flag).With("other_flag", other).With("path", path).
					WithHint("give --" + flag + " and --" + other + " different paths")
			}
			byPath[abs] = flag
		}
		if err := checkOutput(flag, path); err != nil {
			return err
		}
	}
	return nil
}

func checkOutput(flag, path string) error {
	bad := func(err error, msg string) *fault.Error {
		return fault.Wrap(err, fault.PhaseConfig, KindUnwritableOutput, msg).With("flag", "--"+flag).With("path", path)
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return bad(nil, "the output path is a directory")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return bad(err, "the output file cannot be written")
		}
		return f.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return bad(err, "the output path cannot be checked")
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return bad(err, "the output file's directory does not exist").With("dir", dir)
	}
	if !st.IsDir() {
		return bad(nil, "the output file's directory is not a directory").With("dir", dir)
	}
	f, err := os.CreateTemp(dir, ".rlm-check-*")
	if err != nil {
		return bad(err, "the output file's directory is not writable").With("dir", dir)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
