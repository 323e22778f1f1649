package decimal

import (
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

func TestRefused(t *testing.T) {
	for _, src := range []string{"import decimal", "from decimal import Decimal", "import decimal as d\nd.Decimal('1.1')"} {
		res := libtest.Run(src, Register)
		if res.Exc == nil || res.Exc.Class().Name() != "NotImplementedError" {
			t.Fatalf("%q: want NotImplementedError, got %v", src, res.Exc)
		}
		msg := res.Exc.Message()
		if !strings.Contains(msg, "not supported in code mode") || !strings.Contains(msg, "decimal") || !strings.Contains(msg, "fractions.Fraction") {
			t.Errorf("%q: message %q", src, msg)
		}
	}
}
