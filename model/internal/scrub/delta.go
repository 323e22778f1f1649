package scrub

// Delta passes streamed text pieces to emit with secrets scrubbed,
// holding back a tail that may be the start of a secret until the next
// piece decides it. The pieces emitted join to the scrubbed whole text.
type Delta struct {
	Set  *Set
	Emit func(string)
	rest string
}

func (d *Delta) Add(piece string) {
	out, rest := d.Set.scan(d.rest+piece, true, false)
	d.rest = rest
	if out != "" {
		d.Emit(out)
	}
}

// Flush emits what was held back, at the end of a complete stream.
func (d *Delta) Flush() {
	if d.rest == "" {
		return
	}
	out := d.Set.Content(d.rest)
	d.rest = ""
	if out != "" {
		d.Emit(out)
	}
}
