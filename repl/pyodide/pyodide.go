// Package pyodide runs code-mode cells in CPython compiled to WebAssembly
// (Pyodide) on Node.js, for users who need exact Python semantics.
//
// An Interp is one Node.js process running an embedded runner script over
// the npm package pyodide, which ships the interpreter and the standard
// library, so nothing is fetched at run time. The Go side and the runner
// speak a synchronous line protocol on the process's stdin and stdout:
// the Go side sends a cell; while the cell runs, every host builtin the
// code calls is a request line answered by the Go side before Python
// continues; the cell ends with a result line. The model's code therefore
// reaches the host only through the builtins the caller registers, as
// with the embedded interpreter: the process runs under Node.js's
// permission model (Node.js 20 or later; see Start), without code
// generation from strings, and the runner takes away what of Node.js the
// permission model leaves reachable from Python (runner.mjs).
//
// Its results are repl.Outcome values, so the engine drives either
// interpreter the same way.
//
// Bounds: wall time per cell, resident memory of the process (sampled from
// /proc), captured output, and recursion depth. CPython has no step
// counter, so step limits do not apply here; the wall-time bound takes
// their place. A cell that exceeds its wall time or memory bound, or whose
// context is cancelled, kills the process: the interpreter's state is lost
// and later Exec calls fail with kind interpreter_gone.
package pyodide

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/repl"
)

//go:embed runner.mjs
var runnerJS []byte

//go:embed prelude.py
var preludePy string

// Error kinds reported by this package.
const (
	// KindUnavailable: Node.js or the pyodide package cannot be found.
	KindUnavailable fault.Kind = "pyodide_unavailable"
	// KindInterpreterGone: the interpreter process died or was killed
	// (a bound was exceeded or the run was cancelled).
	KindInterpreterGone fault.Kind = "interpreter_gone"
	// KindProtocol: the runner sent something the protocol does not allow.
	KindProtocol fault.Kind = "protocol_error"
)

// Defaults of Config fields left zero.
const (
	DefaultCellTimeout    = 60 * time.Second
	DefaultStartTimeout   = 120 * time.Second
	DefaultMaxOutputBytes = 64 << 10
	DefaultMaxMemoryBytes = 2 << 30
	DefaultMaxRecursion   = 200
	// MaxLineBytes bounds one protocol line from the runner.
	MaxLineBytes = 64 << 20
)

// Config configures an interpreter.
type Config struct {
	// Node is the node executable. Default: "node" on PATH.
	Node string
	// PackageDir is the directory of the installed npm package pyodide
	// (it holds pyodide.mjs). Default: $RLM_PYODIDE_DIR, else
	// node_modules/pyodide under the working directory, else under
	// `npm root -g`.
	PackageDir string
	// CellTimeout bounds each cell's wall time.
	CellTimeout time.Duration
	// StartTimeout bounds the interpreter's start (loading Pyodide takes
	// seconds).
	StartTimeout time.Duration
	// MaxOutputBytes bounds the stdout kept per cell.
	MaxOutputBytes int
	// MaxMemoryBytes bounds the process's resident memory.
	MaxMemoryBytes int64
	// MaxRecursion bounds Python's call depth.
	MaxRecursion int
}

// Func is a host builtin. Arguments and results are JSON values (nil,
// bool, float64 or json.Number, string, []any, map[string]any). An error
// marked with repl.Fatal ends the cell and is returned by Exec; any other
// error is raised in Python as RuntimeError with the error's text.
type Func func(ctx context.Context, args []any, kwargs map[string]any) (any, error)

// Interp is one Pyodide interpreter process. Exec calls are serialized.
type Interp struct {
	cfg   Config
	funcs map[string]Func

	init string

	mu    sync.Mutex
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	dir   string
	dead  error
	waitc chan struct{}
}

// Start starts an interpreter with the given host builtins bound as
// Python functions of the same names, then runs host (Python source the
// caller supplies, such as wrapper classes over the builtins) in the user
// namespace, hidden from SHOW_VARS.
func Start(ctx context.Context, cfg Config, funcs map[string]Func, host string) (*Interp, error) {
	cfg = resolve(cfg)
	node, err := exec.LookPath(cfg.Node)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindUnavailable, "node is not installed").
			WithHint("install Node.js (Debian: apt-get install nodejs npm) or use the embedded interpreter")
	}
	cfg.Node = node
	pkg, err := packageDir(cfg.PackageDir)
	if err != nil {
		return nil, err
	}
	cfg.PackageDir = pkg
	if _, err := permissionFlag(cfg.Node); err != nil {
		return nil, err
	}
	names := append([]string{}, slices.Sorted(maps.Keys(funcs))...)
	namesJSON, _ := json.Marshal(names)
	init := preludePy + "\n_rlm_bind(" + string(namesJSON) + ")\n"
	if host != "" {
		hostJSON, _ := json.Marshal(host)
		init += "_rlm_define(" + string(hostJSON) + ")\n"
	}
	it := &Interp{cfg: cfg, funcs: funcs, init: init}
	if err := it.start(ctx); err != nil {
		return nil, err
	}
	return it, nil
}

