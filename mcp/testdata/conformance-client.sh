#!/bin/sh
# The client under test for @modelcontextprotocol/conformance client
# scenarios: the framework appends the server URL and names the scenario in
# MCP_CONFORMANCE_SCENARIO. rlm's client is driven through the CLI
# ($RLM_BIN) with an mcpServers file pointing at that URL.
set -eu
url="$1"
cfg="$(mktemp)"
trap 'rm -f "$cfg"' EXIT
printf '{"mcpServers":{"conf":{"url":"%s","effect":"read"}}}' "$url" > "$cfg"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
tools_call)
  "$RLM_BIN" tools call mcp.conf.add_numbers --args '{"a":2,"b":3}' --allow 'tool:mcp.conf.*' --mcp "$cfg" ;;
sse-retry)
  "$RLM_BIN" tools call mcp.conf.test_reconnection --allow 'tool:mcp.conf.*' --mcp "$cfg" ;;
*)
  "$RLM_BIN" tools list --mcp "$cfg" ;;
esac
