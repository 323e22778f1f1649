package effect

import (
	"context"
	"errors"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// A failed observation keeps its error whole: recording it again is the
// documented no-op, and its replay reports the same error, cause
// included, so errors.Is still finds the cause's Kind. Before, the
// observation was compared after a lossy round trip (the cause dropped,
// large numbers rounded): the identical observation was refused with
// observation_immutable, and the replayed error lost its cause.
func TestFailedObservationRoundTrips(t *testing.T) {
	const innerKind fault.Kind = "disk_full"
	cases := []struct {
		name string
		err  *fault.Error
	}{
		{"text cause", fault.Wrap(errors.New("write /x: no space left"), fault.PhaseTool, "handler_failed", "the handler failed").With("bytes", 1000000)},
		{"typed cause", fault.Wrap(fault.New(fault.PhaseTool, innerKind, "no space").With("free", 0), fault.PhaseTool, "handler_failed", "the handler failed")},
		{"no cause", fault.New(fault.PhaseTool, "handler_failed", "the handler failed").With("n", 9007199254740993)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			j, _ := openTemp(t)
			d, err := j.Prepare(ctx, req(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			j.Begin(ctx, d.Ticket)
			if err := j.Dispatch(ctx, d.Ticket); err != nil {
				t.Fatal(err)
			}
			obs := Observation{Status: ObservedFailed, Error: tc.err}
			if err := j.Observe(ctx, d.Ticket, obs); err != nil {
				t.Fatal(err)
			}
			if err := j.Observe(ctx, d.Ticket, obs); err != nil {
				t.Fatalf("identical observation recorded again: kind %s: %v", fault.KindOf(err), err)
			}
			rp, err := j.Prepare(ctx, req(`{}`))
			if err != nil || rp.Action != ActionReplay || rp.Observation == nil || rp.Observation.Error == nil {
				t.Fatalf("%+v %v", rp, err)
			}
			got := rp.Observation.Error
			if got.Kind != tc.err.Kind || (got.Cause == nil) != (tc.err.Cause == nil) ||
				(got.Cause != nil && got.Cause.Error() != tc.err.Cause.Error()) {
				t.Fatalf("replayed error %v, want %v", got, tc.err)
			}
			if errors.Is(tc.err, innerKind) != errors.Is(got, innerKind) {
				t.Fatalf("replayed error's cause kind: errors.Is = %v", errors.Is(got, innerKind))
			}
		})
	}
}
