// Command latencyserver is an OpenAI-compatible chat-completions server for
// throughput measurements (bench/durable_throughput.sh): it answers a
// request whose first message is a system prompt (a root turn) with a plan
// that maps a model call over every line of the context, ten chunks of
// 1,000 lines at a time, and every other request with "label" after
// -latency (default 5 ms). GET /count returns the sub-calls answered. It
// prints its address on its first line of output.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

const plan = `{"steps":[
 {"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"lines","size":1000},"bind":"chunks"},
 {"op":"map","over":{"ref":"var","name":"chunks"},"as":"c","concurrency":10,"bind":"out","plan":{"steps":[
   {"op":"context","handle":{"ref":"field","value":{"ref":"var","name":"c"},"key":"handle"},"action":{"type":"partition","strategy":"lines","size":1},"bind":"lines"},
   {"op":"map","over":{"ref":"var","name":"lines"},"as":"p","concurrency":48,"bind":"labels","plan":{"steps":[
     {"op":"model","prompt":{"join":["classify ",{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}}]},"bind":"a"},
     {"op":"final","value":{"ref":"var","name":"a"}}]}},
   {"op":"final","value":{"ref":"var","name":"labels"}}]}},
 {"op":"final","value":{"ref":"var","name":"out"}}]}`

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "")
	lat := flag.Duration("latency", 5*time.Millisecond, "")
	flag.Parse()
	var n atomic.Int64
	http.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		text := "label"
		if len(req.Messages) > 0 && req.Messages[0].Role == "system" {
			text = plan
		} else {
			n.Add(1)
			time.Sleep(*lat)
		}
		b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	http.HandleFunc("/count", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, n.Load()) })
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Addr())
	if err := http.Serve(l, nil); err != nil {
		panic(err)
	}
}
