package rlm

import "context"

// RunOnMode is RunOn with the engine in mode ("plan" or "code"; "" is the
// Spec's Mode): one session, its provider and its cache, answers calls in
// both modes (rlm bench compares them trial by trial).
func (s *Session) RunOnMode(ctx context.Context, mode string, on On) (*Result, error) {
	c := *s // the same provider and tools; only the mode differs
	if mode != "" {
		c.spec.Mode = mode
	}
	return c.RunOn(ctx, on)
}
