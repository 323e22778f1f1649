// Package lru chooses where a small cache of conversations keeps its next
// entry: the request encodings of model/openai and the prompt counts of
// model, both a few entries each, one per conversation.
package lru

import "slices"

// Slot returns the index of entries at which to keep a new entry: the
// slot of prev when the new entry extends it (continues the same
// conversation) and prev is still kept, else the first empty slot, else
// that of the least recently used entry (the smallest used), the first
// of equals.
func Slot[E any](entries []*E, prev *E, extends bool, used func(*E) uint64) int {
	if extends && prev != nil {
		if i := slices.Index(entries, prev); i >= 0 {
			return i
		}
	}
	slot := 0
	for i, e := range entries {
		if e == nil {
			return i
		}
		if used(e) < used(entries[slot]) {
			slot = i
		}
	}
	return slot
}
