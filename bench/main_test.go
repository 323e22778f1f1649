package bench

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm"
)

// directSystem is the system message of the direct method.
var directSystem = rlm.DirectMessages("", "")[0].Content

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
