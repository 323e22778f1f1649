package otlp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestBadEndpointHidesPassword: a refused endpoint is reported without the
// password of its user information, also when the URL does not parse (a
// bad port, a missing scheme).
func TestBadEndpointHidesPassword(t *testing.T) {
	const pw = "hunter2secret"
	for _, ep := range []string{
		"ftp://user:" + pw + "@collector:4318/",
		"http://user:" + pw + "@collector:43x18",
		"user:" + pw + "@collector:4318",
		"http://user:" + pw + "@collector:4318/%zz",
	} {
		_, err := Start(context.Background(), Config{Endpoint: ep})
		fe := fault.As(err)
		if fe == nil || fe.Kind != KindBadEndpoint {
			t.Errorf("%q: err %v, want %s", ep, err, KindBadEndpoint)
			continue
		}
		js, _ := json.Marshal(fe)
		if strings.Contains(err.Error(), pw) || strings.Contains(string(js), pw) {
			t.Errorf("%q: the error shows the password: %v %s", ep, err, js)
		}
	}
}
