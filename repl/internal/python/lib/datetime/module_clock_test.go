package datetime

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// TestClock checks that now(), today() and utcnow() report the host's
// clock, the same at every call, local time being UTC.
func TestClock(t *testing.T) {
	Register()
	in := python.New(python.Config{})
	defer in.Close()
	// 2024-03-01 08:00:19.123456789 UTC.
	in.Clock = func() int64 { return 1709280019_123456789 }
	var out strings.Builder
	th := python.NewThread(context.Background(), in, 1_000_000, func(s string) { out.WriteString(s) })
	src := `
import datetime as dt
print(dt.datetime.now())
print(dt.datetime.now(dt.timezone(dt.timedelta(hours=2))))
print(dt.datetime.now(tz=dt.UTC).isoformat())
print(dt.datetime.utcnow(), dt.datetime.today() == dt.datetime.now())
print(dt.date.today(), repr(dt.datetime.today()))
`
	if err := in.Exec(th, src, "<test>"); err != nil {
		t.Fatal(err)
	}
	want := `2024-03-01 08:00:19.123456
2024-03-01 10:00:19.123456+02:00
2024-03-01T08:00:19.123456+00:00
2024-03-01 08:00:19.123456 True
2024-03-01 datetime.datetime(2024, 3, 1, 8, 0, 19, 123456)
`
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestNoClock checks that now() is refused without a clock.
func TestNoClock(t *testing.T) {
	Register()
	in := python.New(python.Config{})
	defer in.Close()
	th := python.NewThread(context.Background(), in, 1_000_000, func(string) {})
	err := in.Exec(th, "import datetime\ndatetime.datetime.now()", "<test>")
	e, ok := python.AsException(err)
	if !ok || e.Class() != python.NotImplementedErrorType || !strings.Contains(e.Message(), "not supported in code mode") {
		t.Fatalf("got %v, want code mode's NotImplementedError", err)
	}
}
