// Package workspace confines file access to one directory chosen by the
// host.
//
// A Root accepts only relative, slash-separated paths: no leading "/", no
// backslash, no NUL byte, no "." or ".." segment, no empty segment. Symbolic
// links are followed only while they stay inside the workspace, and every
// access goes through an os.Root so a link swapped in after the check still
// cannot escape. Reads and writes touch regular files only, and a regular
// file with more than one hard link (which may be an outside file linked in)
// is refused for writes and, unless Options.AllowHardLinkReads, for reads.
// Writes go to a temporary file in the same directory that is then renamed
// over the target, so no existing inode is ever written. Every refusal is
// a *fault.Error with Kind confinement_denied and a "reason" detail; the
// message never includes host paths.
package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/rlm-go/rlm/fault"
)

// PhaseWorkspace is the phase of errors from this package.
const PhaseWorkspace fault.Phase = "workspace"

// Error kinds reported by this package.
const (
	KindConfinementDenied fault.Kind = "confinement_denied"
)

// Reasons carried in the "reason" detail of confinement_denied errors.
const (
	ReasonEmpty         = "empty_path"
	ReasonAbsolute      = "absolute_path"
	ReasonBackslash     = "backslash"
	ReasonNUL           = "nul_byte"
	ReasonDotSegment    = "dot_segment"
	ReasonParent        = "parent_segment"
	ReasonEmptySegment  = "empty_segment"
	ReasonTooLong       = "path_too_long"
	ReasonSymlinkEscape = "symlink_escape"
	ReasonSymlinkBroken = "symlink_unresolvable"
	ReasonNotRegular    = "not_regular_file"
	ReasonNotDirectory  = "not_directory"
	ReasonEscape        = "escape"
	ReasonHardLink      = "hard_link"
)

// MaxPathBytes bounds the length of a relative path.
const MaxPathBytes = 4096

func denied(reason string) error {
	return fault.New(PhaseWorkspace, KindConfinementDenied, "path is outside the workspace or not allowed").With("reason", reason)
}

// CheckPath validates rel lexically and returns it unchanged when it is an
// acceptable workspace-relative path. The single path "." names the
// workspace root itself and is accepted only when allowRoot is true. It
// never touches the filesystem.
func CheckPath(rel string, allowRoot bool) error {
	switch {
	case rel == "":
		return denied(ReasonEmpty)
	case len(rel) > MaxPathBytes:
		return denied(ReasonTooLong)
	case strings.IndexByte(rel, 0) >= 0:
		return denied(ReasonNUL)
	case strings.IndexByte(rel, '\\') >= 0:
		return denied(ReasonBackslash)
	case rel[0] == '/' || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "":
		return denied(ReasonAbsolute)
	case rel == ".":
		if allowRoot {
			return nil
		}
		return denied(ReasonDotSegment)
	}
	for seg := range strings.SplitSeq(rel, "/") {
		switch seg {
		case "":
			return denied(ReasonEmptySegment)
		case ".":
			return denied(ReasonDotSegment)
		case "..":
			return denied(ReasonParent)
		}
	}
	return nil
}

// Root is an open workspace directory. It is safe for concurrent use.
type Root struct {
	real string
	root *os.Root
	opts Options
}

// Options configures a workspace.
type Options struct {
	// AllowHardLinkReads lets ReadFile read regular files that have more
	// than one hard link. Writes to such files are always refused.
	AllowHardLinkReads bool
}

// Open opens dir as a workspace with the default Options. dir must exist
// and be a directory.
func Open(dir string) (*Root, error) { return OpenWith(dir, Options{}) }

// OpenWith opens dir as a workspace with opts.
func OpenWith(dir string, opts Options) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "cannot resolve workspace directory")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fault.Wrap(err, PhaseWorkspace, fault.KindNotFound, "workspace directory does not exist")
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "cannot open workspace directory")
	}
	return &Root{real: real, root: r, opts: opts}, nil
}

// Dir returns the absolute, symlink-free host path of the workspace.
func (r *Root) Dir() string { return r.real }

// Close releases the workspace directory handle.
func (r *Root) Close() error { return r.root.Close() }

// Resolve checks rel (see CheckPath) and every existing component of it:
// a symbolic link must resolve to a location inside the workspace. It
// returns the cleaned relative path.
func (r *Root) Resolve(rel string, allowRoot bool) (string, error) {
	if err := CheckPath(rel, allowRoot); err != nil {
		return "", err
	}
	if rel == "." {
		return rel, nil
	}
	cur := r.real
	for seg := range strings.SplitSeq(rel, "/") {
		next := filepath.Join(cur, seg)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return rel, nil // nothing further to follow
		}
		if err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return "", fault.Wrap(err, PhaseWorkspace, fault.KindIO, "permission denied")
			}
			// ENOTDIR and friends: a non-directory in the middle of the path.
			return "", denied(ReasonNotDirectory)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := filepath.EvalSymlinks(next)
		if err != nil {
			return "", denied(ReasonSymlinkBroken)
		}
		if !within(r.real, target) {
			return "", denied(ReasonSymlinkEscape)
		}
		cur = target
	}
	return rel, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// classify maps an os.Root failure to a structured error.