// start launches the process and runs the prelude.
func (it *Interp) start(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "rlm-pyodide-")
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot create the runner's directory")
	}
	script := filepath.Join(dir, "runner.mjs")
	if err := os.WriteFile(script, runnerJS, 0o600); err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot write the runner script")
	}
	// The process outlives ctx (it is the interpreter of a whole loop);
	// Close ends it. Its environment is empty but for PATH and a HOME in
	// its own directory.
	perm, err := permissionFlag(it.cfg.Node)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	// Node's permission model confines the process: it reads only the
	// package and the runner, writes nothing, starts no process or
	// worker and loads no native code; eval and new Function are off
	// (runner.mjs says what else it takes away).
	readable := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	cmd := exec.Command(it.cfg.Node, "--max-old-space-size=512", "--no-warnings", "--disallow-code-generation-from-strings",
		perm, "--allow-fs-read="+readable(it.cfg.PackageDir)+string(filepath.Separator), "--allow-fs-read="+readable(script),
		script, it.cfg.PackageDir)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	in, err := cmd.StdinPipe()
	if err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot connect to the runner")
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot connect to the runner")
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, KindUnavailable, "cannot start node")
	}
	it.cmd, it.in, it.out, it.dir, it.dead = cmd, in, bufio.NewReaderSize(outPipe, 1<<16), dir, nil
	waitc := make(chan struct{})
	it.waitc = waitc
	go func() { _ = cmd.Wait(); close(waitc) }()

	sctx, cancel := context.WithTimeout(ctx, it.cfg.StartTimeout)
	defer cancel()
	fail := func(err error) error { it.stop(); return err }
	if err := it.send(map[string]any{"op": "init", "code": it.init}); err != nil {
		return fail(err)
	}
	msg, err := it.receive(sctx, nil)
	if err != nil {
		return fail(err)
	}
	if msg.Op != "ready" {
		return fail(fault.Newf(fault.PhaseExecute, KindProtocol, "runner answered %q to init", msg.Op))
	}
	if msg.Error != "" {
		return fail(fault.New(fault.PhaseConfig, KindUnavailable, "the prelude failed: "+clip(msg.Error, 500)))
	}
	return nil
}

func resolve(cfg Config) Config {
	if cfg.Node == "" {
		cfg.Node = "node"
	}
	if cfg.CellTimeout <= 0 {
		cfg.CellTimeout = DefaultCellTimeout
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.MaxOutputBytes <= 0 {
		cfg.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if cfg.MaxMemoryBytes <= 0 {
		cfg.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	if cfg.MaxRecursion <= 0 {
		cfg.MaxRecursion = DefaultMaxRecursion
	}
	return cfg
}

// permissionFlags caches permissionFlag by node executable.
var permissionFlags sync.Map

// permissionFlag returns the flag that turns on node's permission model:
// --permission from Node.js 22.13, --experimental-permission in 20.x and
// 21.x, Kind pyodide_unavailable before 20 (no permission model: the
// interpreter would not be confined).
func permissionFlag(node string) (string, error) {
	if f, ok := permissionFlags.Load(node); ok {
		return f.(string), nil
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "", fault.Wrap(err, fault.PhaseConfig, KindUnavailable, "cannot run node --version").
			WithHint("install Node.js 20 or later, or use the embedded interpreter")
	}
	v := strings.TrimSpace(string(out))
	var major, minor int
	if _, err := fmt.Sscanf(v, "v%d.%d", &major, &minor); err != nil || major < 20 {
		return "", fault.New(fault.PhaseConfig, KindUnavailable, "Node.js "+v+" has no permission model to confine the interpreter").
			With("node_version", v).WithHint("install Node.js 20 or later, or use the embedded interpreter")
	}
	flag := "--experimental-permission"
	if major > 22 || major == 22 && minor >= 13 {
		flag = "--permission"
	}
	permissionFlags.Store(node, flag)
	return flag, nil
}

// PackageDir returns the pyodide package directory Start would use, or a
// typed pyodide_unavailable error.
func PackageDir(dir string) (string, error) { return packageDir(dir) }

func packageDir(dir string) (string, error) {
	var candidates []string
	if dir != "" {
		candidates = append(candidates, dir)
	} else {
		if d := os.Getenv("RLM_PYODIDE_DIR"); d != "" {
			candidates = append(candidates, d)
		}
		if wd, err := os.Getwd(); err == nil {
			candidates = append(candidates, filepath.Join(wd, "node_modules", "pyodide"))
		}
		if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
			candidates = append(candidates, filepath.Join(strings.TrimSpace(string(out)), "pyodide"))
		}
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, "pyodide.mjs")); err == nil {
			abs, err := filepath.Abs(c)
			if err == nil {
				return abs, nil
			}
		}
	}
	return "", fault.New(fault.PhaseConfig, KindUnavailable, "the npm package pyodide is not installed").
		With("searched", candidates).
		WithHint("run `npm install pyodide` (or `npm install -g pyodide`), or set RLM_PYODIDE_DIR to its directory")
}

