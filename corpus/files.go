package corpus

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfreader"
)

// TextKindFiles is the kind of a composite context built by AddFiles.
const TextKindFiles = "files"

// Defaults of FilesOptions.
const (
	DefaultMaxFiles      = 10_000
	DefaultMaxTotalBytes = 1 << 30
	// binarySniff is how many leading bytes are checked for a NUL byte to
	// classify a file found in a directory as binary (git's heuristic).
	binarySniff = 8000
)

// FilesOptions bounds AddFiles.
type FilesOptions struct {
	// MaxFiles bounds the number of files (0: DefaultMaxFiles). Files found
	// in directories count before binary files are skipped.
	MaxFiles int
	// MaxTotalBytes bounds the bytes of all files together (0:
	// DefaultMaxTotalBytes).
	MaxTotalBytes int64
	// TempDir is where the concatenation is spooled (os.TempDir() if empty).
	TempDir string
}

// FileInfo is one file of a composite context.
type FileInfo struct {
	// Name is the file's path as given, or for a file found in a directory
	// the directory as given joined with the path below it, with slashes.
	Name string `json:"name"`
	// Offset and Bytes locate the file's text in the composite context.
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	// Line is the line of the composite context on which the file starts.
	Line int64 `json:"line"`
	// Handle is a sub-context holding just this file.
	Handle Handle `json:"handle"`
	// Pages counts the pages of a PDF (its text is in the context; see
	// Metadata.Pages).
	Pages int `json:"pages,omitempty"`
}

// fileAt returns the file of files holding byte offset pos of the composite
// context, or nil.
func fileAt(files []FileInfo, pos int64) *FileInfo {
	i := sort.Search(len(files), func(i int) bool { return files[i].Offset > pos }) - 1
	if i < 0 {
		return nil
	}
	return &files[i]
}

// AddFiles registers the files at paths as one composite context of kind
// "files" named name. A path naming a directory stands for the regular
// files below it, walked recursively; entries whose name starts with "."
// (.git, .env, ...) and symbolic links are not followed, and files whose
// first 8000 bytes hold a NUL byte are skipped as binary (counted in
// Metadata.Skipped). Files named directly are always included. The files
// are ordered by Name (duplicates once) and concatenated, each followed by
// a newline if it does not end in one, into a temporary file that is
// memory-mapped and removed at once; Metadata.Files lists them with a
// sub-context handle each, and search matches name the file they are in.
//
// More than MaxFiles files fails with Kind too_many_files, more than
// MaxTotalBytes with context_too_large, no file at all with no_files; a
// path that cannot be read with io_error.
func (s *Store) AddFiles(ctx context.Context, name string, paths []string, opt FilesOptions) (Handle, error) {
	maxFiles, maxBytes := opt.MaxFiles, opt.MaxTotalBytes
	if maxFiles <= 0 {
		maxFiles = DefaultMaxFiles
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxTotalBytes
	}
	type cand struct {
		name, path string
		walked     bool
	}
	var cands []cand
	seen := map[string]int{} // name -> index in cands: a file reached twice counts once
	tooMany := func() error {
		return newErr(KindTooManyFiles, "too many files for one context").With("max_files", maxFiles).
			WithHint("name fewer files or a smaller directory")
	}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return Handle{}, ctxErr(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read context path").With("path", p)
		}
		if !fi.IsDir() {
			name := filepath.ToSlash(filepath.Clean(p))
			if i, ok := seen[name]; ok {
				cands[i].path, cands[i].walked = p, false // kept as named
				continue
			}
			seen[name] = len(cands)
			cands = append(cands, cand{name: name, path: p})
			if len(cands) > maxFiles {
				return Handle{}, tooMany()
			}
			continue
		}
		root := p
		if li, err := os.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			// A named link to a directory is followed (only links found
			// inside the walk are not): WalkDir follows a root ending in a
			// separator.
			root = p + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path != root && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			name := filepath.ToSlash(path)
			if _, ok := seen[name]; ok {
				return ctx.Err()
			}
			seen[name] = len(cands)
			cands = append(cands, cand{name: name, path: path, walked: true})
			if len(cands) > maxFiles {
				return tooMany()
			}
			return ctx.Err()
		})
		if err != nil {
			if fault.As(err) != nil {
				return Handle{}, err
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return Handle{}, ctxErr(err)
			}
			return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot walk directory").With("path", p)
		}
	}
	// A file both named and found in a directory is kept as named (never
	// skipped as binary), whatever the order of the paths.
	slices.SortStableFunc(cands, func(a, b cand) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		switch {
		case a.walked == b.walked:
			return 0
		case b.walked:
			return -1
		}
		return 1
	})
	cands = slices.CompactFunc(cands, func(a, b cand) bool { return a.name == b.name })

	f, err := os.CreateTemp(opt.TempDir, "rlm-files-*")
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot create spool file").
			With("dir", spoolDir(opt.TempDir)).WithHint("set TMPDIR to a writable directory")
	}
	spool := f.Name()
	defer os.Remove(spool)
	defer f.Close()
	var files []FileInfo
	var pages []PageInfo
	var total, lines int64
	skipped := 0
	buf := make([]byte, spoolChunk) // one copy buffer for all the files
	for _, c := range cands {
		info, skip, err := s.appendFile(ctx, f, c.name, c.path, c.walked, maxBytes-total, buf)
		if err != nil {
			if fault.KindOf(err) == KindContextTooLarge {
				err = fault.As(err).With("max_total_bytes", maxBytes).With("path", c.path)
			}
			return Handle{}, err
		}
		if skip {
			skipped++
			continue
		}
		info.Name, info.Offset, info.Line = c.name, total, lines+1
		for _, p := range info.pages {
			p.Offset += total
			p.Line += lines
			pages = append(pages, p)
		}
		info.Pages = len(info.pages)
		total += info.Bytes + info.sep
		lines += info.lines
		files = append(files, info.FileInfo)
	}
	if len(files) == 0 {
		return Handle{}, newErr(KindNoFiles, "no files to add").With("paths", paths).With("skipped", skipped).
			WithHint("name a text file or a directory holding some (hidden and binary files in directories are skipped)")
	}
	if err := f.Close(); err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "spooling the files failed")
	}
	b, rd, err := mapFile(spool)
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot map spool file")
	}
	return s.addComposite(name, b, rd, files, pages, skipped)
}

