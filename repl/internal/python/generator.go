package python

import (
	"fmt"
	"runtime"
	"sync"
)

// Generator is the iterator a generator function returns. Its body runs on
// a goroutine of its own that runs only while its consumer waits (the
// hand-over is a channel exchange), so the body suspends at yield with its
// whole Go stack. A for loop over a temporary generator closes it when the
// loop ends early (its finally blocks run, as in CPython); another
// abandoned generator's goroutine is ended, without running its finally
// blocks, after the garbage collector finds it unreachable or when its
// interpreter is closed.
type Generator struct {
	identity
	core  *genCore
	frame *Frame
}

// genCore is what the body's goroutine holds: no pointer back to the
// Generator, so that an unreachable generator can be collected.
type genCore struct {
	mu      sync.Mutex // guards state against a cleanup run by the GC
	frame   *Frame
	resume  chan genMsg
	out     chan genResult
	state   genState
	interp  *Interp
	started bool
}

type genState uint8

const (
	genCreated genState = iota
	genSuspended
	genRunning
	genDone
)

type genMsg struct {
	t     *Thread
	value Object
	exc   *Exception
	kill  bool
}

type genResult struct {
	value Object
	err   error
	done  bool
}

// errGenKilled unwinds an abandoned generator's body.
var errGenKilled = &StopError{Kind: "generator"}

// Type returns generator.
func (*Generator) Type() *Type { return GeneratorType }

func newGenerator(t *Thread, f *Frame) *Generator {
	core := &genCore{frame: f, interp: t.interp}
	f.gen = core
	g := &Generator{core: core, frame: f}
	runtime.AddCleanup(g, func(c *genCore) { c.interp.abandon(c) }, core)
	return g
}

// Next implements next(g).
func (g *Generator) Next(t *Thread) (Object, error) {
	v, done, err := g.core.send(t, None, nil)
	if err != nil || done {
		return nil, err
	}
	return v, nil
}

// send resumes the body with a value (or an exception thrown in); done
// reports that the body returned (value is its return value).
func (c *genCore) send(t *Thread, v Object, exc *Exception) (Object, bool, error) {
	switch c.getState() {
	case genDone:
		if exc != nil {
			return nil, true, exc
		}
		return None, true, nil
	case genRunning:
		return nil, false, Errorf(ValueErrorType, "generator already executing")
	case genCreated:
		c.interp.reapGenerators()
		if exc != nil {
			c.setState(genDone)
			return nil, true, exc
		}
		if v != None {
			return nil, false, Errorf(TypeErrorType, "can't send non-None value to a just-started generator")
		}
		c.resume = make(chan genMsg)
		c.out = make(chan genResult)
		c.started = true
		c.interp.track(c)
		go c.run()
	}
	c.setState(genRunning)
	c.resume <- genMsg{t: t, value: v, exc: exc}
	r := <-c.out
	if r.done {
		c.setState(genDone)
		c.interp.untrack(c)
		if r.err != nil {
			if e, ok := r.err.(*Exception); ok && e.cls.IsSubtype(StopIterationType) {
				re := Errorf(RuntimeErrorType, "generator raised StopIteration")
				re.cause, re.context, re.suppressContext = e, e, true
				return nil, true, re
			}
			return nil, true, r.err
		}
		return r.value, true, nil
	}
	c.setState(genSuspended)
	return r.value, false, nil
}

func (c *genCore) run() {
	msg := <-c.resume
	if msg.kill {
		c.out <- genResult{done: true, err: errGenKilled}
		return
	}
	f := c.frame
	t := msg.t
	f.t = t
	var err error
	if msg.exc != nil {
		err = msg.exc
	} else {
		c.enter(t)
		_, err = f.code.body(f)
		if err == errGenKilled {
			// Killed while suspended: kill waits for this.
			c.out <- genResult{done: true, err: err}
			return
		}
		c.leave(f.t)
	}
	ret := f.ret
	if ret == nil {
		ret = None
	}
	c.out <- genResult{done: true, value: ret, err: err}
}

func (c *genCore) enter(t *Thread) {
	f := c.frame
	f.t = t
	f.back = t.frame
	t.frame = f
	t.depth++
}

func (c *genCore) leave(t *Thread) {
	t.frame = c.frame.back
	t.depth--
}

// yield hands v to the consumer and waits to be resumed: it returns the
// value sent in, or the exception thrown in.
func (c *genCore) yield(t *Thread, v Object) (Object, error) {
	c.leave(t)
	c.out <- genResult{value: v}
	msg := <-c.resume
	if msg.kill {
		return nil, errGenKilled
	}
	c.enter(msg.t)
	if msg.exc != nil {
		return nil, msg.exc
	}
	return msg.value, nil
}

