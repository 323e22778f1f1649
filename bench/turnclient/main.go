// Command turnclient is the anchor of bench/token_turns.sh: a plain client
// that sends the chat-completions requests recorded by bench/turnserver
// (the files named on the command line, in order), reads and decodes each
// reply, and prints the wall time in milliseconds. Root requests (their
// first message is a system prompt) go one after the other; with
// -inflight N the others (sub-calls) between two root requests go N at a
// time, as a run's map sends them (the client floor of a fan-out).
// After the wall time it prints the CPU time (user and system) the
// process spent sending them, in milliseconds (getrusage, before and
// after: reading the files is not counted).
//
//	turnclient -url http://ADDR/v1/chat/completions [-inflight N] FILE...
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"
)

func main() {
	url := flag.String("url", "", "the chat-completions URL")
	inflight := flag.Int("inflight", 1, "sub-calls in flight at once")
	flag.Parse()
	bodies := make([][]byte, flag.NArg())
	root := make([]bool, flag.NArg())
	for i, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		var req struct {
			Messages []struct{ Role string } `json:"messages"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			fail(fmt.Errorf("%s: %w", f, err))
		}
		bodies[i], root[i] = b, len(req.Messages) > 0 && req.Messages[0].Role == "system"
	}
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = max(*inflight, 2)
	slots := make(chan struct{}, max(*inflight, 1))
	var wg sync.WaitGroup
	cpu0 := cpuTime()
	start := time.Now()
	for i, b := range bodies {
		if root[i] {
			wg.Wait()
			send(*url, b)
			continue
		}
		slots <- struct{}{}
		wg.Go(func() {
			send(*url, b)
			<-slots
		})
	}
	wg.Wait()
	wall := time.Since(start)
	fmt.Printf("%.3f %.3f\n", float64(wall.Microseconds())/1000, float64((cpuTime()-cpu0).Microseconds())/1000)
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func send(url string, b []byte) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
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

func fail(err error) {
	fmt.Fprintln(os.Stderr, "turnclient:", err)
	os.Exit(1)
}
