package rlm

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	_ "github.com/rlm-go/rlm/pdf" // the context store's PDF reader (pdf.Default)
	"github.com/rlm-go/rlm/vision"
)

// OpenImages opens the image files among the --context paths (a regular
// file named .png, .jpg, .jpeg, .gif or .webp) into set, each under its
// base name, bounded and scaled by lim (vision.Open), and returns the
// other paths. An image that is too large or does not decode is its
// typed error (image_too_large, bad_image). Images inside a directory
// are not opened (a directory's binary files are skipped).
func OpenImages(paths []string, set *vision.Set, lim vision.Limits) (rest []string, err error) {
	for _, p := range paths {
		if p == "-" || !vision.IsImageFile(p) {
			rest = append(rest, p)
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			rest = append(rest, p)
			continue
		}
		im, err := vision.Open(p, lim)
		if err != nil {
			return nil, err
		}
		set.Add(filepath.Base(p), im)
	}
	return rest, nil
}

// AddContexts registers the --context inputs as one context: "-" alone
// spools stdin to a temporary file (corpus.Store.AddStream), one regular
// file is memory-mapped, and a directory or several paths become one
// composite context listing the files (corpus.Store.AddFiles).
func AddContexts(ctx context.Context, store *corpus.Store, paths []string, stdin io.Reader) (corpus.Handle, error) {
	if len(paths) == 0 {
		return corpus.Handle{}, fault.New(fault.PhaseConfig, fault.KindInvalid, "no context given").
			WithHint("pass --context FILE, a directory, or - for stdin")
	}
	if slices.Contains(paths, "-") {
		if len(paths) > 1 {
			return corpus.Handle{}, fault.New(fault.PhaseConfig, fault.KindInvalid, "--context - (stdin) cannot be combined with other paths").
				With("paths", paths).WithHint("save stdin to a file and pass the files, or pass - alone")
		}
		return store.AddStream(ctx, "stdin", "", stdin)
	}
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) != 0 {
			// A pipe (--context <(zcat log.gz)) is read as a stream,
			// spooled like stdin; AddFile maps regular files only.
			f, err := corpus.Open(ctx, paths[0])
			if err != nil {
				if fault.As(err) != nil {
					return corpus.Handle{}, err
				}
				return corpus.Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot open context path").With("path", paths[0])
			}
			defer f.Close()
			return store.AddStream(ctx, paths[0], "", f)
		} else if err == nil && !fi.IsDir() {
			return store.AddFile(ctx, paths[0])
		}
	}
	return store.AddFiles(ctx, "context", paths, corpus.FilesOptions{})
}
