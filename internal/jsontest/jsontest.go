// Package jsontest checks JSON encodings in tests.
package jsontest

import (
	"encoding/json"
	"testing"
)

// RoundTrip checks that in encodes as exactly wire and that wire decodes
// to back (in itself, unless encoding loses precision).
func RoundTrip[T comparable](t testing.TB, in T, wire string, back T) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil || string(b) != wire {
		t.Errorf("%+v: JSON %s, %v\nwant %s", in, b, err, wire)
		return
	}
	var got T
	if err := json.Unmarshal(b, &got); err != nil || got != back {
		t.Errorf("%s: decoded %+v, %v, want %+v", b, got, err, back)
	}
}
