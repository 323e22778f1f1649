// Package os is code mode's os and os.path modules. Code mode has no
// file system, no environment and no processes: os has the constants
// (sep, linesep, name, ...) and fspath, and refuses everything that would
// touch the system with a hint; os.path has the pure path functions of
// posixpath (join, split, basename, dirname, splitext, normpath, isabs,
// commonprefix, commonpath, relpath and abspath of absolute paths, ...),
// for str and bytes, and refuses the functions that ask the file system.
package os

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes os and os.path importable.
func Register() {
	python.Setup()
	python.RegisterModule("os", loadOS)
	python.RegisterModule("os.path", loadPath)
	python.RegisterModule("posixpath", loadPath)
}

const noFS = "code mode has no file system: the data is in `context` (slice it, search it, or use re on it)"

var refusedOS = map[string]string{
	"getcwd": noFS, "getcwdb": noFS, "chdir": noFS, "listdir": noFS, "scandir": noFS, "walk": noFS, "fwalk": noFS,
	"stat": noFS, "lstat": noFS, "open": noFS, "remove": noFS, "unlink": noFS, "rmdir": noFS, "removedirs": noFS,
	"mkdir": noFS, "makedirs": noFS, "rename": noFS, "renames": noFS, "replace": noFS, "link": noFS, "symlink": noFS,
	"readlink": noFS, "access": noFS, "chmod": noFS, "chown": noFS, "utime": noFS, "truncate": noFS, "fdopen": noFS,
	"read": noFS, "write": noFS, "close": noFS, "pipe": noFS, "dup": noFS, "dup2": noFS, "lseek": noFS, "fsync": noFS,
	"getenv":            "code mode has no environment; pass values in the code",
	"putenv":            "code mode has no environment",
	"unsetenv":          "code mode has no environment",
	"getenvb":           "code mode has no environment",
	"environ":           "code mode has no environment; pass values in the code",
	"environb":          "code mode has no environment",
	"system":            "code mode runs no processes",
	"popen":             "code mode runs no processes",
	"spawnl":            "code mode runs no processes",
	"spawnv":            "code mode runs no processes",
	"execv":             "code mode runs no processes",
	"execl":             "code mode runs no processes",
	"fork":              "code mode runs no processes",
	"kill":              "code mode runs no processes",
	"getpid":            "code mode runs in no process of its own",
	"getppid":           "code mode runs in no process of its own",
	"getuid":            "code mode runs in no process of its own",
	"getlogin":          "code mode runs in no process of its own",
	"uname":             "code mode does not describe its host",
	"cpu_count":         "code mode does not describe its host",
	"times":             "code mode has no clock",
	"urandom":           "code mode has no entropy; use random with a seed",
	"getrandom":         "code mode has no entropy; use random with a seed",
	"umask":             noFS,
	"get_terminal_size": "code mode has no terminal",
	"add_dll_directory": noFS,
}

func loadOS(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("os")
	consts := map[string]string{"sep": "/", "linesep": "\n", "pathsep": ":", "curdir": ".", "pardir": "..", "extsep": ".", "devnull": "/dev/null", "name": "posix", "defpath": "/bin:/usr/bin"}
	for k, v := range consts {
		m.Set(k, python.NewStr(v))
	}
	m.Set("altsep", python.None)
	m.Set("supports_bytes_environ", python.True)
	m.Func("fspath", fspath)
	m.SetGetattr(func(t *python.Thread, name string) (python.Object, error) {
		if name == "path" {
			return t.Interp().Import(t, "os.path")
		}
		if hint, ok := refusedOS[name]; ok {
			return nil, python.NotSupported("os."+name, hint)
		}
		return nil, nil
	})
	return m, nil
}

