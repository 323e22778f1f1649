// Package pyodide runs code-mode cells in CPython compiled to WebAssembly
// (Pyodide) on Node.js, for users who need exact Python semantics.
//
// An Interp is one Node.js process running an embedded runner script over
// the npm package pyodide, which ships the interpreter and the standard
// library, so nothing is fetched at run time. The Go side and the runner
// speak a synchronous line protocol on two pipes only the runner script
// holds (fd 3 from Go, fd 4 to Go); every line from the runner carries a
// MAC under a key the cell cannot read, so a cell can neither forge a
// result nor end its cell early. The Go side sends a cell; while the cell
// runs, every host builtin the code calls is a request line answered by
// the Go side before Python continues; the cell ends with a result line.
// The process's stdout and stderr are plain output, counted against the
// cell's output bound. The model's code therefore reaches the host only
// through the builtins the caller registers, as with the embedded
// interpreter: the process runs under Node.js's permission model (Node.js
// 20 or later; see Start), without code generation from strings, and the
// runner takes away what of Node.js and of Pyodide's internals the
// permission model leaves reachable from Python (runner.mjs).
//
// Its results are repl.Outcome values, so the engine drives either
// interpreter the same way.
//
// Bounds: wall time per cell, resident memory of the process (sampled from
// /proc), captured output (applied by the Go side to everything the cell
// writes), recursion depth, and host objects (Bridge). CPython has no step
// counter, so step limits do not apply here; the wall-time bound takes
// their place. A cell that exceeds its wall time or memory bound, ends the
// process, breaks the protocol or leaves Pyodide failed for good kills
// the process: it is restarted, its state is lost, and the cell's Outcome
// carries an exception saying so. A cancelled context kills it too, and
// later Exec calls fail with kind interpreter_gone.
package pyodide

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
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
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/textcut"
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
	outf  *os.File
	dir   string
	dead  error
	waitc chan struct{}
	// key authenticates the runner's lines; seq counts them.
	key []byte
	seq uint64
	// execID numbers the cells sent, echoed in their done lines.
	execID int64
	// raw collects what the process writes on its stdout and stderr.
	raw *rawOutput
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
	// The protocol runs on two pipes only the runner script holds: rlm's
	// lines arrive on fd 3, the runner's leave on fd 4, each with an HMAC
	// under a fresh key sent first on fd 3. The process's stdout and
	// stderr are plain output, counted against the cell's output bound
	// (runner.mjs says why a cell can neither write fd 4 nor sign lines).
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot make the protocol key")
	}
	toR, toW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot connect to the runner")
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		toR.Close()
		toW.Close()
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot connect to the runner")
	}
	raw := &rawOutput{}
	cmd.Stdin = nil
	cmd.Stdout = raw
	cmd.Stderr = raw
	cmd.ExtraFiles = []*os.File{toR, fromW}
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Start()
	toR.Close()
	fromW.Close()
	if err != nil {
		toW.Close()
		fromR.Close()
		os.RemoveAll(dir)
		return fault.Wrap(err, fault.PhaseConfig, KindUnavailable, "cannot start node")
	}
	it.cmd, it.in, it.out, it.outf, it.dir, it.dead = cmd, toW, bufio.NewReaderSize(fromR, 1<<16), fromR, dir, nil
	it.key, it.seq, it.raw = []byte(hex.EncodeToString(key)), 0, raw
	waitc := make(chan struct{})
	it.waitc = waitc
	go func() { _ = cmd.Wait(); close(waitc) }()
	if err := it.send(map[string]any{"op": "key", "key": string(it.key)}); err != nil {
		it.stop()
		return err
	}

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
	Op      string `json:"op"`
	Error   string `json:"error,omitempty"`
	Request string `json:"request,omitempty"`
	Result  string `json:"result,omitempty"`
	ID      int64  `json:"id,omitempty"`
	Lost    bool   `json:"lost,omitempty"`
	// Raw is what the interpreter wrote below sys.stdout during the cell
	// (os.write(1, ...), sys.__stdout__), RawCut the bytes it dropped.
	Raw    string `json:"raw,omitempty"`
	RawCut int    `json:"raw_cut,omitempty"`
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

