// Package jsonschema is the tool runtime's JSON Schema validator: draft
// 2020-12 (https://json-schema.org/draft/2020-12), self-contained schemas
// only (no external references), with structured errors: every failing
// leaf of a verdict carries the instance location and the keyword that
// failed.
//
// It exists so that package tool's validator does no work at process
// start: nothing is compiled at init, and a schema is checked against the
// draft's meta-schema rules when it is compiled (hand-written checks of
// each keyword's value, the rules of the 2020-12 meta-schemas), not by
// compiling the meta-schemas themselves.
//
// Coverage: every keyword of the core, applicator, unevaluated,
// validation, meta-data, format-annotation and content vocabularies, plus
// the 2020-12 meta-schema's legacy "definitions" and "dependencies". In
// 2020-12 "format" and the content keywords are annotations, as the draft
// says. Refused with a CompileError naming the keyword, because no answer
// here could be exact: "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
// "$recursiveAnchor", references that leave the document, reference
// cycles that never reach a child value, and drafts 06 and 04. "$schema"
// sets the dialect of the document's root and of each embedded resource
// (a subschema with "$id"), as the reference does; elsewhere it must name
// a known dialect and is ignored.
//
// Drafts 07 and 2019-09 keep their own meaning where it differs from
// 2020-12: "items" as an array with "additionalItems"; in 2019-09,
// "contains" does not mark items evaluated; in draft 07, keywords beside
// "$ref" are ignored and "format" is asserted (format.go: every format the
// reference asserts, with its leniencies; an unknown format is not
// asserted). A keyword 2020-12 has and the older draft lacks
// ("prefixItems", and in 07 "$anchor", "dependentRequired",
// "dependentSchemas", "minContains", "maxContains" and the unevaluated
// keywords) is refused rather than ignored, and so are "const" and "$id"
// beside a draft-07 "$ref" (the reference asserts the one and the draft
// ignores both).
//
// The verdict and each leaf's location and keyword agree with
// github.com/santhosh-tekuri/jsonschema/v6 (the validator package tool
// used before; kept as a test-only dependency and compared by a
// differential fuzz target), with these deliberate differences: leaves are
// reported in a deterministic order (properties by name); the keyword of a
// failing "dependentRequired" or "dependencies" is that keyword, not the
// property's name; a failing "not" names "not" (the reference names no
// keyword); and the leaves of a failing "propertyNames" are located at the
// object whose name failed (the reference places them at the root).
package jsonschema
