// Package httpturns holds BenchmarkTurnsHTTP, the engine's cost per root
// turn through the OpenAI provider and a local HTTP server, with the
// exact token counting the rlm command links (package bpe), which the
// engine's own tests do not link. It has no other code.
package httpturns