// message is one line from the runner.
type message struct {
	Op      string          `json:"op"`
	Error   string          `json:"error,omitempty"`
	Request string          `json:"request,omitempty"`
	Result  string          `json:"result,omitempty"`
	Raw     json.RawMessage `json:"-"`
}

func (it *Interp) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "cannot encode a protocol message")
	}
	b = append(b, '\n')
	if _, err := it.in.Write(b); err != nil {
		return it.gone(err)
	}
	return nil
}

// gone marks the interpreter dead and returns the typed error.
func (it *Interp) gone(cause error) error {
	if it.dead == nil {
		it.dead = fault.Wrap(cause, fault.PhaseExecute, KindInterpreterGone, "the Pyodide interpreter is no longer running").
			WithHint("a bound was exceeded or the run was cancelled; start a new run")
	}
	return it.dead
}

// receive reads the next line, serving host calls with the given handler
// while waiting (nil: a call is a protocol error). It gives up when ctx
// ends, killing the process.
func (it *Interp) receive(ctx context.Context, serve func(req string) any) (message, error) {
	type line struct {
		b   []byte
		err error
	}
	for {
		lc := make(chan line, 1)
		go func() {
			b, err := readLine(it.out)
			lc <- line{b, err}
		}()
		var l line
		select {
		case l = <-lc:
		case <-ctx.Done():
			it.kill()
			<-lc
			return message{}, it.gone(context.Cause(ctx))
		}
		if l.err != nil {
			return message{}, it.gone(l.err)
		}
		var m message
		if err := json.Unmarshal(l.b, &m); err != nil {
			it.kill()
			return message{}, fault.Wrap(err, fault.PhaseExecute, KindProtocol, "the runner sent an undecodable line")
		}
		if m.Op != "call" {
			return m, nil
		}
		if serve == nil {
			it.kill()
			return message{}, fault.New(fault.PhaseExecute, KindProtocol, "the runner called a builtin outside a cell")
		}
		if err := it.send(map[string]any{"op": "reply", "reply": mustJSON(serve(m.Request))}); err != nil {
			return message{}, err
		}
	}
}

func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > MaxLineBytes {
			return nil, fault.New(fault.PhaseExecute, KindProtocol, "a protocol line exceeds the limit").With("limit", MaxLineBytes)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf, nil
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"error": "the host result is not JSON-encodable: " + err.Error()})
	}
	return string(b)
}

func (it *Interp) kill() {
	if it.cmd.Process != nil {
		_ = it.cmd.Process.Kill()
	}
}

