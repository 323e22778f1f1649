package model_test

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// A model_call span names the request's model and records what the
// response says of itself: the model that answered, the provider and the
// server's completion id, with the request's max_tokens and temperature.
func TestTracedRecordsResponseIdentity(t *testing.T) {
	p := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: "x", FinishReason: "stop", Meta: model.Meta{Provider: "anthropic", ID: "msg_01", Model: "claude-x-2026"}}, nil
	})
	rec := trace.NewRecorder()
	temp := 0.0
	_, err := model.Traced(p, "m").Complete(trace.WithRecorder(context.Background(), rec), model.Request{Model: "claude-x", MaxTokens: 512, Temperature: &temp})
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	if len(evs) != 1 || evs[0].Name != "claude-x" {
		t.Fatalf("events %+v", evs)
	}
	a := evs[0].Attrs
	for k, want := range map[string]any{"model": "claude-x-2026", "provider": "anthropic", "response_id": "msg_01", "max_tokens": 512, "temperature": 0.0} {
		if a[k] != want {
			t.Errorf("%s = %v (%T), want %v", k, a[k], a[k], want)
		}
	}
}

// A model_call span records the host and port of the server the response
// came from, and neither for a response a cache served.
func TestTracedRecordsServer(t *testing.T) {
	for _, tc := range []struct {
		cache string
		want  map[string]any
	}{
		{"", map[string]any{"server_address": "api.example.com", "server_port": 8443}},
		{model.CacheMemory, map[string]any{"server_address": nil, "server_port": nil}},
	} {
		p := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
			return &model.Response{Text: "x", Meta: model.Meta{Provider: "openai-compatible", ServerAddress: "api.example.com", ServerPort: 8443, Cache: tc.cache}}, nil
		})
		rec := trace.NewRecorder()
		if _, err := model.Traced(p, "m").Complete(trace.WithRecorder(context.Background(), rec), model.Request{Model: "m"}); err != nil {
			t.Fatal(err)
		}
		a := rec.Events()[0].Attrs
		for k, want := range tc.want {
			if a[k] != want {
				t.Errorf("cache %q: %s = %v, want %v", tc.cache, k, a[k], want)
			}
		}
	}
}
