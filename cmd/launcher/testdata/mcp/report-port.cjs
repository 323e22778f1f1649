// Preloaded into a Node.js MCP peer started with PORT=0 (mcp_peers_test.go):
// once a server listens, it prints the port the system gave it on stderr,
// so the test never hands the peer a port another process may take first.
"use strict";
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => {
    const a = this.address();
    if (a && typeof a === "object") process.stderr.write(`rlm-test: listening on port ${a.port}\n`);
  });
  return listen.apply(this, args);
};
