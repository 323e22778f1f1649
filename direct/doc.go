// Package direct is the direct runtime: a native tool-calling loop in
// which the model sees function schemas, calls tools, reads bounded
// observations and answers.
//
// Every provider response that carries tool calls goes through, in order:
//
//  1. Normalization of the complete batch (Normalize, NormalizeEnvelope).
//     A malformed envelope, call shape, id or name, a non-function type or
//     an id repeated in the batch is fatal for the whole batch. Argument
//     text that is not exactly one JSON object (duplicate keys included) is
//     a recoverable per-call fault that keeps the raw text.
//  2. One side-effect-free classification pass (Classify): each call is
//     resolved once against the session's trusted catalog and, when it
//     resolved, validated once. Statuses are resolved_call{call, binding}
//     and preflight_fault{call, binding or none, cause}; a fault keeps the
//     binding it resolved to.
//  3. Batch-fatal invariants against the original batch: cardinality,
//     call-id reuse across turns (faulted ids included), any effectful call
//     in a multi-call batch (faulted ones included) and the remaining
//     tool-call and context-op budgets. Only the (phase, kind) pairs
//     schema/malformed_arguments, normalize/malformed_arguments and
//     catalog/unavailable_tool_schema are recoverable (Recoverable);
//     everything else is fatal. A fatal batch runs nothing.
//  4. Sequential execution in provider order: a preflight fault becomes a
//     whitelisted repair observation; a resolved call is charged, then runs
//     through the context store or the canonical tool runtime.
//
// Recoverable is not executable, and visible is not authorized: the tool
// runtime re-checks schema, capability, confinement and authority.
package direct
