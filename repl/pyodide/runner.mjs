// The Pyodide side of rlm's code mode. rlm starts it as
// `node runner.mjs PYODIDE_DIR` with two extra file descriptors: it reads
// rlm's messages on fd 3 and writes its own on fd 4, one JSON object a
// line. Standard output and error (fd 1 and 2) are plain output, which rlm
// counts against the cell's output bound; nothing written there is read as
// protocol. The runner never touches the network (the pyodide package
// ships the interpreter and the standard library) and runs only what rlm
// sends.
//
// Model code runs in the same JavaScript realm as this script and can
// replace any global or prototype method it reaches (import js). So
// everything this script uses after the first line of Python runs is
// captured here, before any Python runs, and every line it writes on fd 4
// carries a MAC under a key rlm sends first on fd 3 and this script keeps
// in a closure: the cell cannot read the key, so it cannot make a line rlm
// accepts, even if it found a way to write to fd 4. Lines are built by
// string concatenation (JSON.stringify only ever sees strings, whose
// serialization no prototype can change), and the typed arrays handed to
// Node.js carry their own lengths, so no getter model code installs runs
// in the runner's own code, in particular after a cell has ended.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import childProcess from "node:child_process";
import { pathToFileURL } from "node:url";

const ReflectApply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const parse = JSON.parse;
const stringify = JSON.stringify;
const readSync = fs.readSync;
const writeSync = fs.writeSync;
const reallyExit = process.reallyExit;
const exit = (code) => ReflectApply(reallyExit, process, [code]);
const U8 = Uint8Array;
const AB = ArrayBuffer;
const u8Set = U8.prototype.set;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = TextEncoder.prototype.encode;
const decode = TextDecoder.prototype.decode;
const typedLength = Object.getOwnPropertyDescriptor(getPrototypeOf(U8.prototype), "length").get;
const strSlice = String.prototype.slice;
const toStr = String;
const hash = crypto.hash;
const preventExtensions = Object.preventExtensions;

const IN = 3;
const OUT = 4;

const dir = process.argv[2];

// shield gives a byte array own length properties, so that Node.js's
// argument checks in readSync and writeSync read them and never a getter
// model code may have put on the typed-array prototype.
function shield(u8) {
  const n = ReflectApply(typedLength, u8, []);
  defineProperty(u8, "byteLength", { __proto__: null, value: n });
  defineProperty(u8, "length", { __proto__: null, value: n });
  return u8;
}

// Input on fd 3: a growing buffer of unread bytes, scanned by hand.
let inBuf = new U8(new AB(1 << 16));
let inLen = 0;
let inStart = 0;
let inEnd = 0;
inLen = ReflectApply(typedLength, inBuf, []);

function readLine() {
  for (;;) {
    for (let i = inStart; i < inEnd; i++) {
      if (inBuf[i] === 10) {
        const view = new U8(new AB(i - inStart));
        for (let j = inStart; j < i; j++) view[j - inStart] = inBuf[j];
        inStart = i + 1;
        return ReflectApply(decode, decoder, [view]);
      }
    }
    if (inStart > 0) {
      for (let j = inStart; j < inEnd; j++) inBuf[j - inStart] = inBuf[j];
      inEnd -= inStart;
      inStart = 0;
    }
    if (inEnd === inLen) {
      const bigger = new U8(new AB(inLen * 2));
      ReflectApply(u8Set, bigger, [inBuf, 0]);
      inBuf = bigger;
      inLen = inLen * 2;
    }
    const chunk = shield(new U8(new AB(inLen - inEnd)));
    let n;
    try {
      n = readSync(IN, chunk, 0, inLen - inEnd, null);
    } catch (e) {
      if (e !== null && typeof e === "object" && e.code === "EAGAIN") continue;
      exit(3);
    }
    if (n === 0) return null;
    for (let j = 0; j < n; j++) inBuf[inEnd + j] = chunk[j];
    inEnd += n;
  }
}

// The first line is the key; the process exits if it is not.
const keyLine = readLine();
if (keyLine === null) exit(0);
const keyMsg = parse(keyLine);
if (typeof keyMsg.key !== "string" || keyMsg.key.length < 32) exit(3);
const key = keyMsg.key;
let seq = 0;