// fspath is os.fspath(path).
func fspath(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		if len(kwargs) > 0 && kwargs[0].Name == "path" && len(args) == 0 {
			args = []python.Object{kwargs[0].Value}
		} else {
			return nil, python.Errorf(python.TypeErrorType, "fspath() takes exactly one argument (%d given)", len(args)+len(kwargs))
		}
	}
	x := args[0]
	if python.IsStr(x) {
		return x, nil
	}
	if _, ok := python.Unwrap(x).(*python.Bytes); ok {
		return x, nil
	}
	if ok, _ := python.HasAttr(t, x, "__fspath__"); ok {
		r, err := python.CallMethod(t, x, "__fspath__", nil, nil)
		if err != nil {
			return nil, err
		}
		if python.IsStr(r) {
			return r, nil
		}
		if _, ok := r.(*python.Bytes); ok {
			return r, nil
		}
		return nil, python.Errorf(python.TypeErrorType, "expected %s.__fspath__() to return str or bytes, not %s", python.TypeName(x), python.TypeName(r))
	}
	return nil, python.Errorf(python.TypeErrorType, "expected str, bytes or os.PathLike object, not %s", python.TypeName(x))
}

// pathArg is one path argument: its text and whether it is bytes.
type pathArg struct {
	s     string
	bytes bool
}

func (p pathArg) obj(s string) python.Object {
	if p.bytes {
		return python.NewBytes(s)
	}
	return python.NewStr(s)
}

// toPath converts an argument as os.fspath does; fn, when not empty,
// names the function in the error ("join() argument must be ...").
func toPath(t *python.Thread, x python.Object, fn string) (pathArg, error) {
	r, err := fspath(t, []python.Object{x}, nil)
	if err != nil {
		if fn != "" && python.IsInstance(err, python.TypeErrorType) {
			return pathArg{}, python.Errorf(python.TypeErrorType, "%s() argument must be str, bytes, or os.PathLike object, not '%s'", fn, python.TypeName(x))
		}
		return pathArg{}, err
	}
	if b, ok := python.Unwrap(r).(*python.Bytes); ok {
		return pathArg{s: b.String(), bytes: true}, nil
	}
	s, err := python.StrOf(t, r)
	return pathArg{s: s}, err
}

func mixErr() error {
	return python.Errorf(python.TypeErrorType, "Can't mix strings and bytes in path components")
}

func loadPath(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("posixpath")
	consts := map[string]string{"sep": "/", "pathsep": ":", "curdir": ".", "pardir": "..", "extsep": ".", "devnull": "/dev/null", "defpath": "/bin:/usr/bin"}
	for k, v := range consts {
		m.Set(k, python.NewStr(v))
	}
	m.Set("altsep", python.None)
	m.Set("supports_unicode_filenames", python.False)
	one := func(name string, f func(p pathArg) python.Object) {
		m.Func(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			v, err := pyArgs(name, []string{"p"}, 1, args, kwargs)
			if err != nil {
				return nil, err
			}
			p, err := toPath(t, v[0], "")
			if err != nil {
				return nil, err
			}
			return f(p), nil
		})
	}
	one("basename", func(p pathArg) python.Object { return p.obj(p.s[strings.LastIndexByte(p.s, '/')+1:]) })
	one("dirname", func(p pathArg) python.Object {
		head, _ := split(p.s)
		return p.obj(head)
	})
	one("split", func(p pathArg) python.Object {
		head, tail := split(p.s)
		return python.NewTuple([]python.Object{p.obj(head), p.obj(tail)})
	})
	one("splitext", func(p pathArg) python.Object {
		root, ext := splitext(p.s)
		return python.NewTuple([]python.Object{p.obj(root), p.obj(ext)})
	})
	one("splitdrive", func(p pathArg) python.Object {
		return python.NewTuple([]python.Object{p.obj(""), p.obj(p.s)})
	})
	one("splitroot", func(p pathArg) python.Object {
		s := p.s
		var root string
		switch {
		case !strings.HasPrefix(s, "/"):
		case !strings.HasPrefix(s, "//") || strings.HasPrefix(s, "///"):
			root, s = "/", s[1:]
		default:
			root, s = "//", s[2:]
		}
		return python.NewTuple([]python.Object{p.obj(""), p.obj(root), p.obj(s)})
	})
	one("normpath", func(p pathArg) python.Object { return p.obj(normpath(p.s)) })
	one("normcase", func(p pathArg) python.Object { return p.obj(p.s) })
	one("isabs", func(p pathArg) python.Object { return python.MakeBool(strings.HasPrefix(p.s, "/")) })
	m.Func("join", join)
	m.Func("commonprefix", commonprefix)
	m.Func("commonpath", commonpath)
	m.Func("abspath", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("abspath", []string{"path"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		p, err := toPath(t, v[0], "")
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(p.s, "/") {
			return nil, python.NotSupported("os.path.abspath of a relative path", "code mode has no working directory; use os.path.normpath")
		}
		return p.obj(normpath(p.s)), nil
	})
	m.Func("relpath", relpath)
	for name, hint := range refusedPath {
		name, hint := name, hint
		m.Func(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("os.path."+name, hint)
		})
	}
	return m, nil
}