// errBroken marks a runner that broke the protocol or died on its own (a
// cell ended the process or forged a line): Exec restarts it.
var errBroken = errors.New("the interpreter broke the protocol or exited")

// lineMAC is the runner's authentication code of line seq:
// sha256(key "\n" hex(sha256(key "\n" seq "\n" body))), the key being the
// hex text sent at start. The nested hash keeps a known code from being
// extended into another (runner.mjs computes it with node's one-shot hash,
// which never passes the key through an object model code can replace).
func lineMAC(key []byte, seq uint64, body []byte) []byte {
	h := sha256.New()
	h.Write(key)
	h.Write([]byte("\n" + strconv.FormatUint(seq, 10) + "\n"))
	h.Write(body)
	inner := hex.EncodeToString(h.Sum(nil))
	h.Reset()
	h.Write(key)
	h.Write([]byte("\n" + inner))
	return h.Sum(nil)
}

// verify checks a line's authentication code (the runner's sequence number and body under
// the key) and returns the body.
func (it *Interp) verify(line []byte) ([]byte, error) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	macHex, body, ok := bytes.Cut(line, []byte(" "))
	if !ok || len(macHex) != 2*sha256.Size {
		return nil, fault.New(fault.PhaseExecute, KindProtocol, "the runner sent an unauthenticated line")
	}
	got := make([]byte, sha256.Size)
	if _, err := hex.Decode(got, macHex); err != nil {
		return nil, fault.New(fault.PhaseExecute, KindProtocol, "the runner sent an unauthenticated line")
	}
	if !hmac.Equal(got, lineMAC(it.key, it.seq, body)) {
		return nil, fault.New(fault.PhaseExecute, KindProtocol, "the runner sent a line with a wrong authentication code").With("seq", it.seq)
	}
	it.seq++
	return body, nil
}

// receive reads the next line, serving host calls with the given handler
// while waiting (nil: a call is a protocol error). It gives up when ctx
// ends, killing the process. An error wrapping errBroken means the process
// ended or sent a line it should not have: it is killed.
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
			it.kill()
			return message{}, fmt.Errorf("%w: %w", errBroken, it.gone(l.err))
		}
		body, err := it.verify(l.b)
		if err != nil {
			it.kill()
			return message{}, fmt.Errorf("%w: %w", errBroken, it.gone(err))
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			it.kill()
			return message{}, fmt.Errorf("%w: %w", errBroken, it.gone(fault.Wrap(err, fault.PhaseExecute, KindProtocol, "the runner sent an undecodable line")))
		}
		if m.Op != "call" {
			return m, nil
		}
		if serve == nil {
			it.kill()
			return message{}, fmt.Errorf("%w: %w", errBroken, it.gone(fault.New(fault.PhaseExecute, KindProtocol, "the runner called a builtin outside a cell")))
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
// TimeoutError or MemoryError exception saying so. So is a cell that ends
// the process, makes it send a line that fails authentication or answers
// another cell, or leaves Pyodide failed for good: SystemError. The
// Outcome's Stdout is bounded here, by MaxOutputBytes, whatever the cell
// did to the Python side's own count.
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
	limits := mustJSON(map[string]any{"output_bytes": it.cfg.MaxOutputBytes, "recursion": it.cfg.MaxRecursion})
	it.execID++
	id := it.execID
	cctx = context.WithValue(cctx, cellKey{}, cells.Add(1))
	it.raw.reset(it.cfg.MaxOutputBytes)
	if err := it.send(map[string]any{"op": "exec", "id": id, "code": src, "limits": limits, "output_bytes": it.cfg.MaxOutputBytes}); err != nil {
		return nil, err
	}
	msg, err := it.receive(cctx, serve)
	if err == nil && (msg.Op != "done" || msg.ID != id) {
		it.kill()
		err = fmt.Errorf("%w: %w", errBroken, it.gone(fault.Newf(fault.PhaseExecute, KindProtocol, "runner answered %q (cell %d) to cell %d", msg.Op, msg.ID, id)))
	}
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
		case errors.Is(err, errBroken):
			exc = &repl.Exception{Type: "SystemError", Message: "the interpreter process ended or broke rlm's protocol during the cell; it was restarted and its variables are lost"}
		default:
			return nil, err
		}
		return it.restart(ctx, exc, fp)
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
		// The result is what the cell's Python made of it: a cell that
		// rewrote the prelude's driver gets an exception, not the run.
		res.Exception = &struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Line    int    `json:"line"`
		}{Type: "SystemError", Message: "the cell's result could not be read: " + clip(err.Error(), 200)}
	}
	out := &repl.Outcome{Fingerprint: fp}
	out.Stdout, out.CutBytes = it.boundOutput(res.Stdout, res.Cut, msg.Raw, msg.RawCut)
	if e := res.Exception; e != nil {
		out.Exception = &repl.Exception{Type: clip(e.Type, 100), Message: clip(e.Message, 2000), Line: e.Line}
	}
	if f := res.Final; f != nil {
		out.Final = &repl.Final{Value: f.Value}
	}
	if fatal != nil {
		return out, fatal
	}
	if msg.Lost {
		// Pyodide failed for good (a JavaScript error inside a system
		// call): start a fresh one so that later cells run.
		msg := "the interpreter failed and was restarted; its variables are lost"
		if out.Exception != nil {
			msg = out.Exception.Message + " (" + msg + ")"
		}
		return it.restart(ctx, &repl.Exception{Type: "SystemError", Message: msg}, fp)
	}
	return out, nil
}

