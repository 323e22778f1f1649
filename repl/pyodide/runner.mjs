// The Pyodide side of rlm's code mode: a synchronous line protocol on
// stdin/stdout. rlm starts it as `node runner.mjs PYODIDE_DIR`; it never
// touches the network (the pyodide package ships the interpreter and the
// standard library) and runs only what the Go side sends.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];

// rlm starts node under its permission model: no file writes, file reads
// only of the pyodide package and this script, no child processes, no
// workers, no native addons. It also denies process.binding, from which
// Pyodide's NODEFS reads the open(2) flags: give it those and nothing else.
process.binding = (name) => {
  if (name === "constants") return { fs: fs.constants };
  throw new Error("process.binding is not available in rlm's interpreter");
};

const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);

function send(obj) {
  const line = JSON.stringify(obj) + "\n";
  const b = Buffer.from(line);
  let off = 0;
  while (off < b.length) off += fs.writeSync(1, b, off);
}

let pending = Buffer.alloc(0);
function readLine() {
  for (;;) {
    const i = pending.indexOf(10);
    if (i >= 0) {
      const line = pending.subarray(0, i).toString("utf8");
      pending = pending.subarray(i + 1);
      return line;
    }
    const chunk = Buffer.alloc(1 << 16);
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (n === 0) return null;
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}

// hostCall sends one builtin call and blocks until the Go side answers.
globalThis._rlm_host = (request) => {
  send({ op: "call", request });
  const line = readLine();
  if (line === null) process.exit(0);
  const msg = JSON.parse(line);
  return msg.reply;
};

const py = await loadPyodide({
  indexURL: dir + path.sep,
  stdout: () => {},
  stderr: () => {},
  stdin: () => null,
});

// Python reaches every JavaScript value (import js, pyodide_js, a proxy's
// constructor): take away the doors the permission model leaves open
// before any model code runs. Code generation from strings (eval, new
// Function) is off (a node flag), so no new JavaScript can be written;
// this loop never yields to the event loop, so nothing asynchronous
// (fetch, sockets, dynamic import) ever completes, and fetch is removed
// too. What is left of process cannot reach other processes, native
// code, the terminal or the protocol on stdout.
for (const k of ["getBuiltinModule", "binding", "_linkedBinding", "dlopen", "kill", "chdir", "report",
  "stdout", "stderr", "stdin", "openStdin", "setuid", "setgid", "seteuid", "setegid", "setgroups", "initgroups",
  "loadEnvFile", "send", "channel", "mainModule"]) {
  // Writable: Node's own modules, loaded lazily, may assign some of these
  // (node:internal/worker wraps chdir); the originals are gone either way.
  Object.defineProperty(process, k, { value: undefined, configurable: true, writable: true });
}
for (const k of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest"]) {
  Object.defineProperty(globalThis, k, { value: undefined, configurable: true, writable: true });
}
py.mountNodeFS = undefined;
for (const k of ["NODEFS", "NODERAWFS"]) delete py.FS.filesystems[k];

for (;;) {
  const line = readLine();
  if (line === null) break;
  const msg = JSON.parse(line);
  if (msg.op === "init") {
    try {
      py.runPython(msg.code, { filename: "<rlm-prelude>" });
      send({ op: "ready" });
    } catch (e) {
      send({ op: "ready", error: String(e) });
    }
  } else if (msg.op === "exec") {
    let result;
    try {
      const driver = py.globals.get("_rlm_exec");
      result = driver(msg.code, msg.limits ? JSON.stringify(msg.limits) : "{}");
      driver.destroy();
    } catch (e) {
      result = JSON.stringify({ exception: { type: "InternalError", message: String(e).slice(0, 2000), line: 0 } });
    }
    send({ op: "done", result });
  }
}
