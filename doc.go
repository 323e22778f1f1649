// Package rlm opens runs of a Recursive Language Model: one Spec (data,
// JSON round-trip) describes the contexts, the mode, the models and the
// server, the limits, the capabilities and tools, the outputs and
// durability, and Open turns it into a Session whose Run, Chat, Direct,
// Submit, RunOn and DirectOn are what every entry point uses: the rlm
// command, rlm mcp serve, durable workers and Go programs.
//
// Three lines answer a question over a file, the API key read from the
// environment as the CLI reads it (OPENAI_API_KEY, or APIKeyEnv):
//
//	res, err := rlm.Run(ctx, rlm.Spec{Model: "gpt-4o-mini", Context: []string{"big.log"}, Mode: "code"}, "Which service failed first?")
//	if err != nil { ... }
//	fmt.Println(res.Answer)
//
// Open checks everything that can be checked before a model is called,
// in order: the Spec (Validate), the output paths, prices under
// StrictCost, the provider's base URL and key, the tools and the effect
// journal. A tool a program adds (Spec.Tools, built with tool.Func) is
// granted; an effectful one opens the effect journal in Spec.StateDir.
// Code mode always holds capability code.
//
// The results print as the CLI prints them with --json
// (Result.Envelope, DirectResult.Envelope: one status vocabulary,
// StatusOf); a run stopped for an approval is listed and decided with
// Approvals and Decide, then resumed with Spec.Resume. RunCommand runs a
// prompt command, Session.MCPServer serves a session to MCP clients, and
// package console shows a run on a terminal as rlm does.
//
// Runnable programs, each run by the test suite: examples/quickstart
// (the three lines, with a recorded cassette), examples/customtool (a Go
// function as a tool), examples/approvals (an effect approved by a person,
// then resumed), examples/durable (a run queued on PostgreSQL and served by
// a worker) and examples/mcp (a session served over MCP).
//
// docs/launch.md describes the Spec field by field and how the CLI's
// flags map onto it.
package rlm
