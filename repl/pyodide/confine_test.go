package pyodide

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Model code reaches the host only through the registered builtins: every
// door Python has into Node.js (import js, pyodide_js, a proxy's
// constructor) is closed or confined. Before, a cell ran a shell command
// through js.process.getBuiltinModule("child_process") and read /etc
// through pyodide_js.mountNodeFS; issue 30 forged a cell's FINAL answer
// through pyodide_js._module.NODEFS. Each attempt prints (or answers)
// ESCAPED only if it got through; the cells are expected to raise, and
// whatever they did, the next cell must run.
func TestModelCodeIsConfined(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("ESCAPED-READ"), 0o600); err != nil {
		t.Fatal(err)
	}
	victim := exec.Command("sleep", "600")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()
	pid := strconv.Itoa(victim.Process.Pid)
	written := filepath.Join(dir, "written.txt")

	pkg, err := PackageDir("")
	if err != nil {
		pkg = dir
	}
	// A "done" line as the runner wrote it, with a FINAL answer.
	forged := strconv.Quote(`{"op":"done","result":"{\"final\":{\"value\":\"ESCAPED-FORGED\"},\"stdout\":\"ESCAPED-FORGED\"}"}` + "\n")
	const maxOut = 4096
	cfg := Config{CellTimeout: 10 * time.Second, MaxOutputBytes: maxOut}
	it := start(t, cfg, nil, "")
	q := strconv.Quote(dir)
	for _, c := range []struct{ name, src string }{
		{"shell command", "import js\ncp = js.process.getBuiltinModule('child_process')\n" +
			"print(cp.execSync('echo ESCAPED-SHELL', js.Object.fromEntries([['encoding', 'utf8']])))"},
		{"mount a host directory", "import pyodide_js\npyodide_js.mountNodeFS('/host', " + q + ")\nprint(open('/host/secret.txt').read())"},
		{"NODEFS by hand", "import js, pyodide_js\nfrom pyodide.ffi import to_js\nm = pyodide_js._module\nm.FS.mkdir('/h')\n" +
			"m.FS.mount(m.FS.filesystems.NODEFS, to_js({'root': " + q + "}, dict_converter=js.Object.fromEntries), '/h')\n" +
			"print(open('/h/secret.txt').read())\nopen('/h/written.txt', 'w').write('x')"},
		{"eval", "import js\nprint(js.eval(\"'ESCAPED-' + 'EVAL'\"))"},
		{"Function constructor", "import js\nprint(js.Function.new(\"return 'ESCAPED-' + 'FUNCTION'\")())"},
		{"kill another process", "import js\njs.process.kill(" + pid + ", 'SIGTERM')"},
		{"process.binding", "import js\nb = js.process.binding('spawn_sync')\nprint('ESCAPED-BINDING' if b else '')"},
		{"native code", "import js\nprint('ESCAPED-DLOPEN' if getattr(js.process, 'dlopen', None) else '')"},
		{"network", "import js\nprint('ESCAPED-FETCH' if getattr(js, 'fetch', None) else '')"},
		// Before, the forged line was read as this cell's result.
		{"forge the protocol", "import js\njs.process.stdout.write('{\"op\":\"done\",\"result\":\"{\\\\\"stdout\\\\\":\\\\\"ESCAPED-FORGED\\\\\"}\"}\\n')"},
		// Issue 30: the emscripten module was still reachable
		// (pyodide_js._module) with its NODEFS; a stream of a file in
		// the readable package, pointed at fd 1, wrote a forged "done"
		// line that rlm took as the cell's FINAL answer while the cell
		// went on running unwatched.
		{"NODEFS stream forged onto fd 1", "import js, pyodide_js\nfrom pyodide.ffi import to_js\nm = pyodide_js._module\n" +
			"m.FS.mkdir('/pk')\nm.FS.mount(m.NODEFS, to_js({'root': " + strconv.Quote(pkg) + "}, dict_converter=js.Object.fromEntries), '/pk')\n" +
			"st = m.FS.open('/pk/package.json', 'r')\nst.nfd = 1\n" +
			"line = " + forged + "\n" +
			"data = to_js(line.encode())\nm.NODEFS.stream_ops.write(st, data, 0, data.length, None)\n" +
			"print('x' * 300000)\nwhile True:\n    pass\n"},
		// console.log writes fd 1, which was the protocol.
		{"console.log onto fd 1", "import js\njs.console.log(" + forged + ")\nwhile True:\n    pass\n"},
		// The runner serialized its lines with JSON.stringify, which
		// model code can replace: its own "done" line would carry the
		// forgery.
		{"replace JSON.stringify", "import js\nfrom pyodide.ffi import create_proxy\n" +
			"js.JSON.stringify = create_proxy(lambda *a: " + forged + ".rstrip())\nFINAL('legit')\n"},
		{"Object.prototype.toJSON", "import js\nfrom pyodide.ffi import create_proxy\n" +
			"js.Object.prototype.toJSON = create_proxy(lambda *a: 'ESCAPED-TOJSON')\nFINAL('x')\n"},
		// A getter on the typed-array prototype, read by Node.js when
		// the runner reads its next line: model code running after
		// the cell ended, outside its time and memory watch.
		{"typed-array getter", "import js\nfrom pyodide.ffi import create_proxy, to_js\n" +
			"def g(*a):\n    while True:\n        pass\n" +
			"js.Object.defineProperty(js.Object.getPrototypeOf(js.Uint8Array.prototype), 'byteLength', " +
			"to_js({'get': create_proxy(g), 'configurable': True}, dict_converter=js.Object.fromEntries))\n"},
		// A cell that ends the process costs its variables, not the
		// run: before, every later cell failed with interpreter_gone.
		{"exit the process", "import js\njs.process.exit(0)\n"},
		// Every path from Python to the emscripten module, its file
		// system and Pyodide's internal API is gone.
		{"emscripten internals", "import sys, js\n" +
			"def probe(name, f):\n    try:\n        v = f()\n    except Exception:\n        return\n    if v is not None and not (hasattr(js, 'undefined') and v == js.undefined):\n        print('ESCAPED-' + name)\n" +
			"import pyodide_js\n" +
			"for attr in ('_module', '_api', 'FS', 'PATH', 'ERRNO_CODES', 'mountNodeFS', 'mountNativeFS', 'unpackArchive', 'registerJsModule', 'loadPackage', 'pyimport', 'runPython', 'globals'):\n" +
			"    probe(attr, lambda: getattr(pyodide_js, attr))\n" +
			"probe('__import__', lambda: __import__('pyodide_js')._module)\n" +
			"probe('sys.modules', lambda: sys.modules['pyodide_js._api'])\n" +
			"probe('import _api', lambda: __import__('pyodide_js._api'))\n" +
			"probe('js.pyodide', lambda: js.pyodide)\nprobe('js.Module', lambda: js.Module)\nprobe('js.require', lambda: js.require)\n" +
			"probe('js.process.getBuiltinModule', lambda: js.process.getBuiltinModule)\n" +
			"for name, mod in list(sys.modules.items()):\n" +
			"    for k, v in list(getattr(mod, '__dict__', {}).items()):\n" +
			"        if type(v).__name__ == 'JsProxy' and k not in ('_rlm_host_js',) and name != 'js':\n" +
			"            for attr in ('_module', 'FS', 'NODEFS', '_api'):\n" +
			"                probe(name + '.' + k + '.' + attr, lambda: getattr(v, attr))\n"},
	} {
		out, err := it.Exec(context.Background(), c.src)
		if err != nil {
			// Each attempt is judged on its own: a fresh interpreter
			// for the next one.
			t.Errorf("%s: the run would end: %v", c.name, err)
			it = start(t, cfg, nil, "")
			continue
		}
		t.Logf("%s: %v", c.name, out.Exception)
		if strings.Contains(out.Stdout, "ESCAPED") {
			t.Errorf("%s: got through: %q", c.name, out.Stdout)
		}
		if out.Final != nil && strings.Contains(fmt.Sprint(out.Final.Value), "ESCAPED") {
			t.Errorf("%s: forged the cell's result: %v", c.name, out.Final.Value)
		}
		if len(out.Stdout) > maxOut {
			t.Errorf("%s: kept %d bytes of output, over the bound of %d", c.name, len(out.Stdout), maxOut)
		}
		// Whatever the attempt did, the next cell runs, watched.
		if out, err := it.Exec(context.Background(), "print(6 * 7)"); err != nil || out.Stdout != "42\n" {
			t.Errorf("after %s: %+v %v", c.name, out, err)
			it = start(t, cfg, nil, "")
		}
	}
	if _, err := os.Stat(written); err == nil {
		t.Error("model code wrote a host file")
	}
	// A killed child stays a zombie until waited for: look at its state.
	if st, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && strings.Contains(string(st), ") Z ") {
		t.Error("model code killed another process")
	}
	// The interpreter still works after the attempts.
	if out := exec1(t, it, "print(6 * 7)"); out.Stdout != "42\n" {
		t.Fatalf("after the attempts: %+v", out)
	}
}

