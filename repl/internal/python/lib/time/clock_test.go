package time

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// TestClock checks the clock functions against a host clock fixed at
// 2023-11-14T22:13:20.5Z: time() is that instant at every call, the
// counters are 0.
func TestClock(t *testing.T) {
	Register()
	in := python.New(python.Config{})
	defer in.Close()
	in.Clock = func() int64 { return 1700000000_500000000 }
	var out strings.Builder
	th := python.NewThread(context.Background(), in, 1<<30, func(s string) { out.WriteString(s) })
	src := `import time
a = time.time()
b = time.time()
print(a, a == b, time.time_ns(), time.monotonic(), time.perf_counter(), time.process_time(), time.monotonic_ns())
print(time.gmtime(), time.localtime().tm_zone, time.strftime("%Y-%m-%d %H:%M:%S"), time.ctime(), time.asctime())
`
	if err := in.Exec(th, src, "<test>"); err != nil {
		t.Fatal(err)
	}
	want := "1700000000.5 True 1700000000500000000 0.0 0.0 0.0 0\n" +
		"time.struct_time(tm_year=2023, tm_mon=11, tm_mday=14, tm_hour=22, tm_min=13, tm_sec=20, tm_wday=1, tm_yday=318, tm_isdst=0) UTC 2023-11-14 22:13:20 Tue Nov 14 22:13:20 2023 Tue Nov 14 22:13:20 2023\n"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}

// TestNoClock checks that without a host clock time() is refused.
func TestNoClock(t *testing.T) {
	Register()
	in := python.New(python.Config{})
	defer in.Close()
	th := python.NewThread(context.Background(), in, 1<<30, func(string) {})
	err := in.Exec(th, "import time\ntime.time()\n", "<test>")
	e, ok := python.AsException(err)
	if !ok || e.Class().Name() != "NotImplementedError" || !strings.Contains(e.Message(), "not supported in code mode") {
		t.Fatalf("got %v", err)
	}
}
