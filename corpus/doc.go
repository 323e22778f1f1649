// Package corpus is the external context store of the rlm runtime.
//
// A Store holds the large texts a Recursive Language Model works over. Text
// is registered from a string, an io.Reader or a file; files are
// memory-mapped (on unix) rather than copied. Registration returns an opaque
// Handle, and every later operation names its text by Handle.
//
// Operations are bounded and accounted: each takes a context.Context and a
// Limits value (maximum results, maximum output bytes, time limit), returns a
// Result carrying the value, a truncated flag and an Accounting of the work
// done, and fails with a *fault.Error of phase "context" whose Kind is one of
// the Kind constants declared in this package.
//
// AddStream spools a stream (stdin) to a mapped temporary file, and AddFiles
// registers several files or directories as one composite context whose
// metadata lists the files, each with a sub-context handle.
//
// The operations are peek (head, tail, metadata), slice, search (literal or
// RE2 regular expression, listing matching lines or counting them),
// partition (into chunks of bytes or lines, optionally as sub-context
// handles), map (a closed set of per-line transforms) and reduce (count,
// byte_count). Do runs any of them from an Action, the JSON shape used by the
// plan language.
//
// All offsets and sizes are bytes. Offsets supplied by callers snap back to
// the first byte of the UTF-8 character containing them; byte budgets
// (max_bytes, head and tail counts, the per-line cap, partition sizes) are
// never exceeded, so text cut to a budget drops a partial character at the
// cut. docs/corpus.md is the full contract.
package corpus
