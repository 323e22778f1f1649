// Package plan is the closed, typed plan language of the rlm runtime.
//
// A root model answers each turn with a JSON document: either a direct
// answer {"answer": ...} or a plan {"steps": [...]}. Parse extracts exactly
// one JSON object from the model's text (tolerating Markdown fences and
// prose around it), decodes it strictly (duplicate keys are rejected) and
// builds the typed AST: a Plan of Steps whose fields hold Exprs. Model text
// is never evaluated as code: every step names one of a closed set of
// operations (context, model, rlm, tool, map, parallel, retry, checkpoint,
// final) and every expression is one of a closed set of shapes (literals,
// input, var, field and index references, join, json, text, lists and
// objects).
//
// Validate checks a whole plan before anything runs: vocabulary, scoping of
// variables, argument types, capabilities against the granted set, and a
// static Estimate against the remaining budget. Execute then runs the steps
// in order against an Env, which the engine implements with budgets,
// tracing and capabilities, binding results into a Session whose variables
// persist across turns like a REPL. Preview renders bounded observations of
// values for the next turn.
//
// Every error is a *fault.Error with a Phase (parse, validate, execute) and
// a Kind constant declared here or in internal/jsonstrict, and names the
// offending location in detail "path", for example
// "steps[2].plan.steps[0].prompt". docs/plan.md is the full contract.
package plan
