// Records the token ids that OpenAI's tiktoken gives each text of
// corpus.json, into tiktoken.json, for bpe's TestMatchesTiktoken. The test
// reads the recorded file and never runs this script.
//
// tiktoken here is the npm package "tiktoken" (WebAssembly bindings of
// tiktoken's Rust core with the encodings bundled, so nothing else is
// fetched). To regenerate, from bpe/:
//
//	UPDATE_GOLDEN=1 go test -run TestMatchesTiktoken .   # writes corpus.json
//	npm install --prefix /tmp/tiktoken-ref tiktoken@1.0.22
//	NODE_PATH=/tmp/tiktoken-ref/node_modules node testdata/tiktoken.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(process.env.NODE_PATH ? join(process.env.NODE_PATH, "x.js") : import.meta.url);
const { get_encoding } = require("tiktoken");
const pkg = join(dirname(require.resolve("tiktoken")), "package.json");
const version = JSON.parse(readFileSync(pkg, "utf8")).version;
const dir = dirname(fileURLToPath(import.meta.url));
const texts = JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8"));
const ids = {};
for (const name of ["cl100k_base", "o200k_base"]) {
  const enc = get_encoding(name);
  ids[name] = texts.map((t) => Array.from(enc.encode_ordinary(t)));
  enc.free();
}
const out = { reference: `tiktoken ${version} (npm)`, ids };
writeFileSync(join(dir, "tiktoken.json"), JSON.stringify(out) + "\n");
