// Command turnserver is an OpenAI-compatible chat-completions server for
// measuring the engine's own cost per root turn (issue 35: "CPU per turn
// at a 0 ms model", bench/token_turns.sh): it answers a root request (its
// first message is a system prompt) holding fewer than -turns-1 assistant
// messages with a plan that searches the context for "needle" (so each
// turn adds a plan and an observation to the conversation), the last turn
// with a final answer, and any other request with "label"; each answer
// after -latency (default 0). With -fanout (issue 35's fan-out row) a
// run has 3 root turns: the first cuts the context into parts of
// -fanout-lines lines (default 1: a part per line), the second maps
// a sub-call over every part (-inflight at a time, default 64), the
// third answers. GET /record?dir=DIR makes it write each
// request's body to DIR/000001.json, 000002.json, ... until
// GET /record?dir= (bench/turnclient replays them). It prints its address
// on its first line of output.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

const (
	search = `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits%d"}]}`
	final  = `{"steps":[{"op":"final","value":"done"}]}`
	cut    = `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"lines","size":%d},"bind":"parts"}]}`
	fanOut = `{"steps":[{"op":"map","over":{"ref":"var","name":"parts"},"as":"p","concurrency":%d,"bind":"labels","plan":{"steps":[` +
		`{"op":"model","prompt":{"join":["label this part: ",{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}}]},"bind":"a"},` +
		`{"op":"final","value":{"ref":"var","name":"a"}}]}}]}`
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "")
	lat := flag.Duration("latency", 0, "")
	turns := flag.Int("turns", 20, "root turns per run")
	fanout := flag.Bool("fanout", false, "3 root turns: partition, a map of sub-calls over the parts, an answer")
	lines := flag.Int("fanout-lines", 1, "lines per part with -fanout")
	inflight := flag.Int("inflight", 64, "the map's concurrency with -fanout")
	flag.Parse()
	var (
		mu       sync.Mutex
		recorded int
		record   string
	)
	http.HandleFunc("/record", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		record, recorded = r.URL.Query().Get("dir"), 0
		mu.Unlock()
	})
	http.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		mu.Lock()
		if record != "" {
			recorded++
			if err := os.WriteFile(filepath.Join(record, fmt.Sprintf("%06d.json", recorded)), body, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "turnserver:", err)
			}
		}
		mu.Unlock()
		text := "label"
		if len(req.Messages) > 0 && req.Messages[0].Role == "system" {
			done := 0
			for _, m := range req.Messages {
				if m.Role == "assistant" {
					done++
				}
			}
			switch {
			case *fanout && done == 0:
				text = fmt.Sprintf(cut, *lines)
			case *fanout && done == 1:
				text = fmt.Sprintf(fanOut, *inflight)
			case *fanout:
				text = final
			case done >= *turns-1:
				text = final
			default:
				text = fmt.Sprintf(search, done)
			}
		}
		if *lat > 0 {
			time.Sleep(*lat)
		}
		b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Addr())
	if err := http.Serve(l, nil); err != nil {
		panic(err)
	}
}
