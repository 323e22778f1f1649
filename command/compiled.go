package command

import "github.com/rlm-go/rlm/fault"

// MaxCommandBytes bounds a compiled command file.
const MaxCommandBytes = 1 << 20

// DecodeCommand parses a compiled command strictly (one JSON object, no
// duplicate keys, no unknown fields, at most MaxCommandBytes; errors have
// Kind invalid_command) and verifies it as Execute does (see Verify). A
// command that decodes is safe to execute: nothing in it names a Go
// function, grants a capability or derives arguments other than the
// adapter's.
func DecodeCommand(data []byte) (Command, error) {
	if len(data) > MaxCommandBytes {
		return Command{}, fault.New(PhaseExecute, KindInvalidCommand, "the compiled command is too large")
	}
	var c Command
	if err := decodeStrict(data, &c, PhaseExecute, KindInvalidCommand, "the compiled command",
		"{prompt_id, text, trigger, adapter, target, payload, provenance, delegation_policy?, fingerprint}"); err != nil {
		return Command{}, err
	}
	if err := Verify(c); err != nil {
		return Command{}, err
	}
	return c, nil
}

// LoadCommand reads and decodes the compiled command file at path.
func LoadCommand(path string) (Command, error) {
	data, err := readLimited(path, MaxCommandBytes)
	if err != nil {
		return Command{}, fault.Wrap(err, PhaseExecute, KindInvalidCommand, "cannot read the compiled command").With("path", path)
	}
	return DecodeCommand(data)
}
