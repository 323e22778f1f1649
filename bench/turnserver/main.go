// Command turnserver is an OpenAI-compatible chat-completions server for
// measuring the engine's own cost per root turn (issue 35: "CPU per turn
// at a 0 ms model", bench/token_turns.sh): it answers a root request (its
// first message is a system prompt) holding fewer than -turns-1 assistant
// messages with a plan that searches the context for "needle" (so each
// turn adds a plan and an observation to the conversation), the last turn
// with a final answer, and any other request with "label"; each answer
// after -latency (default 0). GET /record?dir=DIR makes it write each
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
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "")
	lat := flag.Duration("latency", 0, "")
	turns := flag.Int("turns", 20, "root turns per run")
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
			text = fmt.Sprintf(search, done)
			if done >= *turns-1 {
				text = final
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
