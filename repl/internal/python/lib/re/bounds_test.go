package re

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// runWith executes src with the names in globals bound, under maxValue.
func runWith(ctx context.Context, src string, maxValue int64, globals map[string]python.Object) runResult {
	Register()
	in := python.New(python.Config{MaxValueBytes: maxValue})
	defer in.Close()
	var out, errOut strings.Builder
	t := python.NewThread(ctx, in, 200_000_000, func(s string) { out.WriteString(s) })
	t.SetStderr(func(s string) { errOut.WriteString(s) })
	for k, v := range globals {
		in.Globals().SetStr(k, v)
	}
	err := in.Exec(t, src, "<test>")
	r := runResult{stdout: out.String(), stderr: errOut.String()}
	if e, ok := python.AsException(err); ok {
		r.exc = e
		r.excMsg, _ = python.StrOf(t, e)
	} else {
		r.err = err
	}
	return r
}

// lowLimits lowers the engine's bounds for the duration of a test.
func lowLimits(t *testing.T, steps, stack int64) {
	oldBase, oldPer, oldStack := stepBase, stepsPerByte, minStack
	stepBase, stepsPerByte, minStack = steps, 0, stack
	t.Cleanup(func() { stepBase, stepsPerByte, minStack = oldBase, oldPer, oldStack })
}

func TestBounds(t *testing.T) {
	lowLimits(t, 1_000_000, 1<<16)
	tests := []struct {
		name, src string
		maxValue  int64
		exc       string // type
		msg       string // part of the message
	}{
		{"steps", `re.match(r'(a+)+b', 'a' * 40)`, 64 << 20, "RuntimeError", "limit of 1000000 steps"},
		{"steps_search", `re.search(r'(x+x+)+y', 'x' * 40)`, 64 << 20, "RuntimeError", "catastrophic backtracking"},
		{"steps_finditer", `list(re.finditer(r'(a|aa)+$', 'a' * 60 + 'b'))`, 64 << 20, "RuntimeError", "steps"},
		{"steps_sub_callable", `re.sub(r'(a+)+b', lambda m: '', 'a' * 40)`, 64 << 20, "RuntimeError", "steps"},
		{"stack", `re.match(r'(?:(a)|b)*c', 'ab' * 200000)`, 1 << 20, "RecursionError", "stack limit of 1048576 bytes"},
		{"findall_memory", `re.findall('a', 'a' * 100000)`, 1 << 20, "MemoryError", "limit of 1048576 bytes"},
		{"findall_tuples_memory", `re.findall('(a)(b)', 'ab' * 50000)`, 1 << 20, "MemoryError", "limit"},
		{"split_memory", `re.split('a', 'ba' * 100000)`, 1 << 20, "MemoryError", "limit"},
		{"sub_memory", `re.sub('a', 'aaaa', 'a' * 300000)`, 1 << 20, "MemoryError", "limit"},
		{"sub_callable_memory", `re.sub('a', lambda m: 'aaaa', 'a' * 300000)`, 1 << 20, "MemoryError", "limit"},
		{"expand_memory", `re.match('(a+)', 'a' * 300000).expand(r'\1\1\1\1')`, 1 << 20, "MemoryError", "limit"},
		{"escape_memory", `re.escape('.' * 600000)`, 1 << 20, "MemoryError", "limit"},
		{"debug", `re.compile('a', re.DEBUG)`, 64 << 20, "NotImplementedError", "re.DEBUG flag (printing the parsed pattern) is not supported in code mode"},
		{"huge_flag", `re.I | (1 << 100)`, 64 << 20, "NotImplementedError", "RegexFlag values beyond 64 bits"},
		{"scanner_groups", `re.Scanner([('(a)', None)])`, 64 << 20, "NotImplementedError", "capturing groups"},
		{"scanner_global_flags", `re.Scanner([('(?i)a', None)])`, 64 << 20, "NotImplementedError", "inline global flags"},
		{"mixed_template", `re.match('(a)', 'a').expand(b'\xff')`, 64 << 20, "NotImplementedError", "non-ASCII bytes template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runWith(context.Background(), "import re\n"+tt.src, tt.maxValue, nil)
			if r.err != nil {
				t.Fatalf("stopped: %v", r.err)
			}
			if r.exc == nil {
				t.Fatalf("no exception; stdout %q", r.stdout)
			}
			if r.exc.TypeName() != tt.exc || !strings.Contains(r.excMsg, tt.msg) {
				t.Fatalf("raised %s: %s; want %s containing %q", r.exc.TypeName(), r.excMsg, tt.exc, tt.msg)
			}
		})
	}
}

// cancelText is a context whose first regex operation cancels the cell's
// context, as a host would when the run is stopped during a long match.
type cancelText struct {
	memText
	cancel context.CancelFunc
}

func (c *cancelText) View(ctx context.Context, op string, f func(b []byte) error) error {
	if op == "regex" {
		c.cancel()
	}
	return f(c.b)
}

