package base64

import (
	"encoding/base64"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// FuzzA2bBase64 decodes arbitrary text leniently and strictly: no panic,
// only binascii.Error, and the encoding of any bytes decodes back to them.
func FuzzA2bBase64(f *testing.F) {
	errorCls = python.NewBuiltinType("Error", "binascii", python.ValueErrorType, nil)
	for _, s := range []string{"aGk=", "aGk", "a", "=aGk", "aG=k=", "aGk==x", "", "====", "YWJjZA==", "!!", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, strict := range []bool{false, true} {
			if _, err := a2bBase64(s, strict); err != nil {
				if e, ok := python.AsException(err); !ok || e.Class() != errorCls {
					t.Fatalf("a2b_base64(%q, %v): %v", s, strict, err)
				}
			}
		}
		enc := base64.StdEncoding.EncodeToString([]byte(s))
		for _, strict := range []bool{false, true} {
			v, err := a2bBase64(enc, strict)
			if err != nil || v.(*python.Bytes).String() != s {
				t.Fatalf("round trip of %q (strict %v): %v", s, strict, err)
			}
		}
	})
}
