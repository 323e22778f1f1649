package repl

import (
	"context"
	"testing"
)

// TestBuiltinsSharedUntilChanged checks each change an interpreter may
// make to its builtins, each as the first change of a new interpreter:
// the namespace shares its entries and index with every other
// interpreter's until it changes one (issue 35), so the first rebinding,
// addition or deletion must copy them, and a new interpreter made after
// it still sees the standard builtins.
func TestBuiltinsSharedUntilChanged(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, change, check, want string }{
		{"rebind", "builtins.len = lambda x: -1", "print(len('ab'))", "-1\n"},
		{"setattr", "setattr(builtins, 'abs', lambda x: 0)", "print(abs(-3))", "0\n"},
		{"add", "builtins.extra = 7", "print(extra)", "7\n"},
		{"delete", "del builtins.abs", "print('abs' in dir(builtins))", "False\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newInterp(t, Config{}, nil)
			if o, err := a.Exec(ctx, "import builtins\n"+tc.change+"\n"+tc.check); err != nil || o.Exception != nil || o.Stdout != tc.want {
				t.Fatalf("changed: %v %+v %q, want %q", err, o.Exception, o.Stdout, tc.want)
			}
			b := newInterp(t, Config{}, nil)
			o, err := b.Exec(ctx, "import builtins\nprint(len('ab'), abs(-3), 'extra' in dir(builtins))")
			if err != nil || o.Exception != nil || o.Stdout != "2 3 False\n" {
				t.Fatalf("another interpreter: %v %+v %q", err, o.Exception, o.Stdout)
			}
		})
	}
}