var refusedPath = map[string]string{
	"exists": noFS, "lexists": noFS, "isfile": noFS, "isdir": noFS, "islink": noFS, "ismount": noFS, "isjunction": noFS,
	"getsize": noFS, "getmtime": noFS, "getatime": noFS, "getctime": noFS, "realpath": noFS, "samefile": noFS,
	"sameopenfile": noFS, "samestat": noFS,
	"expanduser": "code mode has no home directory",
	"expandvars": "code mode has no environment",
}

// pyArgs binds the arguments of a function CPython defines in Python.
func pyArgs(name string, params []string, required int, args []python.Object, kwargs []python.Kwarg) ([]python.Object, error) {
	if len(args) > len(params) {
		takes := itoa(len(params))
		if required < len(params) {
			takes = "from " + itoa(required) + " to " + itoa(len(params))
		}
		word := "arguments"
		if len(params) == 1 && required == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", name, takes, word, len(args), was)
	}
	out := make([]python.Object, len(params))
	copy(out, args)
	for _, kw := range kwargs {
		i := -1
		for k, p := range params {
			if p == kw.Name {
				i = k
			}
		}
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if out[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		out[i] = kw.Value
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", name, params[i])
		}
	}
	return out, nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// split is posixpath.split.
func split(p string) (string, string) {
	i := strings.LastIndexByte(p, '/') + 1
	head, tail := p[:i], p[i:]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head, tail
}

// splitext is genericpath._splitext for '/' and '.'.
func splitext(p string) (string, string) {
	sep := strings.LastIndexByte(p, '/')
	dot := strings.LastIndexByte(p, '.')
	if dot > sep {
		for i := sep + 1; i < dot; i++ {
			if p[i] != '.' {
				return p[:dot], p[dot:]
			}
		}
	}
	return p, ""
}

// normpath is posixpath.normpath.
func normpath(p string) string {
	if p == "" {
		return "."
	}
	initial := 0
	if strings.HasPrefix(p, "/") {
		initial = 1
		if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
			initial = 2
		}
	}
	var comps []string
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." {
			continue
		}
		if c != ".." || initial == 0 && len(comps) == 0 || len(comps) > 0 && comps[len(comps)-1] == ".." {
			comps = append(comps, c)
		} else if len(comps) > 0 {
			comps = comps[:len(comps)-1]
		}
	}
	out := strings.Repeat("/", initial) + strings.Join(comps, "/")
	if out == "" {
		return "."
	}
	return out
}

// join is posixpath.join(a, *p).
func join(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "join() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	if len(args) == 0 {
		return nil, python.Errorf(python.TypeErrorType, "join() missing 1 required positional argument: 'a'")
	}
	first, err := toPath(t, args[0], "")
	if err != nil {
		return nil, err
	}
	path := first.s
	for _, a := range args[1:] {
		b, err := toPath(t, a, "join")
		if err != nil {
			return nil, err
		}
		if b.bytes != first.bytes {
			return nil, mixErr()
		}
		switch {
		case strings.HasPrefix(b.s, "/"):
			path = b.s
		case path == "" || strings.HasSuffix(path, "/"):
			path += b.s
		default:
			path += "/" + b.s
		}
		if err := t.CheckSize(int64(len(path))); err != nil {
			return nil, err
		}
	}
	return first.obj(path), nil
}

