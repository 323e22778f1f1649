// Command turnclient is the anchor of bench/token_turns.sh: a plain client
// that sends the chat-completions requests recorded by bench/turnserver
// (the files named on the command line, in order), one after the other,
// reads and decodes each reply, and prints the wall time in milliseconds.
//
//	turnclient -url http://ADDR/v1/chat/completions FILE...
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	url := flag.String("url", "", "the chat-completions URL")
	flag.Parse()
	bodies := make([][]byte, flag.NArg())
	for i, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		bodies[i] = b
	}
	start := time.Now()
	for _, b := range bodies {
		req, err := http.NewRequest(http.MethodPost, *url, bytes.NewReader(b))
		if err != nil {
			fail(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer unused")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fail(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			fail(fmt.Errorf("status %d: %v", resp.StatusCode, err))
		}
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil {
			fail(err)
		}
	}
	fmt.Printf("%.3f\n", float64(time.Since(start).Microseconds())/1000)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "turnclient:", err)
	os.Exit(1)
}