func TestCancelStopsCell(t *testing.T) {
	for _, src := range []string{
		`re.search(r'(x+x+)+y', context)`,
		`re.findall(r'(x+x+)+y', context)`,
		`list(re.finditer(r'(x+x+)+y', context))`,
		`re.sub(r'(x+x+)+y', '', context)`,
		`re.sub(r'(x+x+)+y', lambda m: '', context)`,
		`re.split(r'(x+x+)+y', context)`,
	} {
		ctx, cancel := context.WithCancel(context.Background())
		text := &cancelText{memText: memText{name: "context", b: []byte(strings.Repeat("x", 40))}, cancel: cancel}
		r := runWith(ctx, "import re\n"+src, 64<<20, map[string]python.Object{"context": python.NewHostStr(text)})
		cancel()
		var stop *python.StopError
		if !errors.As(r.err, &stop) || stop.Kind != "cancelled" {
			t.Errorf("%s: got err %v, exception %v; want the cell stopped", src, r.err, r.exc)
		}
	}
}

// genLog builds a deterministic log of about size bytes with some
// non-ASCII text.
func genLog(size int) string {
	var b strings.Builder
	words := []string{"GET", "/api/v1/items", "200", "12ms", "café", "user_42", "東京", "ERROR", "timeout", "naïve"}
	for i := 0; b.Len() < size; i++ {
		b.WriteString("2024-01-02 10:00:")
		b.WriteString(itoa(i % 60))
		for j := 0; j < 8; j++ {
			b.WriteByte(' ')
			b.WriteString(words[(i*7+j*3)%len(words)])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestFinditerStreamsOverContext(t *testing.T) {
	text := &memText{name: "context", b: []byte(genLog(1 << 20)), ops: map[string]int{}}
	ctx := python.NewHostStr(text)
	r := runWith(context.Background(), `import re
n = 0
last = None
for m in re.finditer(r'\w+', context):
    n += 1
    last = m
print(n, last.span(), last.group(), len(context))
words = re.findall(r'\w+', context[:200000])
print(len(words))
`, 64<<20, map[string]python.Object{"context": ctx})
	if r.err != nil || r.exc != nil {
		t.Fatalf("%v %v %s", r.err, r.exc, r.excMsg)
	}
	// Compare with the same scan over a str.
	r2 := runWith(context.Background(), `import re
n = 0
last = None
for m in re.finditer(r'\w+', s):
    n += 1
    last = m
print(n, last.span(), last.group(), len(s))
words = re.findall(r'\w+', s[:200000])
print(len(words))
`, 64<<20, map[string]python.Object{"s": python.NewStr(string(text.b))})
	if r.stdout != r2.stdout {
		t.Fatalf("context scan %q, str scan %q", r.stdout, r2.stdout)
	}
	matches := strings.Count(string(text.b), " ") // about one word per space
	if ops := text.ops["regex"]; ops == 0 || ops > matches/5000 {
		t.Errorf("finditer used %d regex operations for about %d matches; want batches", ops, matches)
	}
	t.Logf("%s; %d regex operations", strings.TrimSpace(r.stdout), text.ops["regex"])
}

func TestContextHugeGroup(t *testing.T) {
	text := &memText{name: "context", b: []byte(strings.Repeat("é", 600000))}
	r := runWith(context.Background(), `import re
m = re.search('(?s)(.+)', context)
print(m.span(), m.span(1), m.end())
try:
    m.group(1)
except MemoryError as e:
    print('MemoryError', 'context' in str(e))
print(re.search('(?s)é{3}', context).group())
`, 1<<20, map[string]python.Object{"context": python.NewHostStr(text)})
	if r.err != nil || r.exc != nil {
		t.Fatalf("%v %v %s", r.err, r.exc, r.excMsg)
	}
	want := "(0, 600000) (0, 600000) 600000\nMemoryError True\nééé\n"
	if r.stdout != want {
		t.Fatalf("got %q, want %q", r.stdout, want)
	}
}

// TestContextSubCallableOutsideView checks that a callable repl over a
// context runs outside the host's view: it may use the context itself.
func TestContextSubCallableOutsideView(t *testing.T) {
	text := &nestText{memText: memText{name: "context", b: []byte(strings.Repeat("ab ", 5000))}}
	r := runWith(context.Background(), `import re
out = re.sub('a', lambda m: context[m.start() + 1], context)
print(len(out), out[:9], out == 'bb ' * 5000)
`, 64<<20, map[string]python.Object{"context": python.NewHostStr(text)})
	if r.err != nil || r.exc != nil {
		t.Fatalf("%v %v %s", r.err, r.exc, r.excMsg)
	}
	if r.stdout != "15000 bb bb bb  True\n" {
		t.Fatalf("got %q", r.stdout)
	}
	if text.nested {
		t.Fatal("the callable ran inside a view")
	}
}

// nestText records whether a view was opened inside another.
type nestText struct {
	memText
	depth  int
	nested bool
}

func (n *nestText) View(ctx context.Context, op string, f func(b []byte) error) error {
	n.depth++
	defer func() { n.depth-- }()
	if n.depth > 1 {
		n.nested = true
	}
	return f(n.b)
}
