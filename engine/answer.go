package engine

import (
	"encoding/json"
	"fmt"

	ansschema "github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

// answerRejection is a root final answer that does not match
// Config.AnswerSchema: the loop answers it with a repair message (at most
// MaxRepairs times in the run) or fails with err (ansschema.KindInvalid).
type answerRejection struct {
	violations []ansschema.Violation
	err        *fault.Error
}

func (a *answerRejection) Error() string { return a.err.Error() }
func (a *answerRejection) Unwrap() error { return a.err }

// accept checks the final answer v of loop n and stores it (finish). At
// the root of a run with an answer schema, v must match it first: its
// JSON value (the schema's string rule for a string, Schema.TextValue;
// the JSON encoding of any other value) is checked, and an answer that
// does not match is returned as an *answerRejection, not stored (only
// previewed as the partial result), its bytes not charged. Children's answers are not checked: the schema is
// the run's answer's.
func (r *run) accept(n node, ans *answer, v any) error {
	s := r.e.cfg.AnswerSchema
	if s == nil || n.depth > 0 {
		return r.finish(ans, v)
	}
	var raw json.RawMessage
	if text, ok := v.(string); ok {
		raw = s.TextValue(text)
	} else {
		enc, err := encodeAnswer(v)
		if err != nil {
			return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "the final answer is not JSON-encodable")
		}
		raw = enc
	}
	if vs, fe := s.Check(raw); fe != nil {
		// The last refused answer is the partial result of a run that
		// ends without one.
		ans.partial = plan.Preview(v, 4096)
		return &answerRejection{violations: vs, err: fe}
	}
	if err := r.finish(ans, v); err != nil {
		return err
	}
	ans.json = raw
	return nil
}

// encodeAnswer is the JSON of a final answer that is not a string: a plan
// value's canonical JSON, or for code mode's values that are not plan
// values (integers beyond 64 bits) their encoding/json form.
func encodeAnswer(v any) (json.RawMessage, error) {
	if enc, err := plan.EncodeJSON(v); err == nil {
		return json.RawMessage(enc), nil
	}
	return json.Marshal(v)
}

// answerInstructions is what the root's first message adds about the
// answer schema ("" without one, and in children).
func (r *run) answerInstructions(n node) string {
	if r.e.cfg.AnswerSchema == nil || n.depth > 0 {
		return ""
	}
	return r.e.cfg.AnswerSchema.Instructions()
}

// answerRepair counts one more rejected answer of the root loop: it
// returns the repair message to send, or, past MaxRepairs, the error that
// ends the run (answer_invalid with the repairs made). finish says how
// to answer again in the loop's terms.
func (r *run) answerRepair(rj *answerRejection, repairs *int, finish string) (string, error) {
	return r.e.cfg.AnswerSchema.Repair(rj.violations, rj.err, repairs, r.e.cfg.MaxRepairs, finish)
}

// planAnswerRejected ends the plan loop's turn whose final answer ar
// refused: it returns the history with the reply and the repair message,
// or past MaxRepairs the error that ends the run. (Out of the loop's
// body, whose frame every waiting child's stack holds.)
func (r *run) planAnswerRejected(turn *trace.Span, ev Event, ar *answerRejection, repairs *int, reply string, msgs []model.Message) ([]model.Message, error) {
	msg, ferr := r.answerRepair(ar, repairs, planFinishAgain)
	ev.Outcome, ev.Error = OutcomeRejected, fault.As(ferr)
	if ferr != nil {
		r.endTurn(turn, frozen(ferr), ev)
		return msgs, ferr
	}
	ev.Repair, ev.Error = true, ar.err
	r.endTurn(turn, frozen(ar.err), ev)
	return append(msgs, model.Message{Role: model.RoleAssistant, Content: reply}, model.Message{Role: model.RoleUser, Content: msg}), nil
}

// Finishing again, in each mode's terms (the repair message's last line).
const (
	planFinishAgain = `Reply with {"answer": VALUE} where VALUE matches the schema, or with a plan that ends in a final step.`
	codeFinishAgain = `Fix the value in code and finish again with FINAL(value), FINAL_VAR("name") or answer = {"content": value, "ready": True}.`
)

// cellAnswerRejected is the observation line of a cell whose FINAL did not
// match the answer schema.
func cellAnswerRejected(index int) string {
	return fmt.Sprintf("[cell %d finished with an answer that does not match the answer schema: not accepted]\n", index)
}