// The output bound holds on the host side, whatever the cell does to the
// Python code that counts print's output, and for what it writes below
// sys.stdout (fd 1 and 2). Before, the bound was kept by the prelude alone:
// a cell that raised its limit kept 300 KB.
func TestOutputBoundHeldByHost(t *testing.T) {
	const maxOut = 4096
	it := start(t, Config{MaxOutputBytes: maxOut, CellTimeout: 30 * time.Second}, nil, "")
	for _, c := range []struct{ name, src string }{
		{"raised limit", "import sys\nsys.stdout.limit = 10**9\nprint('x' * 300000)\n"},
		{"rewritten driver result", "import sys\nsys.stdout.parts.append('y' * 300000)\n"},
		{"fd 1 and 2", "import os, sys\nprint('kept')\nfor i in range(30):\n    os.write(1, b'z' * 10000)\n    os.write(2, b'w' * 10000)\nprint('x', file=sys.__stdout__, flush=True)\n"},
	} {
		out := exec1(t, it, c.src)
		if len(out.Stdout) > maxOut || out.CutBytes < 290000 {
			t.Errorf("%s: kept %d bytes (bound %d), cut %d", c.name, len(out.Stdout), maxOut, out.CutBytes)
		}
	}
	// What a cell writes on fd 1 is its output: shown within the bound.
	out := exec1(t, it, "import os\nprint('a')\nos.write(1, b'raw\\n')\n")
	if !strings.HasPrefix(out.Stdout, "a\n") || out.CutBytes != 0 {
		t.Errorf("got %+v", out)
	}
}

