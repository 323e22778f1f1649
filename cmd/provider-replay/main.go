// Command provider-replay replays a folder of recorded server responses
// (.sse, .chunks.txt and .json files, see replay.Fixture) against a
// provider, each served on 127.0.0.1, and prints one Markdown table row
// per recording: how it was served and what the provider made of it.
//
//	go run ./cmd/provider-replay [-provider openai|anthropic] DIR
//
// It is run by hand against recordings that are not part of the
// repository; docs/model.md holds its last report.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	_ "github.com/rlm-go/rlm/bpe" // usage a server did not report is counted as rlm counts it
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// fixtureKey is the key sent to the fixture servers; a placeholder of
// realistic length, so the scrubber treats it as a real key.
const fixtureKey = "sk-fixture-replay-0000000000000000"

func main() {
	prov := flag.String("provider", "openai", "provider to replay against: openai or anthropic")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: provider-replay [-provider openai|anthropic] DIR") }
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	fixtures, err := replay.LoadFixtures(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("| recording | served | result | text | reasoning | refusal | tool calls | finish | usage |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, f := range fixtures {
		fmt.Println(row(f, *prov))
	}
}

func row(f replay.Fixture, prov string) string {
	srv := httptest.NewServer(f)
	defer srv.Close()
	var (
		p   model.Provider
		err error
	)
	switch prov {
	case "anthropic":
		p, err = anthropic.New(anthropic.Config{BaseURL: srv.URL + "/v1", Model: "fixture-model", APIKey: fixtureKey, MaxRetries: -1, Timeout: 30 * time.Second})
	default:
		p, err = openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "fixture-model", APIKey: fixtureKey, MaxRetries: -1, Timeout: 30 * time.Second})
	}
	if err != nil {
		return fmt.Sprintf("| %s | | config error: %v | | | | | | |", f.Name, err)
	}
	served := fmt.Sprintf("HTTP %d", f.Status)
	if f.Stream {
		served += ", stream"
	}
	req := model.Request{Stream: f.Stream, Messages: []model.Message{{Role: model.RoleUser, Content: "hi"}}}
	resp, err := p.Complete(context.Background(), req)
	result := "ok"
	if err != nil {
		result = "error " + string(fault.KindOf(err))
		if fe := fault.As(err); fe != nil {
			if m, _ := fe.Detail["error_message"].(string); m != "" {
				result += ": " + clip(m, 60)
			}
		}
	}
	cells := []string{f.Name, served, result, "", "", "", "", "", ""}
	if resp != nil {
		var calls []string
		for _, tc := range resp.ToolCalls {
			calls = append(calls, fmt.Sprintf("%s(%d B) id %s", tc.Name, len(tc.Arguments), clip(tc.ID, 16)))
		}
		u := resp.Usage
		usage := fmt.Sprintf("%d+%d=%d", u.PromptTokens, u.CompletionTokens, u.TotalTokens)
		switch {
		case u.TokensEstimated:
			usage += " estimated"
		case !u.TokensKnown:
			usage += " unknown"
		}
		if u.CachedTokens > 0 {
			usage += fmt.Sprintf(", cached %d", u.CachedTokens)
		}
		switch {
		case u.CostKnown:
			usage += fmt.Sprintf(", $%.6g reported", u.CostUSD)
		case u.CostEstimated:
			usage += fmt.Sprintf(", $%.6g est.", u.CostUSD)
		}
		cells[3] = quote(resp.Text)
		cells[4] = quote(resp.Reasoning)
		cells[5] = quote(resp.Refusal)
		cells[6] = strings.Join(calls, "; ")
		cells[7] = resp.FinishReason
		cells[8] = usage
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

// quote shows the length and the start of s.
func quote(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%d B `%s`", len(s), strings.ReplaceAll(clip(strings.Join(strings.Fields(s), " "), 32), "|", `\|`))
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
