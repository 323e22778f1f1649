package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/tool"
)

// TestConfigTools: a Config's tools are listed and callable without a
// grant, and the zero Config (the rlm binary) has none of them.
func TestConfigTools(t *testing.T) {
	echo := tool.Func("echo_back", "returns its text", func(ctx context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text, nil
	})
	withTool := Config{Tools: []tool.Spec{echo}}
	for _, tt := range []struct {
		name     string
		cfg      Config
		args     []string
		wantCode int
		want     string
	}{
		{"listed", withTool, []string{"tools", "list", "--text"}, 0, "echo_back"},
		{"called", withTool, []string{"tools", "call", "echo_back", "--args", `{"text":"hi"}`}, 0, `"value": "hi"`},
		{"refused by its schema", withTool, []string{"tools", "call", "echo_back", "--args", `{"text":1}`}, 1, `"kind": "schema_validation_failed"`},
		{"absent from rlm", Config{}, []string{"tools", "call", "echo_back", "--args", `{"text":"hi"}`}, 1, `"kind": "unknown_tool"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), tt.cfg, tt.args, strings.NewReader(""), &out, &errb)
			if code != tt.wantCode || !strings.Contains(out.String(), tt.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s\n%s", code, tt.wantCode, tt.want, out.String(), errb.String())
			}
			if tt.args[1] == "call" && !json.Valid(out.Bytes()) {
				t.Fatalf("not one JSON document:\n%s", out.String())
			}
		})
	}
}
