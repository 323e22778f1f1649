// Package lib registers code mode's standard modules with the
// interpreter. Each module lives in a package of its own under lib; this
// package only wires them.
//
// Importing lib costs nothing until Register is called: no module package
// has an init function or a package-level variable whose initializer
// reaches into the interpreter, so a program that links lib but never
// calls Register links none of the modules' code.
package lib

import (
	"github.com/rlm-go/rlm/repl/internal/python"

	"github.com/rlm-go/rlm/repl/internal/python/lib/abc"
	"github.com/rlm-go/rlm/repl/internal/python/lib/base64"
	"github.com/rlm-go/rlm/repl/internal/python/lib/bisect"
	"github.com/rlm-go/rlm/repl/internal/python/lib/calendar"
	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
	"github.com/rlm-go/rlm/repl/internal/python/lib/contextlib"
	"github.com/rlm-go/rlm/repl/internal/python/lib/copy"
	"github.com/rlm-go/rlm/repl/internal/python/lib/csv"
	"github.com/rlm-go/rlm/repl/internal/python/lib/dataclasses"
	"github.com/rlm-go/rlm/repl/internal/python/lib/datetime"
	"github.com/rlm-go/rlm/repl/internal/python/lib/decimal"
	"github.com/rlm-go/rlm/repl/internal/python/lib/difflib"
	"github.com/rlm-go/rlm/repl/internal/python/lib/enum"
	"github.com/rlm-go/rlm/repl/internal/python/lib/fractions"
	"github.com/rlm-go/rlm/repl/internal/python/lib/functools"
	"github.com/rlm-go/rlm/repl/internal/python/lib/hashlib"
	"github.com/rlm-go/rlm/repl/internal/python/lib/heapq"
	"github.com/rlm-go/rlm/repl/internal/python/lib/io"
	"github.com/rlm-go/rlm/repl/internal/python/lib/itertools"
	"github.com/rlm-go/rlm/repl/internal/python/lib/json"
	"github.com/rlm-go/rlm/repl/internal/python/lib/keyword"
	"github.com/rlm-go/rlm/repl/internal/python/lib/math"
	"github.com/rlm-go/rlm/repl/internal/python/lib/numbers"
	"github.com/rlm-go/rlm/repl/internal/python/lib/operator"
	"github.com/rlm-go/rlm/repl/internal/python/lib/os"
	"github.com/rlm-go/rlm/repl/internal/python/lib/pprint"
	"github.com/rlm-go/rlm/repl/internal/python/lib/random"
	"github.com/rlm-go/rlm/repl/internal/python/lib/re"
	"github.com/rlm-go/rlm/repl/internal/python/lib/statistics"
	"github.com/rlm-go/rlm/repl/internal/python/lib/string"
	"github.com/rlm-go/rlm/repl/internal/python/lib/sys"
	"github.com/rlm-go/rlm/repl/internal/python/lib/textwrap"
	"github.com/rlm-go/rlm/repl/internal/python/lib/time"
	"github.com/rlm-go/rlm/repl/internal/python/lib/traceback"
	"github.com/rlm-go/rlm/repl/internal/python/lib/types"
	"github.com/rlm-go/rlm/repl/internal/python/lib/typing"
	"github.com/rlm-go/rlm/repl/internal/python/lib/unicodedata"
	"github.com/rlm-go/rlm/repl/internal/python/lib/warnings"
)

// Register makes every standard module importable. Each module's
// Register sets up the module's types the first time it is called, so
// Register must run before an interpreter imports a standard module;
// calling it more than once registers the modules again, which is
// harmless.
func Register() {
	python.Setup()
	abc.Register()
	base64.Register()
	bisect.Register()
	calendar.Register()
	collections.Register()
	contextlib.Register()
	copy.Register()
	csv.Register()
	dataclasses.Register()
	datetime.Register()
	decimal.Register()
	difflib.Register()
	enum.Register()
	fractions.Register()
	functools.Register()
	hashlib.Register()
	heapq.Register()
	io.Register()
	itertools.Register()
	json.Register()
	keyword.Register()
	math.Register()
	numbers.Register()
	operator.Register()
	os.Register()
	pprint.Register()
	random.Register()
	re.Register()
	statistics.Register()
	string.Register()
	sys.Register()
	textwrap.Register()
	time.Register()
	traceback.Register()
	types.Register()
	typing.Register()
	unicodedata.Register()
	warnings.Register()
}
