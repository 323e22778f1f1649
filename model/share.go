package model

import "context"

// Share asks p first when it is a Sharer (a response cache): it returns
// either a hit, already recorded as a model_call span (through Traced,
// under label) with its cache source, or the provider through which the
// caller makes the real call and the function that releases the claim
// (call it when done, whether or not the call was made). For any other
// provider it returns p itself and a no-op release. A caller that charges
// budgets calls Share before admission, so a hit is never charged.
func Share(ctx context.Context, p Provider, label string, req Request) (hit *Response, call Provider, release func(), err error) {
	s, ok := p.(Sharer)
	if !ok {
		return nil, p, func() {}, nil
	}
	resp, lead, err := s.Share(ctx, req)
	if err != nil {
		return nil, nil, func() {}, err
	}
	if resp != nil {
		served := ProviderFunc(func(context.Context, Request) (*Response, error) { return resp, nil })
		resp, _ = Traced(served, label).Complete(ctx, req)
		return resp, nil, func() {}, nil
	}
	return nil, lead, lead.Release, nil
}
