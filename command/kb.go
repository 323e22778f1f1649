// Package command compiles closed knowledge-base records into prompt
// commands and executes them through the canonical tool runtime.
//
// A knowledge base (KB) is data only: prompts {id, text, role?, skills?},
// triggers {id, trigger} and actions {id, action}. The action vocabulary is
// closed: delegate_subagent, which compiles to the target
// tool:rlm_subagent. Compile binds a trigger to exactly one prompt and
// returns a fingerprinted Command; Execute checks the command and invokes
// the registered rlm_subagent tool with arguments derived only from the
// compiled text. Nothing in a KB or a command is ever evaluated as code,
// names a tool, or grants a capability.
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

// Phases of errors reported by this package.
const (
	PhaseDecode  fault.Phase = "decode"
	PhaseCompile fault.Phase = "compile"
	PhaseExecute fault.Phase = fault.PhaseExecute
	PhaseResume  fault.Phase = "resume"
)

// Error kinds reported by this package.
const (
	KindInvalidKB                fault.Kind = "invalid_kb" // the knowledge base cannot be read, is not strict JSON of its shape, or breaks a record bound
	KindMissingBinding           fault.Kind = "missing_binding"
	KindAmbiguousBinding         fault.Kind = "ambiguous_binding"
	KindIncompleteReference      fault.Kind = "ambiguous_or_incomplete_reference"
	KindInvalidPrompt            fault.Kind = "invalid_prompt"
	KindAmbiguousRole            fault.Kind = "ambiguous_delegation_role"
	KindTooManySkills            fault.Kind = "too_many_delegation_skills"
	KindInvalidRole              fault.Kind = "invalid_delegation_role"
	KindInvalidSkill             fault.Kind = "invalid_delegation_skill"
	KindInvalidCommand           fault.Kind = "invalid_command"
	KindUnsupportedCommand       fault.Kind = "unsupported_command"
	KindInvalidFingerprint       fault.Kind = "invalid_fingerprint"
	KindUnknownAdapter           fault.Kind = "unknown_adapter"
	KindInvalidPayloadRule       fault.Kind = "invalid_payload_rule"
	KindSkillForbidden           fault.Kind = "delegation_skill_forbidden"
	KindDelegationPolicyConflict fault.Kind = "delegation_policy_conflict"
	KindInvalidDelegationPolicy  fault.Kind = "invalid_delegation_policy"
	KindRegistrationFailed       fault.Kind = "subagent_registration_failed"
	KindMalformedChildResult     fault.Kind = "malformed_child_result"
	KindChildFailed              fault.Kind = "child_failed"           // the delegated child did not complete
	KindChildCancelled           fault.Kind = "child_cancelled"        // the child was cancelled
	KindChildTimeout             fault.Kind = "child_timeout"          // the child ran out of time
	KindChildBudgetExhausted     fault.Kind = "child_budget_exhausted" // the child ran out of another budget
	KindInvalidContinuation      fault.Kind = "invalid_continuation"
	KindContinuationError        fault.Kind = "continuation_error"
	KindContinuationPanic        fault.Kind = "continuation_panic"
)

// Limits of a knowledge base.
const (
	MaxKBBytes   = 4 << 20
	MaxRecords   = 10000
	MaxIDBytes   = 128
	MaxTextBytes = 64 << 10
)

// KB is a closed knowledge base of prompt-command records.
type KB struct {
	Prompts  []Prompt  `json:"prompts"`
	Triggers []Trigger `json:"triggers"`
	Actions  []Action  `json:"actions"`
}

// Prompt is a prompt record with its optional delegation role and skills.
type Prompt struct {
	ID     string   `json:"id"`
	Text   string   `json:"text"`
	Role   string   `json:"role,omitempty"`
	Skills []string `json:"skills,omitempty"`
	// ForbiddenSkills are skills this prompt's delegation excludes.
	ForbiddenSkills []string `json:"forbidden_skills,omitempty"`
}

// Trigger binds a trigger string to a prompt id.
type Trigger struct {
	ID      string `json:"id"`
	Trigger string `json:"trigger"`
}

// Action binds an action name to a prompt id.
type Action struct {
	ID     string `json:"id"`
	Action string `json:"action"`
}

func kbErr(msg string) *fault.Error { return fault.New(PhaseDecode, KindInvalidKB, msg) }

// DecodeKB parses a knowledge base strictly: one JSON object, no duplicate
// keys, no unknown fields, at most MaxKBBytes, MaxRecords records in all,
// ids of 1-128 bytes and texts of 1-64 KiB. Errors have Kind invalid_kb.
func DecodeKB(data []byte) (*KB, error) {
	if len(data) > MaxKBBytes {
		return nil, kbErr("the knowledge base is too large").With("bytes", len(data)).With("max", MaxKBBytes)
	}
	var kb KB
	if err := decodeStrict(data, &kb, PhaseDecode, KindInvalidKB, "the knowledge base", "{prompts, triggers, actions}"); err != nil {
		return nil, err
	}
	if err := kb.Validate(); err != nil {
		return nil, err
	}
	return &kb, nil
}

// LoadKB reads and decodes the knowledge base file at path.
func LoadKB(path string) (*KB, error) {
	data, err := readLimited(path, MaxKBBytes)
	if err != nil {
		return nil, fault.Wrap(err, PhaseDecode, KindInvalidKB, "cannot read the knowledge base").With("path", path)
	}
	return DecodeKB(data)
}

// decodeStrict decodes data into v: one JSON value of the given shape,
// with no duplicate keys, no unknown fields and nothing after it. Errors
// have phase and kind, and their messages name what was decoded.
func decodeStrict(data []byte, v any, phase fault.Phase, kind fault.Kind, what, shape string) error {
	if err := jsonstrict.CheckDuplicates(data); err != nil {
		return fault.Wrap(err, phase, kind, what+" is not strict JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fault.Wrap(err, phase, kind, what+" does not match "+shape)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fault.New(phase, kind, "trailing data after "+what)
	}
	return nil
}

// readLimited reads at most max+1 bytes of the file at path: one byte
// more than allowed, so that the decoder reports an oversized file.
func readLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}

// Validate checks the record bounds. Record semantics (bindings, actions,
// roles) are checked by Compile.
func (kb *KB) Validate() error {
	if n := len(kb.Prompts) + len(kb.Triggers) + len(kb.Actions); n > MaxRecords {
		return kbErr("too many records").With("records", n).With("max", MaxRecords)
	}
	id := func(kind string, i int, s string) error {
		if s == "" || len(s) > MaxIDBytes {
			return kbErr("record ids must be 1-128 bytes").With("record", kind).With("index", i)
		}
		return nil
	}
	for i, p := range kb.Prompts {
		if err := id("prompt", i, p.ID); err != nil {
			return err
		}
		if len(p.Text) > MaxTextBytes {
			return kbErr("prompt text is too long").With("index", i).With("max", MaxTextBytes)
		}
		if len(p.Skills) > MaxRecords || len(p.ForbiddenSkills) > MaxRecords {
			return kbErr("too many skills").With("index", i)
		}
	}
	for i, t := range kb.Triggers {
		if err := id("trigger", i, t.ID); err != nil {
			return err
		}
		if t.Trigger == "" || len(t.Trigger) > MaxIDBytes {
			return kbErr("triggers must be 1-128 bytes").With("index", i)
		}
	}
	for i, a := range kb.Actions {
		if err := id("action", i, a.ID); err != nil {
			return err
		}
		if a.Action == "" || len(a.Action) > MaxIDBytes {
			return kbErr("actions must be 1-128 bytes").With("index", i)
		}
	}
	return nil
}