// send writes one authenticated line, "MAC BODY", where MAC is
// sha256(key "\n" sha256(key "\n" seq "\n" body)) in hex and seq counts
// the lines sent (the Go side checks the same). Node's one-shot hash takes
// the key as a plain string: no object model code could have reached sees
// it (createHmac would pass it through Buffer.from, a global).
function send(body) {
  const inner = hash("sha256", key + "\n" + seq + "\n" + body, "hex");
  const mac = hash("sha256", key + "\n" + inner, "hex");
  seq++;
  const b = shield(ReflectApply(encode, encoder, [mac + " " + body + "\n"]));
  const n = b.length;
  let off = 0;
  while (off < n) {
    try {
      off += writeSync(OUT, b, off, n - off);
    } catch (e) {
      if (e !== null && typeof e === "object" && e.code === "EAGAIN") continue;
      exit(3);
    }
  }
}

function quote(s) {
  return typeof s === "string" ? stringify(s) : '""';
}

function errorText(e) {
  let s = "";
  try {
    const t = toStr(e);
    if (typeof t === "string") s = t;
  } catch {
    s = "an error that cannot be shown";
  }
  return s.length > 2000 ? ReflectApply(strSlice, s, [0, 2000]) : s;
}

// rlm starts node under its permission model: no file writes, file reads
// only of the pyodide package and this script, no child processes, no
// workers, no native addons. It also denies process.binding, from which
// Pyodide's NODEFS reads the open(2) flags: give it those and nothing else.
process.binding = (name) => {
  if (name === "constants") return { fs: fs.constants };
  throw new Error("process.binding is not available in rlm's interpreter");
};

// Emscripten's system() (os.system, reached even past the prelude's
// refusals) calls spawnSync, which the permission model denies with an
// exception that leaves Pyodide broken for good. Answer as a shell that
// cannot run the command would: exit status 127.
for (const k of ["spawnSync", "execSync", "execFileSync"]) {
  childProcess[k] = () => ({ __proto__: null, pid: 0, status: 127, signal: null, output: null, stdout: null, stderr: null });
}
for (const k of ["spawn", "exec", "execFile", "fork"]) {
  childProcess[k] = () => {
    throw new Error("rlm's interpreter cannot start processes");
  };
}

const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);

// hostCall sends one builtin call and blocks until rlm answers.
globalThis._rlm_host = (request) => {
  if (typeof request !== "string") return '{"error":"malformed builtin call"}';
  send('{"op":"call","request":' + stringify(request) + "}");
  const line = readLine();
  if (line === null) exit(0);
  const msg = parse(line);
  return typeof msg.reply === "string" ? msg.reply : '{"error":"malformed reply"}';
};

// Output the interpreter writes below Python's sys.stdout (os.write(1),
// sys.__stdout__, C extensions) is kept here, at most the cell's output
// bound, and sent with the cell's result; rlm bounds it again.
let rawText = "";
let rawRoom = 0;
let rawCut = 0;
const rawWriter = {
  write: (buf) => {
    const b = new U8(buf);
    const n = ReflectApply(typedLength, b, []);
    const k = n < rawRoom ? n : rawRoom;
    if (k > 0) {
      const kept = new U8(new AB(k));
      for (let i = 0; i < k; i++) kept[i] = b[i];
      rawText = rawText + ReflectApply(decode, decoder, [kept]);
      rawRoom -= k;
    }
    rawCut += n - k;
    return n;
  },
};

const py = await loadPyodide({
  indexURL: dir + path.sep,
  stdin: () => null,
});
py.setStdout(rawWriter);
py.setStderr(rawWriter);
const runPython = py.runPython;

