// The official TypeScript SDK client against `rlm mcp serve` over stdio.
// Usage: node ts-client.mjs NODE_MODULES RLM_BIN ROOT CASSETTE
// Prints one JSON object: the tool names and the results of two calls.
const [modules, rlm, root, cassette] = process.argv.slice(2);
const { Client } = await import(`${modules}/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${modules}/@modelcontextprotocol/sdk/dist/esm/client/stdio.js`);

const transport = new StdioClientTransport({
  command: rlm,
  args: ["mcp", "serve", "--root", root, "--replay", cassette],
  env: { PATH: process.env.PATH, HOME: process.env.HOME ?? "/" },
});
const client = new Client({ name: "ts-sdk-client", version: "1.0.0" });
await client.connect(transport);
const tools = (await client.listTools()).tools.map((t) => t.name).sort();
const search = await client.callTool({ name: "context_search", arguments: { path: "doc.txt", pattern: "answer" } });
const run = await client.callTool({ name: "rlm_run", arguments: { query: "what is the answer?", context_path: "doc.txt", max_iterations: 5 } });
const outside = await client.callTool({ name: "context_slice", arguments: { path: "/etc/passwd", start: 0 } });
console.log(JSON.stringify({ tools, search: search.structuredContent, run: run.structuredContent, outsideIsError: outside.isError === true }));
await client.close();
