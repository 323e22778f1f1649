package repl

import (
	"context"
	"testing"
)

func TestSmoke(t *testing.T) {
	it, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"x = 1\nprint('hi', x)",
		"print(x + 1)\ndef f(n):\n    return n * 2\nprint(f(3), 'ab' * 3)",
		"import_re = _rlm_import('re')\nm = re.search(r'(\\d+)-(\\d+)', 'a 12-34 b')\nprint(m.group(1), m.groups(), m.span())",
		"c = collections.Counter('hello')\nprint(c.most_common(2), c['z'])\nc['z'] += 1\nprint(c)",
		"print(json.dumps({'b': [1, 2.5, None], 'a': 'é'}, indent=2, sort_keys=True))",
		"print('{:>8.2f}|{:,}|{!r}'.format(3.14159, 1234567, 'x'))",
		"l = [3,1,2]\nl.sort(reverse=True)\nprint(l, sorted('cab'), max([1,5,2], key=lambda v: -v), min([], default=0))",
		"y = undefined_name",
		"1/0",
		"FINAL_VAR('x')\nprint('not reached')",
		"answer = {'content': 'done', 'ready': True}",
		"SHOW_VARS()",
	} {
		o, err := it.Exec(context.Background(), src)
		t.Logf("src=%q\n out=%q exc=%+v final=%+v steps=%d err=%v", src, o.Stdout, o.Exception, o.Final, o.Steps, err)
	}
}
