// Command durable submits a run to a queue on PostgreSQL and serves it
// with a worker in the same process: the path rlm submit and rlm worker
// take, from Go. The run's Spec travels with it; the worker opens it,
// checkpoints each model call, and any other worker on the queue would
// continue the run from its checkpoints if this one died. By default the
// model's replies come from a recorded cassette (no network, no key):
//
//	go run ./examples/durable postgres://user@127.0.0.1:5432/db
package main

import (
	"context"
	_ "embed"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/durable"
)

//go:embed cassette.json
var cassette []byte

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: durable postgres://...")
	}
	url := os.Args[1]
	dir, err := os.MkdirTemp("", "rlm-durable-")
	check(err)
	defer os.RemoveAll(dir)
	// Workers read the contexts at the same absolute paths (shared
	// storage): a temporary directory serves one machine.
	spec := rlm.Spec{Mode: "code", Context: []string{write(dir, "app.log", sampleLog)},
		Replay: write(dir, "cassette.json", string(cassette)), Durable: rlm.DurableSpec{Database: url, Queue: "example"}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	sess, err := rlm.Open(ctx, spec)
	check(err)
	id, err := sess.Submit(ctx, "How many errors, and where is the first?")
	check(err)
	fmt.Println("submitted; queued:", state(ctx, url, id) == "queued")

	// A worker serving the queue: the submitted Spec is opened by
	// rlm.RunSubmitted; sub-model calls would go through sess's provider.
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- durable.Work(wctx, durable.WorkerConfig{DatabaseURL: url, Queue: "example", Provider: sess.Provider(),
			Run: rlm.RunSubmitted(url)})
	}()
	for st := state(ctx, url, id); st == "queued" || st == "pending"; st = state(ctx, url, id) {
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	check(<-done)
	check(sess.Close())
	_, res, err := durable.Status(ctx, url, id)
	check(err)
	fmt.Println(res.Status+":", res.Answer)
}

// state is the durable run's status (pending, queued, completed, ...).
func state(ctx context.Context, url, id string) string {
	st, err := durable.State(ctx, url, id)
	check(err)
	return st.Status
}

const sampleLog = `2026-12-01T10:00:01Z api INFO started
2026-12-01T10:00:07Z billing ERROR connection refused: db:5432
2026-12-01T10:00:09Z api ERROR upstream billing unavailable
`

// write writes data to dir/name and returns the path.
func write(dir, name, data string) string {
	p := filepath.Join(dir, name)
	check(os.WriteFile(p, []byte(data), 0o644))
	return p
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
