package tool

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/rlm-go/rlm/authority"
)

// Func declares a tool whose arguments and result are the Go types In and
// Out: both schemas are derived with SchemaFor, the validated arguments are
// decoded into an In for fn, and fn's Out is encoded and checked against
// the result schema like any handler value. The Spec has effect read and
// default limits; set Effect, Limits or Preflight on it before Register
// when the tool needs them. A type whose schema cannot be derived makes
// Register fail with invalid_schema. fn may read the full Request (resolved
// details, idempotency key) with RequestOf.
//
// Hand-written schemas stay possible: declare a Spec directly.
func Func[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) Spec {
	args, aerr := SchemaFor[In]()
	result, rerr := SchemaFor[Out]()
	spec := Spec{Name: name, Description: description, Args: args, Result: result, Effect: authority.EffectRead, deriveErr: cmp.Or(aerr, rerr)}
	spec.Handler = func(ctx context.Context, req Request) (any, error) {
		var in In
		if err := json.Unmarshal(req.Args, &in); err != nil {
			// The arguments passed In's schema; only a custom decoder can
			// disagree with it.
			return nil, stepErr(KindMalformedArgs, "arguments do not decode into the tool's Go type").With("tool", name)
		}
		return fn(context.WithValue(ctx, requestKey{}, req), in)
	}
	return spec
}

type requestKey struct{}

// RequestOf returns the Request of the handler call ctx belongs to, for
// handlers declared with Func.
func RequestOf(ctx context.Context) (Request, bool) {
	r, ok := ctx.Value(requestKey{}).(Request)
	return r, ok
}
