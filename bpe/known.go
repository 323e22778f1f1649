package bpe

//go:generate go test -run TestKnownPiecesFile -update-known .

// knownPieces is a table of pieces of the pre-tokenizer whose token counts
// were computed when it was generated (known_pieces.go, by
// TestKnownPiecesFile with -update-known): the pieces of the string
// literals of rlm's built-in prompts (knownSources), so that the first
// count of a process, the root's system prompt before the first model
// request, finds most of its pieces here rather than in the rank table.
// A count here is the merge's count of the same bytes (a piece's count
// depends on its bytes alone), which TestKnownPieces recomputes for
// every entry; a stale table costs speed, never exactness, and
// TestKnownPiecesFile fails when the sources changed.
type knownPieces struct {
	text   string   // the pieces back to back
	ends   []uint16 // ends[i] is where piece i ends in text (it starts at ends[i-1], or 0)
	counts []uint8  // counts[i] is the token count of piece i
	slots  []uint16 // the hash index by vocab.Hash: 1+i for piece i, 0 for an empty slot
}

// piece returns piece i.
func (k *knownPieces) piece(i int) string {
	start := 0
	if i > 0 {
		start = int(k.ends[i-1])
	}
	return k.text[start:k.ends[i]]
}

// count returns the count of p, whose vocab.Hash is h, and whether p is
// in the table.
func (k *knownPieces) count(p string, h uint64) (int, bool) {
	if len(k.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(k.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := k.slots[i]
		if s == 0 {
			return 0, false
		}
		if k.piece(int(s-1)) == p {
			return int(k.counts[s-1]), true
		}
	}
}