// Starting, replacing or forking a process raises OSError at once, and the
// interpreter stays usable. Before, os.system reached Node.js through
// emscripten and left Pyodide failing every later cell ("Cannot read
// properties of undefined (reading 'isTTY')"), FINAL included.
func TestProcessesRefused(t *testing.T) {
	it := start(t, Config{CellTimeout: 30 * time.Second}, nil, "")
	for _, src := range []string{
		"import os\nos.system('echo hi')\n",
		"import os\nos.popen('echo hi').read()\n",
		"import subprocess\nsubprocess.run(['echo', 'hi'])\n",
		"import subprocess\nsubprocess.check_output('echo hi', shell=True)\n",
		"import subprocess\nsubprocess.Popen(['echo'])\n",
		"import os\nos.fork()\n",
		"import os\nos.execv('/bin/echo', ['echo'])\n",
		"import os\nos.spawnv(os.P_WAIT, '/bin/echo', ['echo'])\n",
		"import posix\nposix.system('echo hi')\n",
	} {
		out := exec1(t, it, src)
		if out.Exception == nil || out.Exception.Type != "OSError" || !strings.Contains(out.Exception.Message, "refused") {
			t.Errorf("%q: got %+v", src, out.Exception)
		}
		if out := exec1(t, it, "print(6 * 7)"); out.Stdout != "42\n" {
			t.Fatalf("after %q: %+v", src, out)
		}
	}
	// Past the refusals (a fresh posix module), system() answers as a
	// shell that cannot run the command: exit status 127.
	out := exec1(t, it, "import importlib, posix\nprint(importlib.reload(posix).system('echo hi'))\n")
	if out.Exception != nil && out.Exception.Type != "OSError" || out.Exception == nil && out.Stdout != "32512\n" {
		t.Errorf("reloaded posix.system: %+v", out)
	}
	out = exec1(t, it, "FINAL('still here')\n")
	if out.Final == nil || out.Final.Value != "still here" {
		t.Fatalf("FINAL after the attempts: %+v", out)
	}
}

// A cell that leaves Pyodide failed for good (a JavaScript error inside a
// system call: here time.localtime after the cell replaced Date) costs its
// variables, not the run: the interpreter is restarted and the cell gets a
// SystemError. Before, the half-failed interpreter went on in an undefined
// state (an InternalError about isTTY, the variables kept).
func TestFailedInterpreterIsRestarted(t *testing.T) {
	it := start(t, Config{CellTimeout: 30 * time.Second}, nil, "")
	out := exec1(t, it, "x = 1\nimport js, time\njs.Date = None\ntime.localtime()\n")
	if out.Exception == nil || out.Exception.Type != "SystemError" || !strings.Contains(out.Exception.Message, "restarted") {
		t.Fatalf("got %+v", out.Exception)
	}
	out = exec1(t, it, "import time\nprint('x' in globals(), time.localtime().tm_year > 2000)\nFINAL('ok')\n")
	if out.Stdout != "False True\n" || out.Final == nil || out.Final.Value != "ok" {
		t.Fatalf("after the restart: %+v", out)
	}
}
