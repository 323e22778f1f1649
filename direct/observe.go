package direct

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// Observation statuses.
const (
	ObsOK       = "ok"       // the call ran and produced a value
	ObsError    = "error"    // the call ran and failed
	ObsRejected = "rejected" // the call was refused before anything ran
)

// observation is the content of one tool message. Its fields are a closed
// whitelist: nothing of the binding, effect, capability, authority or
// handler reaches the model.
type observation struct {
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Status    string          `json:"status"`
	Value     json.RawMessage `json:"value,omitempty"`
	Truncated *bool           `json:"truncated,omitempty"`
	Error     *obsError       `json:"error,omitempty"`
	// images are the images the tool returned, sent with the tool
	// message (toolImages); the value names them by hash.
	images []model.Image
}

type obsError struct {
	Phase   string         `json:"phase,omitempty"`
	Kind    string         `json:"kind"`
	Message string         `json:"message"`
	Detail  map[string]any `json:"detail,omitempty"`
}

// Bounds of argument-level detail in observations.
const (
	maxDetailString = 64
	maxDetailList   = 8
)

// detailKeys are the only detail keys an observation may carry: where in
// the arguments the problem is and which JSON keyword or property names
// are involved. They never hold validator text.
var detailKeys = []string{"reason", "pointer", "keyword", "missing", "unexpected", "time_limit_ms", "max_output_bytes"}

// boundedDetail copies the whitelisted keys of d, cutting strings and
// lists.
func boundedDetail(d map[string]any) map[string]any {
	var out map[string]any
	for _, k := range detailKeys {
		v, ok := d[k]
		if !ok {
			continue
		}
		var bv any
		switch x := v.(type) {
		case string:
			bv = cut(x)
		case []string:
			n := min(len(x), maxDetailList)
			l := make([]string, n)
			for i := range n {
				l[i] = cut(x[i])
			}
			bv = l
		case int, int64, float64, bool:
			bv = x
		default:
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = bv
	}
	return out
}

// cut shortens s to at most maxDetailString bytes at a UTF-8 boundary and
// replaces invalid bytes.
func cut(s string) string {
	return textcut.Prefix(strings.ToValidUTF8(s, "\uFFFD"), maxDetailString)
}

// repairObservation is the observation of a preflight fault: call id,
// name, the stable phase and kind, a fixed message and bounded
// argument-level detail.
func repairObservation(s Status) observation {
	key := [2]string{string(s.Cause.Phase), string(s.Cause.Kind)}
	msg := cmp.Or(repairMessages[key], "the call was rejected")
	return observation{CallID: s.Call.ID, Name: s.Call.Name, Status: ObsRejected, Error: &obsError{
		Phase: string(s.Cause.Phase), Kind: string(s.Cause.Kind), Message: msg, Detail: boundedDetail(s.Cause.Detail),
	}}
}

// toolKindAliases maps tool-runtime kinds that describe the arguments to
// the loop's stable kind, so no validator vocabulary leaks.
var toolKindAliases = map[fault.Kind]fault.Kind{
	tool.KindSchemaValidation: KindMalformedArguments,
	tool.KindMalformedArgs:    KindMalformedArguments,
}

// errorObservation is the observation of a call that ran and failed: the
// stable kind, a fixed message and bounded detail; never the cause text.
func errorObservation(call Call, fe *fault.Error) observation {
	kind := cmp.Or(toolKindAliases[fe.Kind], fe.Kind)
	return observation{CallID: call.ID, Name: call.Name, Status: ObsError, Error: &obsError{
		Kind: string(kind), Message: "the call failed", Detail: boundedDetail(fe.Detail),
	}}
}

// valueObservation is the observation of a call that produced a value.
func valueObservation(call Call, v json.RawMessage, truncated *bool) observation {
	return observation{CallID: call.ID, Name: call.Name, Status: ObsOK, Value: v, Truncated: truncated}
}

// encode renders an observation as compact JSON with stable key order.
func (o observation) encode() string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		// Only the value can fail, and values are valid JSON by
		// construction; drop it rather than fail the run.
		o.Value = nil
		buf.Reset()
		_ = enc.Encode(o)
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n"))
}
