package python

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Thread is the state of one running cell: its context, its step budget,
// its recursion depth, its output and the exception being handled. A
// Thread is used by one goroutine at a time (a generator's goroutine runs
// only while its consumer waits).
type Thread struct {
	ctx    context.Context
	interp *Interp

	steps     uint64
	maxSteps  uint64
	nextCheck uint64
	stopped   atomic.Pointer[StopError]     // set by the cell's watcher
	gate      atomic.Pointer[chan struct{}] // set by Pause: check waits until it is closed

	depth    int
	maxDepth int
	maxValue int64 // the largest value a single operation may build, in bytes

	out    func(string)
	errOut func(string)

	cDepth    int        // nesting of repr and comparison of containers (CPython's C recursion)
	handled   *Exception // the exception an except block is handling
	reprStack []Object   // containers being rendered by repr
	frame     *Frame     // innermost running frame
	args      []Object   // argument stack of Builtin.callPlain
	parts     []string   // scratch of str.split and splitlines (strParts)
}

// checkEvery is how many steps pass between looks at the stop flag, the
// pause gate and the context. Long builtins tick once per 1,024 units of
// work, so they look every 65,536 units (well under a millisecond).
const checkEvery = 64

// StopError ends a cell at once: it is not a Python exception and no
// except clause or finally block sees it. Kind says why ("cancelled",
// "timeout", "steps", "memory", "fatal").
type StopError struct {
	Kind string
	Msg  string
	Err  error // the cause (the context's error, a host's fatal error)
}

func (e *StopError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Kind
}

func (e *StopError) Unwrap() error { return e.Err }

// NewThread returns a thread for running code of in under ctx.
func NewThread(ctx context.Context, in *Interp, maxSteps uint64, out func(string)) *Thread {
	t := &Thread{ctx: ctx, interp: in, maxSteps: maxSteps, out: out, maxDepth: in.cfg.MaxDepth, maxValue: in.cfg.MaxValueBytes}
	t.nextCheck = min(checkEvery, maxSteps)
	return t
}

// Context returns the thread's context: host builtins that block watch it.
func (t *Thread) Context() context.Context { return t.ctx }

// Interp returns the interpreter the thread runs in.
func (t *Thread) Interp() *Interp { return t.interp }

// Steps returns the steps used so far.
func (t *Thread) Steps() uint64 { return t.steps }

// Pause makes the thread wait at its next check (within checkEvery steps,
// or a long builtin's next Tick) until resume is called or its context
// ends: the cell's watcher pauses it while a forced garbage collection
// decides whether its heap is over the memory bound, so that the cell does
// not allocate on meanwhile. Stop, then resume, ends a paused thread.
func (t *Thread) Pause() (resume func()) {
	ch := make(chan struct{})
	t.gate.Store(&ch)
	var once sync.Once
	return func() {
		once.Do(func() {
			t.gate.Store(nil)
			close(ch)
		})
	}
}

// Stop makes the thread stop at its next step with e (safe from any goroutine).
func (t *Thread) Stop(e *StopError) { t.stopped.CompareAndSwap(nil, e) }

// Stopped returns why the thread was stopped, or nil.
func (t *Thread) Stopped() *StopError { return t.stopped.Load() }

// tick counts one step.
func (t *Thread) tick() error {
	t.steps++
	if t.steps < t.nextCheck {
		return nil
	}
	return t.check()
}

// Tick counts n steps of work done inside one builtin call, so that bounds
// hold inside long builtins too.
func (t *Thread) Tick(n int) error {
	t.steps += uint64(n)
	if t.steps < t.nextCheck {
		return nil
	}
	return t.check()
}

func (t *Thread) check() error {
	if g := t.gate.Load(); g != nil {
		select {
		case <-*g:
		case <-t.ctx.Done():
		}
	}
	if e := t.stopped.Load(); e != nil {
		return e
	}
	if err := t.ctx.Err(); err != nil {
		e := &StopError{Kind: "cancelled", Err: context.Cause(t.ctx)}
		t.stopped.CompareAndSwap(nil, e)
		return t.stopped.Load()
	}
	if t.steps >= t.maxSteps {
		e := &StopError{Kind: "steps", Msg: fmt.Sprintf("cell exceeded its limit of %d steps", t.maxSteps)}
		t.stopped.CompareAndSwap(nil, e)
		return t.stopped.Load()
	}
	t.nextCheck = min(t.steps+checkEvery, t.maxSteps)
	return nil
}

// grow checks that one value of n bytes may be built.
func (t *Thread) grow(n int64) error {
	if t == nil || t.maxValue <= 0 || n <= t.maxValue {
		return nil
	}
	return memoryError(n, t.maxValue)
}

// CheckSize raises MemoryError when one value of n bytes would pass the
// value bound.
func (t *Thread) CheckSize(n int64) error { return t.grow(n) }

// MaxValue returns the value bound in bytes.
func (t *Thread) MaxValue() int64 { return t.maxValue }

func memoryError(n, limit int64) error {
	return Errorf(MemoryErrorType, "a value of about %d bytes would pass code mode's limit of %d bytes per value; work on slices or search results instead", n, limit)
}

// Print writes s to the cell's stdout.
func (t *Thread) Print(s string) {
	if t.out != nil {
		t.out(s)
	}
}

// PrintErr writes s to the cell's stderr.
func (t *Thread) PrintErr(s string) {
	if t.errOut != nil {
		t.errOut(s)
	} else {
		t.Print(s)
	}
}

// SetStderr sets where sys.stderr writes.
func (t *Thread) SetStderr(f func(string)) { t.errOut = f }

// kernelErr converts an error of a kernel that took the thread's context:
// a done context is the thread's stop; anything else is the Python
// exception the kernel named.
// workContext is the context long kernels check: the cell's (a nil
// thread, in library use, has none).
func (t *Thread) workContext() context.Context {
	if t == nil {
		return context.Background()
	}
	return t.ctx
}

// KernelError turns an error of a kernel (pyfmt, pystr, a cancelled
// context) into the Python exception or the stop the thread reports.
func KernelError(t *Thread, err error) error { return t.kernelError(err) }

// kernelError is kernelErr for a thread that may be nil.
func (t *Thread) kernelError(err error) error {
	if t == nil {
		return fromKernel(err)
	}
	return t.kernelErr(err)
}

func (t *Thread) kernelErr(err error) error {
	if err == nil {
		return nil
	}
	if t.ctx.Err() != nil {
		if e := t.check(); e != nil {
			return e
		}
		if e := t.stopped.Load(); e != nil {
			return e
		}
	}
	return fromKernel(err)
}

// enterC counts one level of recursion inside the runtime (a container's
// repr or comparison), as CPython's Py_EnterRecursiveCall does: past the
// limit (half again the frame limit, as CPython's 1,500 to 1,000) it
// raises RecursionError with what appended to the message. A nil thread
// is not counted.
func (t *Thread) enterC(what string) error {
	if t == nil {
		return nil
	}
	t.cDepth++
	if t.cDepth > t.maxDepth+t.maxDepth/2 {
		t.cDepth--
		return Errorf(RecursionErrorType, "maximum recursion depth exceeded%s", what)
	}
	return nil
}

// leaveC ends a level enterC counted.
func (t *Thread) leaveC() {
	if t != nil {
		t.cDepth--
	}
}