// Exec runs one cell. An exception in the model's code is an Outcome, not
// an error; the error is non-nil only when the run must stop: ctx ended
// or a host builtin returned a Fatal error. A cell that exceeds its wall
// time or memory bound is killed with the process; the interpreter is
// restarted (its variables are lost) and the cell's Outcome carries a
// TimeoutError or MemoryError exception saying so.
func (it *Interp) Exec(ctx context.Context, src string) (*repl.Outcome, error) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.dead != nil {
		return nil, it.dead
	}
	fp := fingerprint.Bytes([]byte(src))
	bctx, bound := context.WithCancelCause(ctx)
	defer bound(nil)
	cctx, cancel := context.WithTimeoutCause(bctx, it.cfg.CellTimeout, errCellTimeout)
	defer cancel()
	stopWatch := it.watchMemory(cctx, bound)
	defer stopWatch()

	var fatal error
	serve := func(req string) any {
		var call struct {
			Fn     string         `json:"fn"`
			Args   []any          `json:"args"`
			Kwargs map[string]any `json:"kwargs"`
		}
		dec := json.NewDecoder(strings.NewReader(req))
		dec.UseNumber()
		if err := dec.Decode(&call); err != nil {
			return map[string]any{"error": "malformed builtin call"}
		}
		if fatal != nil {
			return map[string]any{"error": fatal.Error(), "fatal": true}
		}
		f, ok := it.funcs[call.Fn]
		if !ok {
			return map[string]any{"error": fmt.Sprintf("%s is not a builtin", call.Fn)}
		}
		v, err := f(cctx, call.Args, call.Kwargs)
		if err != nil {
			if repl.IsFatal(err) {
				fatal = errors.Unwrap(err)
				return map[string]any{"error": fatal.Error(), "fatal": true}
			}
			if typ, msg, ok := repl.PythonError(err); ok {
				return map[string]any{"error": msg, "type": typ}
			}
			return map[string]any{"error": err.Error()}
		}
		return map[string]any{"value": v}
	}
	limits := map[string]any{"output_bytes": it.cfg.MaxOutputBytes, "recursion": it.cfg.MaxRecursion}
	if err := it.send(map[string]any{"op": "exec", "code": src, "limits": limits}); err != nil {
		return nil, err
	}
	msg, err := it.receive(cctx, serve)
	if err != nil {
		switch {
		case fatal != nil:
			return nil, fatal
		case ctx.Err() != nil:
			return nil, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		var exc *repl.Exception
		switch cause := context.Cause(cctx); {
		case errors.Is(cause, errCellTimeout):
			exc = &repl.Exception{Type: "TimeoutError", Message: fmt.Sprintf("the cell ran longer than %s and was stopped; the interpreter was restarted and its variables are lost", it.cfg.CellTimeout)}
		case fault.KindOf(cause) == KindMemoryExceeded:
			exc = &repl.Exception{Type: "MemoryError", Message: fmt.Sprintf("the cell used more than %d MiB and was stopped; the interpreter was restarted and its variables are lost", it.cfg.MaxMemoryBytes>>20)}
		default:
			return nil, err
		}
		it.stop()
		if serr := it.start(ctx); serr != nil {
			return nil, serr
		}
		return &repl.Outcome{Exception: exc, Fingerprint: fp}, nil
	}
	if msg.Op != "done" {
		it.kill()
		return nil, it.gone(fault.Newf(fault.PhaseExecute, KindProtocol, "runner answered %q to exec", msg.Op))
	}
	var res struct {
		Stdout    string `json:"stdout"`
		Cut       int    `json:"cut"`
		Exception *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Line    int    `json:"line"`
		} `json:"exception"`
		Final *struct {
			Value any `json:"value"`
		} `json:"final"`
	}
	dec := json.NewDecoder(strings.NewReader(msg.Result))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		return nil, fault.Wrap(err, fault.PhaseExecute, KindProtocol, "the runner sent an undecodable result")
	}
	out := &repl.Outcome{Stdout: res.Stdout, CutBytes: res.Cut, Fingerprint: fp}
	if e := res.Exception; e != nil {
		out.Exception = &repl.Exception{Type: e.Type, Message: e.Message, Line: e.Line}
	}
	if f := res.Final; f != nil {
		out.Final = &repl.Final{Value: f.Value}
	}
	if fatal != nil {
		return out, fatal
	}
	return out, nil
}

var errCellTimeout = errors.New("cell wall-time bound")

// watchMemory samples the process's resident memory while a cell runs and
// cancels the cell above the bound.
func (it *Interp) watchMemory(ctx context.Context, cancel context.CancelCauseFunc) func() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	pid := it.cmd.Process.Pid
	go func() {
		defer wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if rss := residentBytes(pid); rss > it.cfg.MaxMemoryBytes {
					cancel(fault.New(fault.PhaseExecute, KindMemoryExceeded, "the interpreter exceeded its memory bound").
						With("limit_bytes", it.cfg.MaxMemoryBytes).With("resident_bytes", rss))
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// KindMemoryExceeded: the interpreter process grew past MaxMemoryBytes.
const KindMemoryExceeded fault.Kind = "memory_exceeded"

// residentBytes reads VmRSS from /proc (0 where unavailable).
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// Close ends the interpreter process and removes its files.
func (it *Interp) Close() {
	it.mu.Lock()
	defer it.mu.Unlock()
	it.stop()
	if it.dead == nil {
		it.dead = fault.New(fault.PhaseExecute, KindInterpreterGone, "the interpreter was closed")
	}
}

// stop ends the process (politely, then by force) and removes its files.
func (it *Interp) stop() {
	_ = it.in.Close()
	select {
	case <-it.waitc:
	case <-time.After(2 * time.Second):
		it.kill()
		<-it.waitc
	}
	os.RemoveAll(it.dir)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
