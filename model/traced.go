package model

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/trace"
)

// Traced wraps p so that every call is recorded as a model_call span on the
// trace recorder carried by the call's context, with tokens, cost, the
// request's max_tokens and temperature, the model actually used ("model"),
// the provider ("provider", Meta.Provider) and the server's completion id
// ("response_id"), the images sent ("images": each "sha256:HEX WxH
// MEDIA-TYPE", never their bytes; under WithThumbnails, "thumbnails" and
// "thumbnails_more": bounded thumbnails of them), the host and port of the server it reached
// ("server_address", "server_port": from the base URL, never its path or
// credentials), the HTTP status and the attempt count, and for a response
// served by a cache its source ("cache") and the tokens it saved
// ("saved_tokens"). Request and response
// text, headers and credentials are never recorded.
func Traced(p Provider, name string) Provider {
	return ProviderFunc(func(ctx context.Context, req Request) (*Response, error) {
		label := req.Model
		if label == "" {
			label = name
		}
		ctx, sp := trace.Start(ctx, trace.KindModelCall, label)
		sp.Set("messages", len(req.Messages))
		sp.Set("tools", len(req.Tools))
		sp.Set("stream", req.Stream)
		if req.MaxTokens > 0 {
			sp.Set("max_tokens", req.MaxTokens)
		}
		if req.Temperature != nil {
			sp.Set("temperature", *req.Temperature)
		}
		var images []string
		var sent []Image
		for _, m := range req.Messages {
			for _, im := range m.Images {
				images = append(images, fmt.Sprintf("sha256:%s %dx%d %s", im.SHA256, im.Width, im.Height, im.MediaType))
				sent = append(sent, im)
			}
		}
		if len(images) > 0 {
			sp.Set("images", images)
			if t := thumbnailerOf(ctx); t != nil {
				thumbs, more := thumbnails(t, sent)
				sp.Set("thumbnails", thumbs)
				if more > 0 {
					sp.Set("thumbnails_more", more)
				}
			}
		}
		resp, err := p.Complete(ctx, req)
		if resp != nil {
			u := resp.Usage
			sp.SetTokens(u.PromptTokens, u.CompletionTokens, u.TotalTokens)
			sp.SetCost(u.CostUSD, u.CostKnown)
			sp.Set("model", resp.Meta.Model)
			if resp.Meta.Provider != "" {
				sp.Set("provider", resp.Meta.Provider)
			}
			if resp.Meta.ID != "" {
				sp.Set("response_id", resp.Meta.ID)
			}
			// The server's host and port, not for a response a cache
			// served (no request reached a server).
			if resp.Meta.ServerAddress != "" && resp.Meta.Cache == "" {
				sp.Set("server_address", resp.Meta.ServerAddress)
				if resp.Meta.ServerPort > 0 {
					sp.Set("server_port", resp.Meta.ServerPort)
				}
			}
			sp.Set("http_status", resp.Meta.HTTPStatus)
			sp.Set("attempts", resp.Meta.Attempts)
			sp.Set("finish_reason", resp.FinishReason)
			sp.Set("tool_calls", len(resp.ToolCalls))
			sp.SetBytes(int64(len(resp.Text)))
			if resp.Meta.Cache != "" {
				sp.Set("cache", resp.Meta.Cache)
				sp.Set("saved_tokens", u.SavedTokens)
			}
		}
		sp.End(err)
		return resp, err
	})
}
