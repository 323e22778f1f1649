package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/subagent"
)

// scripted answers every model call with reply and counts the calls.
func scripted(reply string, calls *atomic.Int64) Option {
	return WithProvider(model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
		calls.Add(1)
		return &model.Response{Text: reply, Usage: budget.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}}, nil
	}))
}

func compileCommand(t *testing.T, kb string) command.Command {
	t.Helper()
	k, err := command.DecodeKB([]byte(kb))
	if err != nil {
		t.Fatal(err)
	}
	c, err := command.Compile(k, "unknown")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const commandKB = `{"prompts": [{"id": "p", "text": "Answer over the context.", "role": "reviewer"}],
  "triggers": [{"id": "p", "trigger": "unknown"}], "actions": [{"id": "p", "action": "delegate_subagent"}]}`

// RunCommand runs a prompt command under a Spec: the parent's grant
// (Spec.Allow, nil the default), the host's delegation options and the
// child's tools. Refusals before the child can start return no result
// and make no model call; later ones return the result with the error.
func TestRunCommand(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(ctxFile, []byte("one\ntwo needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("secret notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	readNotes := `{"steps": [{"op": "tool", "name": "fs_read", "args": {"path": "notes.txt"}, "bind": "f"},
  {"op": "final", "value": {"ref": "var", "name": "f"}}]}`
	cases := []struct {
		name   string
		spec   Spec
		reply  string
		result bool       // a result comes back (the child could start)
		status string     // its status
		kind   fault.Kind // the error's kind ("" none)
		answer any        // the child's answer, when completed
	}{
		{"default grant", Spec{}, `{"answer":"two"}`, true, subagent.EnvelopeCompleted, "", "two"},
		{"parent lacks rlm_subagent", Spec{Allow: []string{"context:search"}}, `{"answer":"two"}`, true, subagent.EnvelopeFailed, "capability_denied", nil},
		{"empty grant", Spec{Allow: []string{}}, `{"answer":"two"}`, true, subagent.EnvelopeFailed, "capability_denied", nil},
		{"bad capability", Spec{Allow: []string{"bogus"}}, `{"answer":"two"}`, false, "", "invalid_capability", nil},
		{"widening", Spec{Allow: []string{"tool:rlm_subagent,context:peek"}, Delegation: DelegationSpec{Allow: []string{"context:peek", "tool:fs_write"}}},
			`{"answer":"two"}`, false, "", "capability_widening", nil},
		{"role conflicts with the KB", Spec{Delegation: DelegationSpec{Role: "admin"}}, `{"answer":"two"}`, false, "", command.KindDelegationPolicyConflict, nil},
		{"recursive child", Spec{Delegation: DelegationSpec{Allow: []string{"tool:rlm_subagent", "context:peek"}}}, `{"answer":"two"}`,
			true, subagent.EnvelopeFailed, "unbounded_recursive_delegation", nil},
		{"child reads the workspace", Spec{Workspace: ws, Allow: []string{"tool:rlm_subagent,tool:fs_read,context:peek"},
			Delegation: DelegationSpec{Allow: []string{"tool:fs_read", "context:peek"}}}, readNotes, true, subagent.EnvelopeCompleted, "",
			map[string]any{"bytes": 13, "content": "secret notes\n", "path": "notes.txt", "truncated": false}},
		{"child engine limits", Spec{Limits: budget.Limits{MaxDepth: -1}}, `{"answer":"two"}`, false, "", budget.KindInvalidLimits, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int64
			c.spec.Context = []string{ctxFile}
			res, err := RunCommand(context.Background(), c.spec, compileCommand(t, commandKB), scripted(c.reply, &calls))
			if fault.KindOf(err) != c.kind {
				t.Fatalf("kind %q, want %q (%v)", fault.KindOf(err), c.kind, err)
			}
			if (res != nil) != c.result {
				t.Fatalf("result %+v, want one: %v", res, c.result)
			}
			if res == nil {
				if calls.Load() != 0 {
					t.Fatalf("%d model calls before a refusal", calls.Load())
				}
				return
			}
			if res.Status != c.status || fault.KindOf(res.Error) != c.kind || res.Command == nil || res.Command.Fingerprint == "" {
				t.Fatalf("status %s, error %v, command %v", res.Status, res.Error, res.Command)
			}
			if c.status != subagent.EnvelopeCompleted {
				return
			}
			got, _ := json.Marshal(res.Answer())
			want, _ := json.Marshal(c.answer)
			if string(got) != string(want) || res.ParentReceived == nil || res.ParentReceived.Kind != agent.ReplyChildResult {
				t.Fatalf("answer %s (want %s), parent received %v", got, want, res.ParentReceived != nil)
			}
		})
	}
}

// The JSON document of a result is rlm command --json's: status, command,
// envelope, parent_received and error, in that order.
func TestCommandResultJSON(t *testing.T) {
	var calls atomic.Int64
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(ctxFile, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunCommand(context.Background(), Spec{Context: []string{ctxFile}}, compileCommand(t, commandKB), scripted(`{"answer":"two"}`, &calls))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, _ := dec.Token()
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"status", "command", "envelope", "parent_received", "error"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
}

// On.Mode answers in a mode other than the Spec's over one session: the
// engine's mode reaches the run (code mode needs capability code, granted
// by default to the root).
func TestRunOnWithMode(t *testing.T) {
	for _, c := range []struct {
		mode, reply string
		want        any
	}{
		{"", `{"answer":"plan"}`, "plan"},
		{engine.ModePlan, `{"answer":"plan"}`, "plan"},
		{engine.ModeCode, "```repl\nFINAL(\"code\")\n```", "code"},
	} {
		var calls atomic.Int64
		s, err := Open(context.Background(), Spec{Cache: CacheSpec{Off: true}}, scripted(c.reply, &calls))
		if err != nil {
			t.Fatal(err)
		}
		store := corpus.NewStore()
		h, err := store.AddString("context", "some text\n")
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.RunOn(context.Background(), On{Store: store, Context: h, Query: "q", Mode: c.mode})
		store.Close()
		s.Close()
		if err != nil || res.Answer != c.want {
			t.Fatalf("mode %q: answer %v, error %v", c.mode, res.Answer, err)
		}
		if s.Spec().Mode != engine.ModePlan {
			t.Fatalf("the session's mode changed to %s", s.Spec().Mode)
		}
	}
}