// yieldFrom delegates to a sub-iterator (yield from).
func (c *genCore) yieldFrom(t *Thread, v Object) (Object, error) {
	if sub, ok := v.(*Generator); ok {
		var sent Object = None
		var thrown *Exception
		for {
			r, done, err := sub.core.send(c.frame.t, sent, thrown)
			if err != nil {
				return nil, err
			}
			if done {
				return r, nil
			}
			sent, err = c.yield(c.frame.t, r)
			thrown = nil
			if err != nil {
				e, ok := err.(*Exception)
				if !ok {
					sub.core.kill()
					return nil, err
				}
				if e.cls.IsSubtype(GeneratorExitType) {
					_ = sub.close(c.frame.t)
					return nil, err
				}
				thrown, sent = e, None
			}
		}
	}
	it, err := Iter(t, v)
	if err != nil {
		return nil, err
	}
	for {
		x, err := Next(c.frame.t, it)
		if err != nil {
			return nil, err
		}
		if x == nil {
			return None, nil
		}
		if _, err := c.yield(c.frame.t, x); err != nil {
			return nil, err
		}
	}
}

// kill ends a suspended body's goroutine without running more of its
// code, and waits until it has: it runs on the goroutine of the thread
// that owns the interpreter (never concurrently with it), and leaves that
// thread's state as it found it.
func (c *genCore) kill() {
	c.mu.Lock()
	if c.state != genSuspended {
		c.mu.Unlock()
		return
	}
	c.state = genDone
	c.mu.Unlock()
	var handled *Exception
	t := c.frame.t
	if t != nil {
		handled = t.handled
	}
	c.resume <- genMsg{kill: true}
	<-c.out
	if t != nil {
		t.handled = handled
	}
	c.interp.untrack(c)
}

func (c *genCore) setState(s genState) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

func (c *genCore) getState() genState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// close implements generator.close().
func (g *Generator) close(t *Thread) error {
	c := g.core
	switch c.getState() {
	case genCreated:
		c.setState(genDone)
		return nil
	case genDone:
		return nil
	}
	_, done, err := c.send(t, nil, NewException(GeneratorExitType))
	if err != nil {
		if e, ok := err.(*Exception); ok && (e.cls.IsSubtype(GeneratorExitType) || e.cls.IsSubtype(StopIterationType)) {
			return nil
		}
		return err
	}
	if !done {
		c.kill()
		return Errorf(RuntimeErrorType, "generator ignored GeneratorExit")
	}
	return nil
}

// generators tracks the bodies with a live goroutine, to end them when the
// interpreter closes, and the bodies of generators the garbage collector
// found unreachable, which the interpreter's own goroutine ends later
// (reapGenerators: a cleanup runs on a goroutine of its own).
type generators struct {
	mu        sync.Mutex
	live      map[*genCore]bool
	abandoned []*genCore
}

// abandon queues an unreachable generator's body to be ended.
func (in *Interp) abandon(c *genCore) {
	in.gens.mu.Lock()
	in.gens.abandoned = append(in.gens.abandoned, c)
	in.gens.mu.Unlock()
}

// reapGenerators ends the bodies of abandoned generators (without running
// their finally blocks: when the collector finds them is not a time
// CPython's reference counting would run them).
func (in *Interp) reapGenerators() {
	in.gens.mu.Lock()
	cs := in.gens.abandoned
	in.gens.abandoned = nil
	in.gens.mu.Unlock()
	for _, c := range cs {
		c.kill()
	}
}

// closeTemporary closes a generator a for loop iterated as a temporary
// (for x in gen(): ... break), as CPython does when the loop drops its
// last reference: the body's finally blocks run now. An exception from
// closing is reported as CPython reports one raised by a finalizer.
func closeTemporary(t *Thread, it Object) {
	g, ok := it.(*Generator)
	if !ok {
		return
	}
	if err := g.close(t); err != nil {
		if e, ok := err.(*Exception); ok {
			r, _ := Repr(t, g)
			msg, _ := StrOf(t, e)
			if msg != "" {
				msg = ": " + msg
			}
			where := ""
			if f := t.frame; f != nil {
				where = fmt.Sprintf("  File %q, line %d, in %s\n", f.code.File, f.line, f.code.Name)
			}
			t.PrintErr("Exception ignored in: " + r + "\nTraceback (most recent call last):\n" + where + e.cls.name + msg + "\n")
		}
	}
}

func (in *Interp) track(c *genCore) {
	in.gens.mu.Lock()
	if in.gens.live == nil {
		in.gens.live = map[*genCore]bool{}
	}
	in.gens.live[c] = true
	in.gens.mu.Unlock()
}

func (in *Interp) untrack(c *genCore) {
	in.gens.mu.Lock()
	delete(in.gens.live, c)
	in.gens.mu.Unlock()
}

// closeGenerators ends every suspended generator body.
func (in *Interp) closeGenerators() {
	in.gens.mu.Lock()
	var cs []*genCore
	for c := range in.gens.live {
		cs = append(cs, c)
	}
	in.gens.live = nil
	in.gens.abandoned = nil
	in.gens.mu.Unlock()
	for _, c := range cs {
		c.kill()
	}
}
