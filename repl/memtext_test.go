package repl

import "context"

// memText is a Text over bytes in memory, for tests.
type memText struct {
	name string
	b    []byte
}

func (m memText) Size() int64  { return int64(len(m.b)) }
func (m memText) Name() string { return m.name }
func (m memText) View(ctx context.Context, op string, f func(b []byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return f(m.b)
}