func classify(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fault.Wrap(err, PhaseWorkspace, fault.KindNotFound, "no such file in the workspace")
	case errors.Is(err, fs.ErrPermission):
		return fault.Wrap(err, PhaseWorkspace, fault.KindIO, "permission denied")
	}
	// os.Root reports escapes (including absolute symlinks) with an
	// unexported error; anything else unexpected is refused the same way.
	return denied(ReasonEscape)
}

// requireRegular refuses anything but a regular file (after following
// in-workspace links) before it is opened, so that opening a FIFO or device
// can never block or have side effects.
func (r *Root) requireRegular(rel string) error {
	fi, err := r.root.Stat(rel)
	if err != nil {
		return classify(err)
	}
	if !fi.Mode().IsRegular() {
		return denied(ReasonNotRegular)
	}
	return nil
}

// linkCount returns the number of hard links of fi (1 when the platform
// does not say).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// hardLinked refuses a regular file with more than one hard link: the other
// name may be outside the workspace.
func hardLinked(fi fs.FileInfo) error {
	if fi.Mode().IsRegular() && linkCount(fi) > 1 {
		return fault.New(PhaseWorkspace, KindConfinementDenied, "path is outside the workspace or not allowed").With("reason", ReasonHardLink).WithHint("the file has several hard links and may be shared with a file outside the workspace; copy it instead of linking it")
	}
	return nil
}

// File is the content of a regular file read from the workspace.
type File struct {
	Path      string `json:"path"`
	Content   string `json:"content"`
	Bytes     int64  `json:"bytes" jsonschema:"minimum=0"`
	Truncated bool   `json:"truncated"`
}

// ReadFile reads at most maxBytes of the regular file rel. Bytes is the
// full size of the file; Truncated reports whether Content was cut.
func (r *Root) ReadFile(rel string, maxBytes int64) (File, error) {
	rel, err := r.Resolve(rel, false)
	if err != nil {
		return File{}, err
	}
	if err := r.requireRegular(rel); err != nil {
		return File{}, err
	}
	f, err := r.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return File{}, classify(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, classify(err)
	}
	if !fi.Mode().IsRegular() {
		return File{}, denied(ReasonNotRegular)
	}
	if !r.opts.AllowHardLinkReads {
		if err := hardLinked(fi); err != nil {
			return File{}, err
		}
	}
	buf, err := io.ReadAll(io.LimitReader(f, maxBytes))
	if err != nil {
		return File{}, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "read failed")
	}
	return File{Path: rel, Content: string(buf), Bytes: fi.Size(), Truncated: fi.Size() > int64(len(buf))}, nil
}

// Entry is one directory entry.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"enum=file|dir|symlink|other"`
	Size int64  `json:"size" jsonschema:"minimum=0"`
}

// Listing is the content of a workspace directory, sorted by name.
type Listing struct {
	Path      string  `json:"path"`
	Entries   []Entry `json:"entries"`
	Truncated bool    `json:"truncated"`
}

// List returns at most maxEntries entries of the directory rel ("." for the
// workspace root), sorted by name.
func (r *Root) List(rel string, maxEntries int) (Listing, error) {
	rel, err := r.Resolve(rel, true)
	if err != nil {
		return Listing{}, err
	}
	f, err := r.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Listing{}, classify(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Listing{}, classify(err)
	}
	if !fi.IsDir() {
		return Listing{}, denied(ReasonNotDirectory)
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		return Listing{}, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "list failed")
	}
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	out := Listing{Path: rel, Entries: make([]Entry, 0, min(len(des), maxEntries))}
	for i, de := range des {
		if i >= maxEntries {
			out.Truncated = true
			break
		}
		e := Entry{Name: de.Name(), Type: "other"}
		switch t := de.Type(); {
		case t.IsRegular():
			e.Type = "file"
			if info, err := de.Info(); err == nil {
				e.Size = info.Size()
			}
		case t.IsDir():
			e.Type = "dir"
		case t&fs.ModeSymlink != 0:
			e.Type = "symlink"
		}
		out.Entries = append(out.Entries, e)
	}
	return out, nil
}

// Written describes a completed write.
type Written struct {
	Path    string `json:"path"`
	Bytes   int64  `json:"bytes" jsonschema:"minimum=0"`
	Created bool   `json:"created"`
}

