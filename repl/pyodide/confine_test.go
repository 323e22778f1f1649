package pyodide

import (
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
// through pyodide_js.mountNodeFS. Each attempt prints ESCAPED only if it
// got through; the cells are expected to raise.
func TestModelCodeIsConfined(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("ESCAPED-READ"), 0o600); err != nil {
		t.Fatal(err)
	}
	victim := exec.Command("sleep", "60")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()
	pid := strconv.Itoa(victim.Process.Pid)
	written := filepath.Join(dir, "written.txt")

	it := start(t, Config{CellTimeout: 30 * time.Second}, nil, "")
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
		// Last: before, the forged line was read as this cell's result.
		{"forge the protocol", "import js\njs.process.stdout.write('{\"op\":\"done\",\"result\":\"{\\\\\"stdout\\\\\":\\\\\"ESCAPED-FORGED\\\\\"}\"}\\n')"},
	} {
		out := exec1(t, it, c.src)
		t.Logf("%s: %v", c.name, out.Exception)
		if strings.Contains(out.Stdout, "ESCAPED") {
			t.Errorf("%s: got through: %q", c.name, out.Stdout)
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