// commonprefix is os.path.commonprefix(m): the longest common prefix of
// the items (str, bytes, or any sequences, compared item by item).
func commonprefix(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("commonprefix", []string{"m"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	items, err := python.ToSlice(t, v[0])
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return python.NewStr(""), nil
	}
	switch python.Unwrap(items[0]).(type) {
	case *python.List, *python.Tuple:
	default:
		for i, it := range items {
			p, err := toPath(t, it, "")
			if err != nil {
				return nil, err
			}
			items[i] = p.obj(p.s)
		}
	}
	minFn, _ := t.Interp().Builtins().GetStr("min")
	maxFn, _ := t.Interp().Builtins().GetStr("max")
	lst := python.NewList(items)
	s1, err := python.Call(t, minFn, []python.Object{lst}, nil)
	if err != nil {
		return nil, err
	}
	s2, err := python.Call(t, maxFn, []python.Object{lst}, nil)
	if err != nil {
		return nil, err
	}
	n1, err := python.Len(t, s1)
	if err != nil {
		return nil, err
	}
	n2, err := python.Len(t, s2)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n1; i++ {
		if i >= n2 {
			break
		}
		a, err := python.GetItem(t, s1, python.MakeInt(int64(i)))
		if err != nil {
			return nil, err
		}
		b, err := python.GetItem(t, s2, python.MakeInt(int64(i)))
		if err != nil {
			return nil, err
		}
		eq, err := python.Equal(t, a, b)
		if err != nil {
			return nil, err
		}
		if !eq {
			return python.GetItem(t, s1, python.NewSliceObject(python.None, python.MakeInt(int64(i)), python.None))
		}
	}
	return s1, nil
}

// commonpath is os.path.commonpath(paths).
func commonpath(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("commonpath", []string{"paths"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	items, err := python.ToSlice(t, v[0])
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, python.Errorf(python.ValueErrorType, "commonpath() arg is an empty sequence")
	}
	paths := make([]pathArg, len(items))
	for i, it := range items {
		if paths[i], err = toPath(t, it, ""); err != nil {
			return nil, err
		}
		if paths[i].bytes != paths[0].bytes {
			return nil, mixErr()
		}
	}
	abs := strings.HasPrefix(paths[0].s, "/")
	var common []string
	for i, p := range paths {
		if strings.HasPrefix(p.s, "/") != abs {
			return nil, python.Errorf(python.ValueErrorType, "Can't mix absolute and relative paths")
		}
		var comps []string
		for _, c := range strings.Split(p.s, "/") {
			if c != "" && c != "." {
				comps = append(comps, c)
			}
		}
		if i == 0 {
			common = comps
			continue
		}
		k := 0
		for k < len(common) && k < len(comps) && common[k] == comps[k] {
			k++
		}
		common = common[:k]
	}
	prefix := ""
	if abs {
		prefix = "/"
	}
	return paths[0].obj(prefix + strings.Join(common, "/")), nil
}

// relpath is os.path.relpath(path, start=os.curdir) for absolute paths
// (a relative one needs the working directory code mode does not have).
func relpath(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("relpath", []string{"path", "start"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	p, err := toPath(t, v[0], "")
	if err != nil {
		return nil, err
	}
	if p.s == "" {
		return nil, python.Errorf(python.ValueErrorType, "no path specified")
	}
	start := pathArg{s: ".", bytes: p.bytes}
	if v[1] != nil && v[1] != python.None {
		if start, err = toPath(t, v[1], ""); err != nil {
			return nil, err
		}
		if start.bytes != p.bytes {
			return nil, mixErr()
		}
	}
	if !strings.HasPrefix(p.s, "/") || !strings.HasPrefix(start.s, "/") {
		return nil, python.NotSupported("os.path.relpath of a relative path", "code mode has no working directory; give absolute paths")
	}
	split := func(s string) []string {
		var out []string
		for _, c := range strings.Split(normpath(s), "/") {
			if c != "" {
				out = append(out, c)
			}
		}
		return out
	}
	a, b := split(start.s), split(p.s)
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	var rel []string
	for i := k; i < len(a); i++ {
		rel = append(rel, "..")
	}
	rel = append(rel, b[k:]...)
	if len(rel) == 0 {
		return p.obj("."), nil
	}
	return p.obj(strings.Join(rel, "/")), nil
}
