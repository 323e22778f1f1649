package openai_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// A server that always streams is read as a stream whatever was
// requested: recognized by its Content-Type, or by a body that starts like
// an event stream under another (or no) Content-Type. A JSON body is never
// taken for a stream.
func TestEventStreamAcceptedWhateverRequested(t *testing.T) {
	events := "data: " + chunk(`{"role":"assistant","content":"Par"}`, "") + "\n\n" +
		"data: " + chunk(`{"content":"is"}`, "stop") + "\n\n" + "data: [DONE]\n\n"
	cases := []struct {
		name, ct, body string
		stream         bool
	}{
		{"event-stream content type", "text/event-stream", events, false},
		{"json content type, sse body", "application/json", events, false},
		{"no content type, comment first", "", ": keep-alive\n\n" + events, false},
		{"text/plain, leading blank lines", "text/plain", "\n\n" + events, false},
		{"streamed request", "text/event-stream", events, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
				if c.ct == "" {
					w.Header()["Content-Type"] = nil
				} else {
					w.Header().Set("Content-Type", c.ct)
				}
				io.WriteString(w, c.body)
			})
			defer srv.Close()
			var deltas []string
			req := userReq("capital?", c.stream)
			req.OnDelta = func(s string) { deltas = append(deltas, s) }
			resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "Paris" || !resp.Meta.Streamed || resp.FinishReason != "stop" {
				t.Fatalf("resp %+v", resp)
			}
			if strings.Join(deltas, "|") != "Par|is" {
				t.Fatalf("deltas %q", deltas)
			}
		})
	}
	// A plain JSON completion is not a stream, and OnDelta is not called.
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, textCompletion) })
	defer srv.Close()
	called := false
	req := userReq("hi", false)
	req.OnDelta = func(string) { called = true }
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), req)
	if err != nil || resp.Meta.Streamed || called || resp.Text != "Paris is the capital of France." {
		t.Fatalf("resp %+v err %v called %v", resp, err, called)
	}
}
