package csv

import (
	"strconv"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// FuzzModule reads arbitrary text through csv.reader and DictReader with
// options the input picks, and writes the rows back: nothing may panic or
// hang (Python exceptions are fine).
func FuzzModule(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"a\"\"b\",c\r\n", "x;'y;z'\n", "a\\,b,c", "\"open\n", "", "\x00,\u00e9\n\n"} {
		f.Add(s, byte(0))
		f.Add(s, byte(0x5f))
	}
	f.Fuzz(func(t *testing.T, data string, opt byte) {
		delims := []string{",", ";", "\\t", "|"}
		quoting := opt >> 2 % 6
		src := "import csv\n" +
			"data = " + strconv.Quote(data) + "\n" +
			"opts = dict(delimiter='" + delims[opt&3] + "', quoting=" + strconv.Itoa(int(quoting)) + ", strict=" + boolPy(opt&0x20 != 0) +
			", skipinitialspace=" + boolPy(opt&0x40 != 0) + ", escapechar=" + map[bool]string{true: "'\\\\'", false: "None"}[opt&0x80 != 0] + ")\n" +
			`class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
try:
    rows = list(csv.reader(data.splitlines(True), **opts))
    w = W()
    csv.writer(w, **opts).writerows(rows)
    again = list(csv.reader("".join(w.parts).splitlines(True), **opts))
    print(len(rows), len(again))
    print(list(csv.DictReader(data.splitlines(True), restkey="r", **opts))[:3])
except (csv.Error, TypeError, ValueError) as e:
    print(type(e).__name__)
`
		res := libtest.Run(src, Register)
		if res.Exc != nil && res.Exc.Class().Name() != "NotImplementedError" {
			t.Fatalf("uncaught %v on %q", res.Exc, src)
		}
	})
}

func boolPy(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