// restart replaces the process after a cell it could not finish and
// reports exc as that cell's exception.
func (it *Interp) restart(ctx context.Context, exc *repl.Exception, fp string) (*repl.Outcome, error) {
	it.stop()
	if err := it.start(ctx); err != nil {
		_ = it.gone(err)
		return nil, err
	}
	return &repl.Outcome{Exception: exc, Fingerprint: fp}, nil
}

// boundOutput applies the output bound on the host side: the Python side
// already bounds what print writes, but the cell can rewrite that code, so
// rlm cuts again here. What the interpreter wrote below sys.stdout (sent
// with the result) follows, then what reached the process's own stdout and
// stderr during the cell, within the same bound; everything past it is
// counted as cut.
func (it *Interp) boundOutput(stdout string, cut int, raw string, rawCut int) (string, int) {
	limit := it.cfg.MaxOutputBytes
	pipe, pipeCut := it.raw.take()
	parts := []struct {
		s   string
		cut int
	}{{stdout, cut}, {strings.ToValidUTF8(raw, "\uFFFD"), rawCut}, {pipe, pipeCut}}
	var b strings.Builder
	total := 0
	for _, p := range parts {
		if total > 0 {
			// After the first cut everything is dropped, as the
			// embedded interpreter does.
			total += len(p.s) + max(p.cut, 0)
			continue
		}
		kept := textcut.Prefix(p.s, limit-b.Len())
		b.WriteString(kept)
		total += len(p.s) - len(kept) + max(p.cut, 0)
	}
	return b.String(), total
}

// rawOutput collects the process's stdout and stderr: at most limit bytes
// a cell, the rest counted. It never blocks the process.
type rawOutput struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	cut   int
}

func (r *rawOutput) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	room := max(r.limit-len(r.buf), 0)
	n := min(room, len(p))
	r.buf = append(r.buf, p[:n]...)
	r.cut += len(p) - n
	return len(p), nil
}

// reset starts a cell: what arrived between cells is dropped.
func (r *rawOutput) reset(limit int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limit, r.buf, r.cut = limit, nil, 0
}

// take returns the cell's output as valid UTF-8 and the bytes cut, and
// closes the cell: bytes arriving later are not kept.
func (r *rawOutput) take() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.ToValidUTF8(string(r.buf), "\uFFFD")
	cut := r.cut
	r.limit, r.buf, r.cut = 0, nil, 0
	return s, cut
}

var errCellTimeout = errors.New("cell wall-time bound")

type cellKey struct{}

// cells numbers the cells of every interpreter of the process, so that a
// bridge shared by two interpreters still tells their cells apart.
var cells atomic.Int64

// cellOf returns the cell a builtin call belongs to (0 outside a cell).
func cellOf(ctx context.Context) int64 {
	if ctx == nil {
		return 0
	}
	n, _ := ctx.Value(cellKey{}).(int64)
	return n
}

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
	_ = it.outf.Close()
	os.RemoveAll(it.dir)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
