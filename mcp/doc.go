// Package mcp is rlm's Model Context Protocol support, both ways, over the
// official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Client: a Host holds the servers of an mcpServers configuration
// (LoadConfig), starts each lazily, restarts it with back-off when it dies,
// and imports its tools into a tool.Registry as mcp.<server>.<tool>
// (ToolName) with the host's effect class, so every call goes through the
// same schema, capability, authority and effect-journal pipeline as a
// built-in tool. Resources become contexts (ReadResource, ParseContextURI).
// Failures are *fault.Error values with phase "mcp" and the kinds in
// errors.go.
//
// Server: NewServer builds `rlm mcp serve`: rlm_run, context_metadata,
// context_search, context_slice and optionally rlm_direct, and the prompts
// answer_question, summarize_context and find_occurrences, over stdio or
// streamable HTTP (resumable streams, primed with a retry field). The
// contract is docs/mcp.md.
package mcp
