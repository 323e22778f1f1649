package bench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// Kind names a task family.
type Kind string

// Task families.
const (
	// KindNIAH hides one key/value needle line in filler text; the question
	// asks for the value.
	KindNIAH Kind = "niah"
	// KindAggregate spreads labelled records over the input; the question
	// asks for the number of records with one label, or for the most
	// frequent label.
	KindAggregate Kind = "aggregate"
	// KindPairs spreads records with a city and a label over the input; the
	// question asks for every pair of records with a given label in the
	// same city.
	KindPairs Kind = "pairs"
)

// Kinds lists the text task families in a stable order.
func Kinds() []Kind { return []Kind{KindNIAH, KindAggregate, KindPairs} }

// DocumentKinds lists the task families whose context is a document
// (Task.PDF): their engine trials need a PDF engine (pdf.Default, or
// Config.NewStore's).
func DocumentKinds() []Kind { return []Kind{KindChartPDF} }

// Answer forms: how a task's expected answer is written and scored.
const (
	FormValue = "value" // a string that must occur in the answer (NIAH)
	FormCount = "count" // an integer scored 0.75^|diff|
	FormLabel = "label" // one label from Labels, exact match
	FormPairs = "pairs" // a set of id pairs scored by F1
)

// Error kinds of the package.
const (
	// KindInvalidTask reports an unknown task family or an unusable size,
	// seed or run count (Phase config).
	KindInvalidTask fault.Kind = "invalid_task"
)

// Size bounds accepted by Generate.
const (
	MinSize = 64
	MaxSize = 1 << 30
)

// Pair is an unordered pair of record ids, stored with A < B.
type Pair struct {
	A int `json:"a"`
	B int `json:"b"`
}

// NewPair returns the pair of a and b in canonical order.
func NewPair(a, b int) Pair {
	if a > b {
		a, b = b, a
	}
	return Pair{A: a, B: b}
}

// Expected is a task's known answer.
type Expected struct {
	// Form selects the scorer: FormValue, FormCount, FormLabel or
	// FormPairs.
	Form string `json:"form"`
	// Value is the needle value (FormValue) or the label (FormLabel).
	Value string `json:"value,omitempty"`
	// Count is the expected count (FormCount).
	Count int `json:"count,omitempty"`
	// Pairs is the expected set (FormPairs), sorted.
	Pairs []Pair `json:"pairs,omitempty"`
	// Labels are the labels a FormLabel answer may name.
	Labels []string `json:"labels,omitempty"`
}

// String renders the expected answer compactly.
func (e Expected) String() string {
	switch e.Form {
	case FormCount:
		return strconv.Itoa(e.Count)
	case FormPairs:
		parts := make([]string, len(e.Pairs))
		for i, p := range e.Pairs {
			parts[i] = "(" + strconv.Itoa(p.A) + ", " + strconv.Itoa(p.B) + ")"
		}
		return strings.Join(parts, " ")
	}
	return e.Value
}

// Task is one generated benchmark instance.
type Task struct {
	// Kind is the task family.
	Kind Kind `json:"kind"`
	// Seed and Size are the generation parameters.
	Seed uint64 `json:"seed"`
	Size int    `json:"size"`
	// Context is the long input; its length is at least Size bytes and
	// exceeds it by less than one line.
	Context string `json:"-"`
	// Query is the question about Context.
	Query string `json:"query"`
	// Expected is the known answer.
	Expected Expected `json:"expected"`
	// PDF is the document of a KindChartPDF task (nil for the text
	// tasks), Pages its page count; Context is then its text layer.
	PDF   []byte `json:"-"`
	Pages int    `json:"pages,omitempty"`

	chart *chartDoc // KindChartPDF's chart, for tests
}

// Score grades answer (a string, a number or any JSON value) against the
// task's expected answer, in [0, 1].
func (t *Task) Score(answer any) float64 {
	text := AnswerText(answer)
	switch t.Expected.Form {
	case FormValue:
		return ScoreContains(text, t.Expected.Value)
	case FormCount:
		return ScoreCount(text, t.Expected.Count)
	case FormLabel:
		return ScoreLabel(text, t.Expected.Value, t.Expected.Labels)
	case FormPairs:
		return ScorePairs(text, t.Expected.Pairs)
	}
	return 0
}

// ParseKind returns the task family named s.
func ParseKind(s string) (Kind, error) {
	for _, k := range append(Kinds(), DocumentKinds()...) {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fault.New(fault.PhaseConfig, KindInvalidTask, "unknown task; want niah, aggregate, pairs or chart-pdf").With("task", s)
}

// Generate builds the task of family kind with a context of about size
// bytes, deterministically from seed.
func Generate(kind Kind, size int, seed uint64) (*Task, error) {
	if size < MinSize || size > MaxSize {
		return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "size out of range").With("size", size).With("min", MinSize).With("max", MaxSize)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(kind))*0x9e3779b97f4a7c15))
	var t *Task
	switch kind {
	case KindNIAH:
		t = genNIAH(rng, size)
	case KindAggregate:
		t = genAggregate(rng, size)
	case KindPairs:
		t = genPairs(rng, size)
	case KindChartPDF:
		if size > ChartMaxPages*ChartPageBytes {
			return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "size out of range for chart-pdf").With("size", size).With("max", ChartMaxPages*ChartPageBytes).
				WithHint(fmt.Sprintf("chart-pdf writes a page per %d bytes, at most %d pages", ChartPageBytes, ChartMaxPages))
		}
		var err error
		if t, err = genChartPDF(rng, size); err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot write the task's PDF")
		}
	default:
		_, err := ParseKind(string(kind))
		return nil, err
	}
	t.Kind, t.Seed, t.Size = kind, seed, size
	return t, nil
}

// ParseSize parses a byte size: a decimal integer with an optional suffix
// k/kb (1000), ki/kib (1024), m/mb, mi/mib, case-insensitive.
func ParseSize(s string) (int, error) {
	bad := func() (int, error) {
		return 0, fault.New(fault.PhaseConfig, KindInvalidTask, "size must be a byte count such as 20000, 200k or 1m").With("size", s)
	}
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1
	for _, suf := range []struct {
		s string
		m int
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"ki", 1 << 10}, {"mi", 1 << 20}, {"kb", 1000}, {"mb", 1000_000}, {"k", 1000}, {"m", 1000_000}, {"b", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, suf.s)), suf.m
			break
		}
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > MaxSize/mult {
		return bad()
	}
	return n * mult, nil
}
