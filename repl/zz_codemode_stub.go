// TEMPORARY (codemode branch only): a minimal stand-in for package repl,
// written against /work/wt/REPL_API.md so the engine integration compiles
// and runs before the repl branch lands. It runs plain Starlark (no
// translation layer). Delete this file when merging the repl branch.

// Package repl is a sandboxed, budgeted, persistent interpreter.
package repl

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

type Config struct {
	MaxCellSteps   uint64
	MaxTotalSteps  uint64
	CellTimeout    time.Duration
	MaxOutputBytes int
	MaxValueBytes  int64
	MaxRecursion   int
}

type Interp struct {
	cfg     Config
	std     starlark.StringDict
	host    starlark.StringDict
	globals starlark.StringDict
	total   uint64
}

type Outcome struct {
	Stdout      string
	CutBytes    int
	Exception   *Exception
	Final       *Final
	Steps       uint64
	Translated  bool
	Fingerprint string
}

type Exception struct {
	Type    string
	Message string
	Line    int
}

type Final struct{ Value any }

type Var struct{ Name, Type, Preview string }

type fatal struct{ err error }

func (f fatal) Error() string { return f.err.Error() }
func (f fatal) Unwrap() error { return f.err }

func Fatal(err error) error { return fatal{err} }
func IsFatal(err error) bool {
	var f fatal
	return errors.As(err, &f)
}

type finalSignal struct {
	v    starlark.Value
	name string
}

func (finalSignal) Error() string { return "final" }

type out struct {
	b   strings.Builder
	max int
	cut int
}

func (o *out) write(s string) {
	if left := o.max - o.b.Len(); left < len(s) {
		if left > 0 {
			o.b.WriteString(s[:left])
		}
		o.cut += len(s) - max(left, 0)
		return
	}
	o.b.WriteString(s)
}

func Print(thread *starlark.Thread, s string) {
	if o, ok := thread.Local("repl.out").(*out); ok {
		o.write(s)
	}
}

func New(cfg Config, host starlark.StringDict) (*Interp, error) {
	if cfg.MaxCellSteps == 0 {
		cfg.MaxCellSteps = 50_000_000
	}
	if cfg.CellTimeout == 0 {
		cfg.CellTimeout = 60 * time.Second
	}
	if cfg.MaxOutputBytes == 0 {
		cfg.MaxOutputBytes = 64 << 10
	}
	it := &Interp{cfg: cfg, host: host, globals: starlark.StringDict{}}
	it.std = starlark.StringDict{
		"json": &starlarkstruct.Module{Name: "json", Members: starlark.StringDict{
			"dumps": json.Module.Members["encode"], "loads": json.Module.Members["decode"]}},
		"math": math.Module,
		"FINAL": starlark.NewBuiltin("FINAL", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("FINAL takes one argument")
			}
			return nil, finalSignal{v: args[0]}
		}),
		"FINAL_VAR": starlark.NewBuiltin("FINAL_VAR", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			var name string
			if err := starlark.UnpackPositionalArgs("FINAL_VAR", args, nil, 1, &name); err != nil {
				return nil, err
			}
			return nil, finalSignal{name: name}
		}),
		"SHOW_VARS": starlark.NewBuiltin("SHOW_VARS", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			var b strings.Builder
			for _, v := range it.Vars() {
				fmt.Fprintf(&b, "%s: %s = %s\n", v.Name, v.Type, v.Preview)
			}
			Print(th, b.String())
			return starlark.None, nil
		}),
	}
	return it, nil
}

func (it *Interp) Set(name string, v starlark.Value) { it.globals[name] = v }

