// The Pyodide side of rlm's code mode: a synchronous line protocol on
// stdin/stdout. rlm starts it as `node runner.mjs PYODIDE_DIR`; it never
// touches the network (the pyodide package ships the interpreter and the
// standard library) and runs only what the Go side sends.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
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
