package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// contentKey has characters JSON escapes ("/" as "\/", "&" as "\u0026").
const contentKey = "sk-FAKE/rlm+9f8e7d6c&5b4a3210"

// secretForms are the forms of a key a hostile server may echo.
func secretForms(key string) map[string]string {
	var u strings.Builder
	for _, r := range key {
		fmt.Fprintf(&u, `\u%04x`, r)
	}
	rev := []rune(key)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	js, _ := json.Marshal(key) // "&" -> \u0026
	return map[string]string{
		"plain":      key,
		"json":       strings.ReplaceAll(strings.Trim(string(js), `"`), "/", `\/`),
		"uescaped":   u.String(),
		"reversed":   string(rev),
		"lowercased": strings.ToLower(key),
	}
}

// echoServer echoes form f of the key inside a successful completion (or
// a malformed or error body) chosen by the path /TARGET/FORM/....
func echoServer(t *testing.T, forms map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		parts := strings.Split(r.URL.Path, "/")
		target, f := parts[1], forms[parts[2]]
		text := "the key is " + f + " (echoed)"
		js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
		completion := func(msg map[string]any) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, js(map[string]any{"id": "c1", "object": "chat.completion", "model": "m",
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}}}))
		}
		switch target {
		case "text":
			completion(map[string]any{"role": "assistant", "content": text})
		case "reasoning":
			completion(map[string]any{"role": "assistant", "content": "ok", "reasoning": text})
		case "tool":
			args := js(map[string]any{"path": f, "note": text})
			completion(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
				map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "fs_read", "arguments": args}}}})
		case "stream":
			w.Header().Set("Content-Type", "text/event-stream")
			// Three bytes per event, so the key straddles many events.
			for i := 0; i < len(text); i += 3 {
				fmt.Fprintf(w, "data: %s\n\n", chunk(`{"content":`+js(text[i:min(i+3, len(text))])+`}`, ""))
			}
			fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", chunk(`{}`, "stop"))
		case "malformed":
			// The form raw in the body, as the server wrote it.
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices": [`+f)
		case "status":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error": {"message": "bad key `+f+`", "code": "x"}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// leaked reports whether s holds the key in any of its forms.
func leaked(s string, forms map[string]string) string {
	for name, f := range forms {
		if strings.Contains(s, f) || strings.Contains(strings.ToLower(s), strings.ToLower(f)) {
			return name
		}
	}
	return ""
}

// TestSecretsInContentScrubbed (issue 18 item 6): a server that echoes the
// configured key inside a successful completion gets it into no answer
// text, reasoning, tool-call arguments or streamed piece, and an error's
// body_excerpt holds no form of it: plain, JSON-escaped, \u-escaped,
// reversed or lowercased.
func TestSecretsInContentScrubbed(t *testing.T) {
	forms := secretForms(contentKey)
	srv := echoServer(t, forms)
	for _, form := range []string{"plain", "json", "uescaped", "reversed", "lowercased"} {
		cfg := func(target string) openai.Config {
			c := fast(srv.URL + "/" + target + "/" + form)
			c.APIKey = contentKey
			c.MaxRetries = -1
			return c
		}
		t.Run(form+"/answer_text", func(t *testing.T) {
			resp, err := newProvider(t, cfg("text")).Complete(context.Background(), userReq("hi", false))
			if err != nil {
				t.Fatal(err)
			}
			if f := leaked(resp.Text, forms); f != "" || !strings.Contains(resp.Text, "[redacted]") {
				t.Errorf("text %q (leaked form %q)", resp.Text, f)
			}
		})
		t.Run(form+"/reasoning", func(t *testing.T) {
			resp, err := newProvider(t, cfg("reasoning")).Complete(context.Background(), userReq("hi", false))
			if err != nil {
				t.Fatal(err)
			}
			if f := leaked(resp.Reasoning, forms); f != "" || !strings.Contains(resp.Reasoning, "[redacted]") {
				t.Errorf("reasoning %q (leaked form %q)", resp.Reasoning, f)
			}
		})
		t.Run(form+"/tool_call_arguments", func(t *testing.T) {
			resp, err := newProvider(t, cfg("tool")).Complete(context.Background(), userReq("hi", false))
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.ToolCalls) != 1 {
				t.Fatalf("tool calls %+v", resp.ToolCalls)
			}
			args := resp.ToolCalls[0].Arguments
			if f := leaked(args, forms); f != "" || !strings.Contains(args, "[redacted]") {
				t.Errorf("arguments %q (leaked form %q)", args, f)
			}
			if !json.Valid([]byte(args)) {
				t.Errorf("scrubbed arguments are no longer JSON: %s", args)
			}
		})
		t.Run(form+"/stream_deltas", func(t *testing.T) {
			var pieces []string
			req := userReq("hi", true)
			req.OnDelta = func(s string) { pieces = append(pieces, s) }
			resp, err := newProvider(t, cfg("stream")).Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(pieces, "")
			if f := leaked(joined, forms); f != "" || !strings.Contains(joined, "[redacted]") {
				t.Errorf("deltas %q (leaked form %q)", pieces, f)
			}
			if joined != resp.Text {
				t.Errorf("deltas join to %q, text is %q", joined, resp.Text)
			}
		})
		for _, target := range []string{"malformed", "status"} {
			t.Run(form+"/body_excerpt_"+target, func(t *testing.T) {
				_, err := newProvider(t, cfg(target)).Complete(context.Background(), userReq("hi", false))
				want := model.KindMalformedResponse
				if target == "status" {
					want = model.KindHTTPStatus
				}
				fe := wantKind(t, err, want)
				ex, _ := fe.Detail["body_excerpt"].(string)
				if ex == "" {
					t.Fatalf("no body_excerpt: %+v", fe.Detail)
				}
				js, _ := json.Marshal(err)
				for _, s := range []string{ex, err.Error(), string(js)} {
					if f := leaked(s, forms); f != "" {
						t.Errorf("form %q leaked: %s", f, s)
					}
				}
			})
		}
	}
}

// TestShortPlaceholderKeyNotScrubbedFromContent: a key shorter than
// openai.MinContentSecretLen (a placeholder such as "ollama" that local
// servers accept) is left in answers, which would otherwise be mangled,
// but is still scrubbed, exactly, from errors.
func TestShortPlaceholderKeyNotScrubbedFromContent(t *testing.T) {
	const key = "ollama"
	srv := echoServer(t, map[string]string{"plain": key})
	cfg := fast(srv.URL + "/text/plain")
	cfg.APIKey = key
	resp, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	if err != nil {
		t.Fatal(err)
	}
	if want := "the key is ollama (echoed)"; resp.Text != want {
		t.Errorf("text %q, want %q", resp.Text, want)
	}
	cfg = fast(srv.URL + "/status/plain")
	cfg.APIKey, cfg.MaxRetries = key, -1
	_, err = newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	fe := wantKind(t, err, model.KindHTTPStatus)
	if ex, _ := fe.Detail["body_excerpt"].(string); strings.Contains(ex, key) {
		t.Errorf("short key left in an error: %q", ex)
	}
}
