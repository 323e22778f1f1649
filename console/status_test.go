package console

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/trace"
)

// The live line counts turns as the final line does: the root loop's
// turns, not its children's (a child's turn events are at depth 1).
func TestStatusCountsRootTurns(t *testing.T) {
	st := NewStatus(io.Discard, false)
	for _, ev := range []trace.Event{
		{Kind: trace.KindTurn, Depth: 0}, {Kind: trace.KindTurn, Depth: 1}, {Kind: trace.KindTurn, Depth: 1},
		{Kind: trace.KindTurn, Depth: 0}, {Kind: trace.KindModelCall, Depth: 0},
	} {
		st.Observe(ev)
	}
	if st.turns != 2 {
		t.Fatalf("turns %d, want the root's 2", st.turns)
	}
}

// On a terminal the status line shows retries and their back-off.
func TestStatusLineShowsRetries(t *testing.T) {
	var b bytes.Buffer
	st := NewStatus(&b, true)
	st.Retry(openai.Retry{Attempt: 1, Wait: 9 * time.Second, Status: 429, Model: "m"})
	if !strings.Contains(b.String(), "retrying in 9s after HTTP 429") {
		t.Fatalf("%q", b.String())
	}
	b.Reset()
	st.Retry(openai.Retry{Attempt: 2, Wait: 1500 * time.Millisecond})
	if !strings.Contains(b.String(), "retrying in 1.5s after a connection error") {
		t.Fatalf("%q", b.String())
	}
	st.Stop()
}

// IsTerminal: /dev/null is a character device but not a terminal, and a
// writer that is not a file is not one either.
func TestIsTerminalNotCharDevice(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if st, err := null.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	if IsTerminal(null) {
		t.Fatalf("IsTerminal(%s) = true", os.DevNull)
	}
	if IsTerminal(new(strings.Builder)) {
		t.Fatal("IsTerminal(strings.Builder) = true")
	}
}
