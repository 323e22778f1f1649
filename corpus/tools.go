package corpus

import "reflect"

// Names of the context tools: the context operations offered as
// function-calling tools, by the direct loop (context_peek, context_slice,
// context_search) and by rlm mcp serve (context_metadata, context_search,
// context_slice, each with a path).
const (
	ToolContextPeek     = "context_peek"
	ToolContextSlice    = "context_slice"
	ToolContextSearch   = "context_search"
	ToolContextMetadata = "context_metadata"
)

// ContextTool declares one context tool over an Action type. It is the one
// declaration the other shapes derive from: the direct loop's tools (their
// schema is tool.SchemaOf(Args) — the corpus package links no schema
// library), rlm mcp serve's tools (Args composed with a path), and the
// parameters the plan language and code mode name (a test in engine checks
// their prompts against it).
type ContextTool struct {
	// Name is the function name shown to a model.
	Name string
	// Op is the action type (ActionPeek, ActionSlice, ActionSearch), also
	// the operation of the tool's context:OP capability.
	Op string
	// Description is the tool's description.
	Description string
	// Args is the Go type of the arguments (PeekArgs, SliceArgs,
	// SearchArgs); its json and jsonschema field tags are the parameter
	// schema.
	Args reflect.Type
}

// ContextTools returns the context tools a model can call, in the order
// they are offered: search, slice, peek.
func ContextTools() []ContextTool {
	return []ContextTool{
		{ToolContextSearch, ActionSearch, "Search the input context line by line; returns matching lines with their 1-based line numbers. pattern is a literal unless regex is true.",
			reflect.TypeFor[SearchArgs]()},
		{ToolContextSlice, ActionSlice, "Read length bytes of the input context starting at byte offset start (length 0 or absent: through the end, bounded).",
			reflect.TypeFor[SliceArgs]()},
		{ToolContextPeek, ActionPeek, "Peek at the input context: its metadata, or count bytes of its head or tail.",
			reflect.TypeFor[PeekArgs]()},
	}
}

// SearchArgs are the arguments of the search action (context_search):
// Action's Pattern and Regex.
type SearchArgs struct {
	Pattern string `json:"pattern" jsonschema:"minLength=1,description=the text to find (a literal unless regex is true)"`
	Regex   bool   `json:"regex,omitempty" jsonschema:"description=treat pattern as an RE2 regular expression"`
}

// Action returns the search action.
func (a SearchArgs) Action() Action {
	return Action{Type: ActionSearch, Pattern: a.Pattern, Regex: a.Regex}
}

// SliceArgs are the arguments of the slice action (context_slice): Action's
// Start and Length. Start has no upper bound: a start past the end of the
// context is out_of_range like any other, not a malformed call. Length 0
// (or absent) reads through the end; the operation's byte limit (Limits,
// 64 KiB by default) bounds what is returned either way.
type SliceArgs struct {
	Start  int64 `json:"start" jsonschema:"minimum=0,maximum=,description=byte offset"`
	Length int64 `json:"length,omitempty" jsonschema:"minimum=0,description=bytes (0: through the end, bounded by 64 KiB)"`
}

// Action returns the slice action.
func (a SliceArgs) Action() Action {
	return Action{Type: ActionSlice, Start: a.Start, Length: a.Length}
}

// PeekArgs are the arguments of the peek action (context_peek): Action's
// Selector and Count.
type PeekArgs struct {
	Selector string `json:"selector" jsonschema:"enum=metadata|head|tail,description=metadata, or the head or tail bytes"`
	Count    int64  `json:"count,omitempty" jsonschema:"minimum=1,maximum=65536,description=bytes of the head or tail"`
}

// Action returns the peek action.
func (a PeekArgs) Action() Action {
	return Action{Type: ActionPeek, Selector: a.Selector, Count: a.Count}
}