// CheckWritable resolves rel for writing: it must not name the root, an
// existing non-regular file, an existing file with more than one hard
// link, or lie in a missing directory. It reports whether the file already
// exists.
func (r *Root) CheckWritable(rel string) (string, bool, error) {
	rel, err := r.Resolve(rel, false)
	if err != nil {
		return "", false, err
	}
	fi, err := r.root.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if dir := filepathDir(rel); dir != "." {
			di, err := r.root.Stat(dir)
			if err != nil {
				return "", false, classify(err)
			}
			if !di.IsDir() {
				return "", false, denied(ReasonNotDirectory)
			}
		}
		return rel, false, nil
	case err != nil:
		return "", false, classify(err)
	case !fi.Mode().IsRegular():
		return "", false, denied(ReasonNotRegular)
	}
	if err := hardLinked(fi); err != nil {
		return "", false, err
	}
	return rel, true, nil
}

func filepathDir(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return "."
	}
	return rel[:i]
}

// WriteFile replaces (or creates) the regular file rel with content. The
// parent directory must exist. The content is written to a temporary file
// in the same directory, which is then renamed over rel (through an
// in-workspace symbolic link, over the link's target): the replacement is
// atomic, and an existing inode (which a hard link may share with a file
// outside the workspace) is never opened for writing. An existing file
// keeps its permission bits.
func (r *Root) WriteFile(rel string, content []byte) (Written, error) {
	rel, existed, err := r.CheckWritable(rel)
	if err != nil {
		return Written{}, err
	}
	target, perm, err := r.writeTarget(rel, existed)
	if err != nil {
		return Written{}, err
	}
	tmp, f, err := r.createTemp(filepathDir(target), perm)
	if err != nil {
		return Written{}, err
	}
	fail := func(err error) (Written, error) {
		f.Close()
		_ = r.root.Remove(tmp)
		return Written{}, err
	}
	if existed {
		if err := f.Chmod(perm); err != nil {
			return fail(fault.Wrap(err, PhaseWorkspace, fault.KindIO, "write failed"))
		}
	}
	if _, err := f.Write(content); err != nil {
		return fail(fault.Wrap(err, PhaseWorkspace, fault.KindIO, "write failed"))
	}
	if err := f.Sync(); err != nil {
		return fail(fault.Wrap(err, PhaseWorkspace, fault.KindIO, "write failed"))
	}
	if err := f.Close(); err != nil {
		_ = r.root.Remove(tmp)
		return Written{}, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "write failed")
	}
	if err := r.root.Rename(tmp, target); err != nil {
		_ = r.root.Remove(tmp)
		return Written{}, classify(err)
	}
	return Written{Path: rel, Bytes: int64(len(content)), Created: !existed}, nil
}

// writeTarget returns the workspace-relative name the write replaces: rel,
// or the in-workspace target when rel is a symbolic link, and the
// permission bits to give the new file.
func (r *Root) writeTarget(rel string, existed bool) (string, fs.FileMode, error) {
	if !existed {
		return rel, 0o644, nil
	}
	li, err := r.root.Lstat(rel)
	if err != nil {
		return "", 0, classify(err)
	}
	target := rel
	if li.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(filepath.Join(r.real, filepath.FromSlash(rel)))
		if err != nil {
			return "", 0, denied(ReasonSymlinkBroken)
		}
		if !within(r.real, real) {
			return "", 0, denied(ReasonSymlinkEscape)
		}
		t, err := filepath.Rel(r.real, real)
		if err != nil || t == "." {
			return "", 0, denied(ReasonEscape)
		}
		target = filepath.ToSlash(t)
	}
	fi, err := r.root.Lstat(target)
	if err != nil {
		return "", 0, classify(err)
	}
	if !fi.Mode().IsRegular() {
		return "", 0, denied(ReasonNotRegular)
	}
	if err := hardLinked(fi); err != nil {
		return "", 0, err
	}
	return target, fi.Mode().Perm(), nil
}

// tempPrefix starts the names of WriteFile's temporary files.
const tempPrefix = ".rlm-write-"

// createTemp creates a new, exclusive temporary file in dir.
func (r *Root) createTemp(dir string, perm fs.FileMode) (string, *os.File, error) {
	for range 100 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", nil, fault.Wrap(err, PhaseWorkspace, fault.KindIO, "cannot name a temporary file")
		}
		name := tempPrefix + hex.EncodeToString(b[:])
		if dir != "." {
			name = dir + "/" + name
		}
		f, err := r.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", nil, classify(err)
		}
		return name, f, nil
	}
	return "", nil, fault.New(PhaseWorkspace, fault.KindIO, "cannot create a temporary file")
}
