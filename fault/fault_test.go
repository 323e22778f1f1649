package fault

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestErrorIsAndAs(t *testing.T) {
	e := New(PhaseContext, "stale_handle", "gone").With("handle", "c1")
	wrapped := fmt.Errorf("outer: %w", e)
	if KindOf(wrapped) != "stale_handle" || PhaseOf(wrapped) != PhaseContext {
		t.Fatalf("kind/phase lost: %v", wrapped)
	}
	if !errors.Is(wrapped, &Error{Kind: "stale_handle"}) {
		t.Fatal("errors.Is with empty phase should match")
	}
	if errors.Is(wrapped, &Error{Phase: PhaseTool, Kind: "stale_handle"}) {
		t.Fatal("errors.Is must compare phase when set")
	}
	if KindOf(errors.New("plain")) != "" {
		t.Fatal("plain errors have no kind")
	}
}

func TestErrorJSON(t *testing.T) {
	e := Wrap(New(PhaseProvider, "http_status", "bad").With("status", 500), PhaseExecute, "model_failed", "sub-call failed")
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["phase"] != "execute" || got["kind"] != "model_failed" {
		t.Fatalf("bad json %s", b)
	}
	cause, ok := got["cause"].(map[string]any)
	if !ok || cause["kind"] != "http_status" {
		t.Fatalf("nested cause missing: %s", b)
	}
}

// An error decoded from its JSON is the error encoded: its cause chain
// too (a nested *Error keeps errors.Is on its Kind, a plain cause its
// text), so a recorded failure replays as it was.
func TestErrorJSONRoundTrip(t *testing.T) {
	for _, e := range []*Error{
		New(PhaseTool, "handler_failed", "failed").With("n", 1),
		Wrap(Wrap(errors.New("no space"), PhaseTool, "disk_full", "full").With("free", 0), PhaseTool, "handler_failed", "failed").WithHint("free some space"),
		Wrap(errors.New("connection reset"), PhaseProvider, "transport", "gone"),
	} {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var got *Error
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(got)
		if string(again) != string(b) {
			t.Fatalf("round trip changed the error:\n%s\n%s", b, again)
		}
		for c := error(e); c != nil; c = errors.Unwrap(c) {
			if fe, ok := c.(*Error); ok && !errors.Is(got, fe.Kind) {
				t.Fatalf("decoded %s lost kind %s of its chain", again, fe.Kind)
			}
		}
	}
}

func TestFromContext(t *testing.T) {
	if KindOf(FromContext(PhaseProvider, context.Canceled)) != KindCancelled {
		t.Fatal("canceled")
	}
	if KindOf(FromContext(PhaseProvider, fmt.Errorf("x: %w", context.DeadlineExceeded))) != KindTimeout {
		t.Fatal("deadline")
	}
	if FromContext(PhaseProvider, nil) != nil {
		t.Fatal("nil")
	}
}

func TestHint(t *testing.T) {
	inner := New(PhaseProvider, "http_status", "HTTP 401").With("status", 401).WithHint("check the API key")
	outer := Wrap(inner, PhaseExecute, "model_failed", "sub-call failed")
	if got := HintOf(fmt.Errorf("x: %w", outer)); got != "check the API key" {
		t.Fatalf("HintOf = %q", got)
	}
	if HintOf(errors.New("plain")) != "" || HintOf(nil) != "" {
		t.Fatal("no hint expected")
	}
	b, _ := json.Marshal(inner)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil || got["hint"] != "check the API key" {
		t.Fatalf("hint not in JSON: %s", b)
	}
	b, _ = json.Marshal(New(PhaseConfig, "invalid", "x"))
	got = nil
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["hint"]; ok {
		t.Fatalf("empty hint must be omitted: %s", b)
	}
	// The hint is not part of Error() (the message text is unchanged).
	if inner.Error() != "provider/http_status: HTTP 401 (status=401)" {
		t.Fatalf("Error() = %q", inner.Error())
	}
}

func TestKindIsSentinel(t *testing.T) {
	err := fmt.Errorf("outer: %w", Wrap(New(PhaseTool, "capability_denied", "no"), PhaseExecute, "model_failed", "sub-call"))
	if !errors.Is(err, Kind("capability_denied")) || !errors.Is(err, Kind("model_failed")) {
		t.Fatal("a kind anywhere in the chain matches")
	}
	if errors.Is(err, Kind("timeout")) {
		t.Fatal("another kind must not match")
	}
	if errors.Is(errors.New("capability_denied"), Kind("capability_denied")) {
		t.Fatal("a plain error with the same text is not the kind")
	}
	b, _ := json.Marshal(New(PhaseTool, "capability_denied", "no"))
	if string(b) != `{"phase":"tool","kind":"capability_denied","message":"no"}` {
		t.Fatalf("JSON shape changed: %s", b)
	}
}

// Or keeps an error's own *Error, wraps any other one, and keeps nil.
func TestOr(t *testing.T) {
	own := New(PhaseTool, "k", "m")
	if got := Or(fmt.Errorf("outer: %w", own), PhaseConfig, KindInternal, "x"); got != own {
		t.Fatalf("got %v, want the chain's own error", got)
	}
	plain := errors.New("boom")
	got := Or(plain, PhaseConfig, KindInternal, "")
	if got.Phase != PhaseConfig || got.Kind != KindInternal || got.Message != "boom" || got.Cause != plain {
		t.Fatalf("got %+v", got)
	}
	if got := Or(plain, PhaseConfig, KindInternal, "msg"); got.Message != "msg" {
		t.Fatalf("message %q", got.Message)
	}
	if Or(nil, PhaseConfig, KindInternal, "") != nil {
		t.Fatal("nil became an error")
	}
}
