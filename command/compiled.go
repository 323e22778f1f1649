package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// MaxCommandBytes bounds a compiled command file.
const MaxCommandBytes = 1 << 20

// DecodeCommand parses a compiled command strictly (one JSON object, no
// duplicate keys, no unknown fields, at most MaxCommandBytes; errors have
// Kind invalid_command) and verifies it as Execute does (see Verify). A
// command that decodes is safe to execute: nothing in it names a Go
// function, grants a capability or derives arguments other than the
// adapter's.
func DecodeCommand(data []byte) (Command, error) {
	bad := func(err error, msg string) error {
		if err == nil {
			return fault.New(PhaseExecute, KindInvalidCommand, msg)
		}
		return fault.Wrap(err, PhaseExecute, KindInvalidCommand, msg)
	}
	if len(data) > MaxCommandBytes {
		return Command{}, bad(nil, "the compiled command is too large")
	}
	if err := jsonstrict.CheckDuplicates(data); err != nil {
		return Command{}, bad(err, "the compiled command is not strict JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Command
	if err := dec.Decode(&c); err != nil {
		return Command{}, bad(err, "the compiled command does not match {prompt_id, text, trigger, adapter, target, payload, provenance, delegation_policy?, fingerprint}")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Command{}, bad(nil, "trailing data after the compiled command")
	}
	if err := Verify(c); err != nil {
		return Command{}, err
	}
	return c, nil
}

// LoadCommand reads and decodes the compiled command file at path.
func LoadCommand(path string) (Command, error) {
	f, err := os.Open(path)
	if err != nil {
		return Command{}, fault.Wrap(err, PhaseExecute, KindInvalidCommand, "cannot read the compiled command").With("path", path)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxCommandBytes+1))
	if err != nil {
		return Command{}, fault.Wrap(err, PhaseExecute, KindInvalidCommand, "cannot read the compiled command").With("path", path)
	}
	return DecodeCommand(data)
}
