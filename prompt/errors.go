package prompt

import (
	"github.com/rlm-go/rlm/fault"
)

// Phases of errors from this package.
const (
	PhaseCatalog fault.Phase = "catalog" // unit normalization and catalog build
	PhaseImport  fault.Phase = "import"  // tool-registry import
	PhaseInput   fault.Phase = "input"   // decoding compile input and options
	PhaseCompile fault.Phase = "compile" // compilation
	PhaseSearch  fault.Phase = "search"  // catalog search
	PhaseExplain fault.Phase = "explain" // explanation of one unit
)

// Error kinds reported by this package. Packing failures keep the kinds of
// package pack (context_budget_exceeded, invalid_policy).
const (
	KindInvalidUnitSpec         fault.Kind = "invalid_unit_spec"           // not an object, unknown field, wrong field type
	KindInvalidUnitID           fault.Kind = "invalid_unit_id"             // malformed unit id
	KindUnitKindMismatch        fault.Kind = "unit_kind_mismatch"          // "kind"/"name" disagree with the id
	KindInvalidActivation       fault.Kind = "invalid_activation"          // activation not relevant/always
	KindDuplicateUnit           fault.Kind = "duplicate_unit"              // two different specs for one id
	KindInvalidName             fault.Kind = "invalid_name"                // category or representation kind malformed
	KindDescriptionTooLarge     fault.Kind = "description_too_large"       // description over 2048 characters
	KindContentTooLarge         fault.Kind = "content_too_large"           // content over 32768 characters
	KindTooManyAliases          fault.Kind = "too_many_aliases"            // more than 32 aliases
	KindAliasTooLarge           fault.Kind = "alias_too_large"             // alias over 128 characters
	KindInvalidAlias            fault.Kind = "invalid_alias"               // empty alias
	KindInvalidTrigger          fault.Kind = "invalid_trigger"             // bad trigger shape, text or weight
	KindTooManyTriggers         fault.Kind = "too_many_triggers"           // more than 64 triggers
	KindTooManyRelations        fault.Kind = "too_many_relations"          // more than 64 entries in requires/suggests/conflicts/supersedes
	KindSelfReference           fault.Kind = "self_reference"              // a unit requires, conflicts with, ... itself
	KindInvalidPriority         fault.Kind = "invalid_priority"            // priority outside 0..1000000
	KindSchemaOnlyValidForTools fault.Kind = "schema_only_valid_for_tools" // a schema on a unit that is not a tool
	KindInvalidRepresentation   fault.Kind = "invalid_representation"      // representation malformed
	KindInvalidInput            fault.Kind = "invalid_input"               // compile input malformed
	KindInputTooLarge           fault.Kind = "input_too_large"             // text over 32768 characters or too many entries
	KindInvalidOptions          fault.Kind = "invalid_options"             // options malformed
	KindInvalidDiscoveryScope   fault.Kind = "invalid_discovery_scope"     // scope malformed
	KindScopeWideningDenied     fault.Kind = "discovery_scope_widening_denied"
	KindInvalidCandidateLimit   fault.Kind = "invalid_candidate_limit"  // negative candidate limit
	KindInvalidMode             fault.Kind = "invalid_mode"             // mode not compiled/all_tools
	KindConflictingAlwaysUnits  fault.Kind = "conflicting_always_units" // two always units conflict
	KindSupersedingAlwaysUnits  fault.Kind = "superseding_always_units" // an always unit supersedes another
	KindDuplicateToolName       fault.Kind = "duplicate_tool_name"      // two active tools render the same function name
	KindInvalidSearchQuery      fault.Kind = "invalid_search_query"     // query outside 1..512 characters
	KindInvalidSearchLimit      fault.Kind = "invalid_search_limit"     // non-positive limit
	KindUnknownUnit             fault.Kind = "unknown_unit"             // explain of an id not in the catalog
	KindInvalidSynonyms         fault.Kind = "invalid_synonyms"         // catalog synonyms malformed or too many
)