// Python reaches every JavaScript value (import js, a proxy's prototype
// chain): take away the doors the permission model leaves open before any
// model code runs. Code generation from strings (eval, new Function) is
// off (a node flag), so no new JavaScript can be written; this loop never
// yields to the event loop, so nothing asynchronous (fetch, sockets,
// dynamic import, timers, finalizers) ever runs, and fetch is removed too.
// What is left of process cannot reach other processes, native code, the
// terminal or the protocol.
for (const k of ["getBuiltinModule", "binding", "_linkedBinding", "dlopen", "kill", "chdir", "report",
  "stdout", "stderr", "stdin", "openStdin", "setuid", "setgid", "seteuid", "setegid", "setgroups", "initgroups",
  "loadEnvFile", "send", "channel", "mainModule"]) {
  // Writable: Node's own modules, loaded lazily, may assign some of these
  // (node:internal/worker wraps chdir); the originals are gone either way.
  defineProperty(process, k, { value: undefined, configurable: true, writable: true });
}
for (const k of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest", "require"]) {
  defineProperty(globalThis, k, { value: undefined, configurable: true, writable: true });
}

// Pyodide's API object (Python's module pyodide_js) holds the emscripten
// module (_module: FS, NODEFS, the heap, every runtime function), the
// internal API (_api) and the file system (FS): none of it is for model
// code. Cut the filesystems first, then give Python an empty pyodide_js.
for (const k of ["NODEFS", "NODERAWFS", "IDBFS", "WORKERFS", "PROXYFS"]) {
  delete py.FS.filesystems[k];
  delete py._module[k];
}
// Pyodide calls API.fatal_error when a JavaScript error crosses the
// interpreter (a system call that throws); it may fail to mark itself
// dead (its report goes to a console whose stream is gone), leaving an
// interpreter in an undefined state. Note it: the cell is then reported
// lost and rlm starts a fresh interpreter.
const api = py._api;
const fatalError = api.fatal_error;
let failed = false;
let failedText = "";
api.fatal_error = function (e) {
  if (!failed) failedText = errorText(e);
  failed = true;
  return ReflectApply(fatalError, this, [e]);
};
py.unregisterJsModule("pyodide_js");
py.registerJsModule("pyodide_js", { __proto__: null, version: py.version });

// A fatally failed Pyodide (a JavaScript error inside a system call)
// answers every later call with an error: report it, so rlm restarts it.
function alive() {
  try {
    ReflectApply(runPython, py, ["None"]);
    return true;
  } catch {
    return false;
  }
}

// Node.js's fs functions read fields of fresh objects ({}) after a write:
// a getter model code added to Object.prototype would run there, after the
// cell ended. New properties can no longer be added to it; plain objects
// keep their own properties as before.
preventExtensions(Object.prototype);

let driver = null;
for (;;) {
  const line = readLine();
  if (line === null) break;
  const msg = parse(line);
  if (msg.op === "init") {
    try {
      ReflectApply(runPython, py, [msg.code, { __proto__: null, filename: "<rlm-prelude>" }]);
      driver = py.globals.get("_rlm_exec");
      send('{"op":"ready"}');
    } catch (e) {
      send('{"op":"ready","error":' + quote(errorText(e)) + "}");
    }
  } else if (msg.op === "exec") {
    const id = msg.id;
    if (typeof id !== "number") exit(3);
    let result;
    let lost = false;
    failed = false;
    failedText = "";
    rawText = "";
    rawCut = 0;
    rawRoom = typeof msg.output_bytes === "number" ? msg.output_bytes : 0;
    try {
      result = driver(msg.code, msg.limits);
      if (typeof result !== "string") result = '{"exception":{"type":"InternalError","message":"the cell driver returned no result","line":0}}';
    } catch (e) {
      lost = failed || !alive();
      result = '{"exception":{"type":"InternalError","message":' + quote(errorText(e)) + ',"line":0}}';
    }
    if (failed) {
      lost = true;
      result = '{"exception":{"type":"SystemError","message":' + quote("Pyodide failed: " + failedText) + ',"line":0}}';
    }
    const raw = rawText;
    const cut = rawCut;
    rawText = "";
    rawRoom = 0;
    send('{"op":"done","id":' + id + ',"lost":' + (lost ? "true" : "false") + ',"raw":' + stringify(raw) +
      ',"raw_cut":' + cut + ',"result":' + stringify(result) + "}");
  }
}
exit(0);
