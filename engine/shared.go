package engine

import "unique"

// sharedText returns s, or an equal string another loop holds, and the
// handle that keeps it shared: while any loop holds the handle, a loop
// rendering the same text gets the same bytes rather than a copy of its
// own. Children that differ only in their query (rlm_query_batched over one
// context, rlm_subagent children of one parent) render the same system
// prompt of several kilobytes, and each waiting child kept its own copy
// (issue 35). The caller keeps the handle alive (runtime.KeepAlive) as
// long as it uses the text.
func sharedText(s string) (string, unique.Handle[string]) {
	h := unique.Make(s)
	return h.Value(), h
}
