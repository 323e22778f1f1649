package datetime

import (
	"strconv"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// FuzzModule runs the parsing and formatting methods on arbitrary
// strings: nothing may panic or hang (Python exceptions are fine).
func FuzzModule(f *testing.F) {
	for _, s := range [][2]string{{"2024-03-01T08:00:19.5+02:00", "%Y-%m-%dT%H:%M:%S.%f%z"}, {"July 4, 2024", "%B %d, %Y"}, {"12:30 PM", "%I:%M %p"},
		{"2024-W09-5", "%G-W%V-%u"}, {"", ""}, {"99", "%y%%%j"}, {"\u0661\u0662", "%H"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, s, format string) {
		src := "import datetime as dt\n" +
			"s = " + strconv.Quote(s) + "\n" +
			"fmt = " + strconv.Quote(format) + "\n" +
			`for f in [dt.date.fromisoformat, dt.datetime.fromisoformat, dt.time.fromisoformat, lambda s: dt.datetime.strptime(s, fmt)]:
    try:
        v = f(s)
        print(repr(v), str(v), hash(v) == hash(v))
    except ValueError as e:
        print("ValueError")
for v in [dt.datetime(2024, 7, 4, 15, 7, 9, 123456, tzinfo=dt.timezone(dt.timedelta(hours=-5))), dt.date(1, 1, 1), dt.time(23, 59)]:
    try:
        print(v.strftime(fmt), format(v, fmt))
    except ValueError as e:
        print("ValueError")
`
		res := libtest.Run(src, Register)
		if res.Exc != nil && res.Exc.Class().Name() != "NotImplementedError" {
			t.Fatalf("uncaught %v on %q", res.Exc, src)
		}
	})
}