func (it *Interp) Vars() []Var {
	var out []Var
	for n, v := range it.globals {
		if strings.HasPrefix(n, "_") {
			continue
		}
		p := v.String()
		if len(p) > 200 {
			p = p[:200] + "..."
		}
		out = append(out, Var{Name: n, Type: v.Type(), Preview: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (it *Interp) Exec(ctx context.Context, src string) (*Outcome, error) {
	o := &out{max: it.cfg.MaxOutputBytes}
	res := &Outcome{Fingerprint: fingerprint.Bytes([]byte(src))}
	th := &starlark.Thread{Name: "cell", Print: func(_ *starlark.Thread, msg string) { o.write(msg + "\n") }}
	th.SetLocal("repl.out", o)
	th.SetLocal("context", ctx)
	th.SetMaxExecutionSteps(it.cfg.MaxCellSteps)
	cctx, cancel := context.WithTimeout(ctx, it.cfg.CellTimeout)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-cctx.Done():
			th.Cancel("cancelled")
		case <-done:
		}
	}()
	pre := starlark.StringDict{}
	for k, v := range it.std {
		pre[k] = v
	}
	for k, v := range it.host {
		pre[k] = v
	}
	for k, v := range it.globals {
		pre[k] = v
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	g, err := starlark.ExecFileOptions(opts, th, "cell", src, pre)
	for k, v := range g {
		it.globals[k] = v
	}
	res.Steps = th.ExecutionSteps()
	it.total += res.Steps
	res.Stdout, res.CutBytes = o.b.String(), o.cut
	var fs finalSignal
	if err != nil {
		if IsFatal(err) {
			var f fatal
			errors.As(err, &f)
			return res, f.err
		}
		if ctx.Err() != nil {
			return res, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		if errors.As(err, &fs) {
			if fs.name != "" {
				fs.v = it.globals[fs.name]
				if fs.v == nil {
					res.Exception = &Exception{Type: "NameError", Message: "FINAL_VAR: no variable " + fs.name}
					return res, nil
				}
			}
			v, cerr := ToGo(fs.v)
			if cerr != nil {
				res.Exception = &Exception{Type: "TypeError", Message: cerr.Error()}
				return res, nil
			}
			res.Final = &Final{Value: v}
			return res, nil
		}
		res.Exception = &Exception{Type: "Error", Message: err.Error()}
		var se syntax.Error
		if errors.As(err, &se) {
			res.Exception.Type = "SyntaxError"
			res.Exception.Line = int(se.Pos.Line)
		}
		if cctx.Err() != nil {
			res.Exception.Type = "TimeoutError"
		}
		return res, nil
	}
	if a, ok := it.globals["answer"].(*starlark.Dict); ok {
		r, _, _ := a.Get(starlark.String("ready"))
		c, found, _ := a.Get(starlark.String("content"))
		if r == starlark.True && found {
			v, cerr := ToGo(c)
			if cerr == nil {
				res.Final = &Final{Value: v}
			}
		}
	}
	return res, nil
}

func ToGo(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("int too large")
		}
		return n, nil
	case starlark.Float:
		return float64(x), nil
	case starlark.String:
		return string(x), nil
	case *starlark.List:
		out := make([]any, x.Len())
		for i := range x.Len() {
			e, err := ToGo(x.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case starlark.Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := ToGo(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case *starlark.Dict:
		out := map[string]any{}
		for _, kv := range x.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("dict key %s is not a string", kv[0].Type())
			}
			g, err := ToGo(kv[1])
			if err != nil {
				return nil, err
			}
			out[string(k)] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot convert %s", v.Type())
}

func FromGo(x any) (starlark.Value, error) {
	switch v := x.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(v), nil
	case int:
		return starlark.MakeInt(v), nil
	case int64:
		return starlark.MakeInt64(v), nil
	case float64:
		return starlark.Float(v), nil
	case stdjson.Number:
		if n, err := v.Int64(); err == nil {
			return starlark.MakeInt64(n), nil
		}
		f, err := v.Float64()
		return starlark.Float(f), err
	case string:
		return starlark.String(v), nil
	case []any:
		out := make([]starlark.Value, len(v))
		for i, e := range v {
			s, err := FromGo(e)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return starlark.NewList(out), nil
	case []string:
		out := make([]starlark.Value, len(v))
		for i, e := range v {
			out[i] = starlark.String(e)
		}
		return starlark.NewList(out), nil
	case map[string]any:
		d := starlark.NewDict(len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s, err := FromGo(v[k])
			if err != nil {
				return nil, err
			}
			_ = d.SetKey(starlark.String(k), s)
		}
		return d, nil
	}
	return nil, fmt.Errorf("cannot convert %T", x)
}
