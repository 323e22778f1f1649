package main

import (
	"io"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// The live line counts turns as the final line does: the root loop's
// turns, not its children's (a child's turn events are at depth 1).
func TestStatusCountsRootTurns(t *testing.T) {
	st := newStatus(io.Discard, false)
	for _, ev := range []trace.Event{
		{Kind: trace.KindTurn, Depth: 0}, {Kind: trace.KindTurn, Depth: 1}, {Kind: trace.KindTurn, Depth: 1},
		{Kind: trace.KindTurn, Depth: 0}, {Kind: trace.KindModelCall, Depth: 0},
	} {
		st.observe(ev)
	}
	if st.turns != 2 {
		t.Fatalf("turns %d, want the root's 2", st.turns)
	}
}
