package direct

import (
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// AUDIT: NormalizeEnvelope "applies the same rules" as Normalize
// (docs/direct-runtime.md): Call.Raw is "the argument text exactly as the
// provider sent it", duplicate keys and out-of-range numbers in the
// arguments are the recoverable normalize/malformed_arguments fault. With
// the object form of "arguments" (which NormalizeEnvelope accepts), the
// arguments are instead re-encoded canonically (a 30-digit integer becomes
// a float), and duplicate keys / out-of-range numbers make the whole batch
// fatal.
func TestEnvelopeObjectArguments(t *testing.T) {
	t.Run("big_integer_kept_exactly", func(t *testing.T) {
		es, err := NormalizeEnvelope([]byte(`[{"id":"a","type":"function","function":{"name":"f","arguments":{"n":123456789012345678901234567890}}}]`))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := es[0].Call.Raw, `{"n":123456789012345678901234567890}`; got != want {
			t.Fatalf("Raw = %s, want %s (the runtime would get a rounded float)", got, want)
		}
	})
	for name, env := range map[string]string{
		"duplicate_key":       `[{"id":"a","type":"function","function":{"name":"f","arguments":{"n":1,"n":2}}},{"id":"b","type":"function","function":{"name":"f","arguments":"{}"}}]`,
		"number_out_of_range": `[{"id":"a","type":"function","function":{"name":"f","arguments":{"n":1e400}}},{"id":"b","type":"function","function":{"name":"f","arguments":"{}"}}]`,
	} {
		t.Run(name, func(t *testing.T) {
			es, err := NormalizeEnvelope([]byte(env))
			if err != nil {
				t.Fatalf("batch-fatal %v; want a recoverable per-call fault", err)
			}
			if fe := es[0].Fault; fe == nil || fe.Phase != PhaseNormalize || fe.Kind != KindMalformedArguments {
				t.Fatalf("call a fault = %v, want normalize/malformed_arguments", fe)
			}
			if es[1].Fault != nil || fault.KindOf(es[1].Fault) != "" {
				t.Fatalf("sibling faulted: %v", es[1].Fault)
			}
		})
	}
}