// fileCopy is what appendFile learned about one file.
type fileCopy struct {
	FileInfo
	lines int64      // lines of the file
	sep   int64      // 1 if a newline was added after it
	pages []PageInfo // a PDF's pages, offsets relative to the file
}

// appendFile appends the file at path to w, followed by a newline if it
// does not end in one, and counts its lines. A PDF is appended as the text
// of its pages (see layoutPDF), listed in fileCopy.pages. With sniff set a
// file whose first binarySniff bytes hold a NUL is skipped (nothing
// written). More than room bytes fails with Kind context_too_large.
func (s *Store) appendFile(ctx context.Context, w io.Writer, name, path string, sniff bool, room int64, buf []byte) (fileCopy, bool, error) {
	var fc fileCopy
	src, err := Open(ctx, path)
	if err != nil {
		if fault.As(err) != nil {
			return fc, false, err
		}
		return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot open file").With("path", path)
	}
	defer src.Close()
	head := make([]byte, binarySniff)
	hn, err := io.ReadFull(src, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read file").With("path", path)
	}
	head = head[:hn]
	tooLarge := func() error {
		return newErr(KindContextTooLarge, "files exceed the context size limit").
			WithHint("name fewer or smaller files")
	}
	if pdfreader.IsPDF(head) {
		pages, pf, err := s.readPDF(ctx, path, head, src)
		if err != nil {
			return fc, false, err
		}
		lt := layoutPDF(name, pages)
		lt.source(pf)
		fc.pages = lt.pages
		r := bytes.NewReader(lt.text)
		if int64(len(lt.text)) > room {
			return fc, false, tooLarge()
		}
		if _, err := r.WriteTo(w); err != nil {
			return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "spooling the files failed")
		}
		fc.Bytes, fc.lines = int64(len(lt.text)), lt.lines
		if len(lt.text) > 0 && lt.text[len(lt.text)-1] != '\n' {
			if fc.Bytes+1 > room {
				return fc, false, tooLarge()
			}
			if _, err := w.Write(nl); err != nil {
				return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "spooling the files failed")
			}
			fc.lines++
			fc.sep = 1
		}
		return fc, false, nil
	}
	if sniff && bytes.IndexByte(head, 0) >= 0 {
		return fc, true, nil
	}
	r := io.MultiReader(bytes.NewReader(head), src)
	var last byte
	n, err := copyCtxBuf(ctx, w, io.LimitReader(r, room+1), buf, func(b []byte) {
		fc.lines += int64(bytes.Count(b, nl))
		last = b[len(b)-1]
	})
	if err != nil {
		if fault.As(err) != nil {
			return fc, false, err
		}
		return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot copy file").With("path", path)
	}
	if n > room {
		return fc, false, tooLarge()
	}
	fc.Bytes = n
	if n > 0 && last != '\n' {
		if n+1 > room {
			return fc, false, tooLarge()
		}
		if _, err := w.Write(nl); err != nil {
			return fc, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "spooling the files failed")
		}
		fc.lines++
		fc.sep = 1
	}
	return fc, false, nil
}

// addComposite registers data as a composite context with a sub-context per
// file.
func (s *Store) addComposite(name string, data []byte, rd *os.File, files []FileInfo, pages []PageInfo, skipped int) (Handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = unmapFile(data, rd)
		return Handle{}, newErr(KindStoreClosed, "store is closed")
	}
	now := time.Now()
	s.seq++
	root := &entry{
		h: Handle{ID: idString(s.seq), Version: 1}, kind: TextKindFiles, data: data,
		back: fileBacking(data, rd), created: now, name: name,
		files: files, skipped: skipped, pages: pages,
	}
	root.back.refs = 1
	s.entries[s.seq] = root
	for i := range files {
		fi := &files[i]
		lo, hi := fi.Offset, fi.Offset+fi.Bytes
		s.seq++
		e := &entry{
			h: Handle{ID: idString(s.seq), Version: 1}, kind: TextKindSub, data: data[lo:hi:hi],
			back: root.back, created: now, name: fi.Name, parent: root.h, offset: lo,
			files: files, pages: pages, base: lo,
		}
		root.back.refs++
		s.entries[s.seq] = e
		fi.Handle = e.h
	}
	s.addPageSubs(root, pages, now)
	return root.h, nil
}
