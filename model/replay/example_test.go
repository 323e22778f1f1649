package replay_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Serve a cassette over the OpenAI protocol and talk to it with the real
// HTTP provider: each request is answered by the first unused interaction
// whose match fits. A cassette can be written by hand (Reply) or recorded
// from a live provider (NewRecorder, then Save).
func ExampleNewServer() {
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		replay.Reply("capital of France", model.Response{Text: "Paris"}),
		replay.Reply("", model.Response{Text: "I don't know"}),
	}})
	defer srv.Close()

	prov, _ := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "gpt-4o-mini"})
	ctx := context.Background()
	for _, q := range []string{"What is the capital of France?", "And of Peru?"} {
		resp, err := prov.Complete(ctx, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: q}}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(resp.Text)
	}
	_, err := prov.Complete(ctx, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "One more?"}}})
	fmt.Println(err != nil, srv.Stats().Served, srv.Stats().Exhausted)
	// Output:
	// Paris
	// I don't know
	// true 2 1
}

// Record what a provider answers and replay it later without the network.
func ExampleRecorder() {
	live := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: "42", FinishReason: "stop", Meta: model.Meta{Model: "gpt-4o-mini"}}, nil
	})
	rec := replay.NewRecorder(live)
	_, _ = rec.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "the answer?"}}})

	c := rec.Cassette()
	fmt.Println(len(c.Interactions), c.Interactions[0].Match.Contains, c.Validate())
	// Output:
	// 1 the answer? <nil>
}
