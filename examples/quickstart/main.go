// Command quickstart answers a question over a log file with a Recursive
// Language Model. By default it writes a sample log and answers from a
// recorded cassette served in-process (no network, no key):
//
//	go run ./examples/quickstart
//
// With -live it calls the OpenAI API instead (key from OPENAI_API_KEY), and
// a path argument replaces the sample log:
//
//	go run ./examples/quickstart -live big.log
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"log"
	"os"

	_ "github.com/rlm-go/rlm/bpe" // exact token counts for OpenAI models (12 MB of tables)
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

//go:embed cassette.json
var cassette []byte

func main() {
	live := flag.Bool("live", false, "call the OpenAI API (OPENAI_API_KEY) instead of the recorded cassette")
	flag.Parse()
	ctx := context.Background()

	path := flag.Arg(0)
	if path == "" {
		path = sampleLog()
		defer os.Remove(path)
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddFile(ctx, path) // memory-mapped, not copied
	check(err)

	cfg := openai.Config{Model: "gpt-4o-mini"} // key from OPENAI_API_KEY
	if !*live {
		cas, err := replay.Parse(cassette)
		check(err)
		srv := replay.NewServer(cas) // an OpenAI-compatible server on 127.0.0.1
		defer srv.Close()
		cfg.BaseURL = srv.BaseURL()
	}
	prov, err := openai.New(cfg)
	check(err)
	eng, err := engine.New(engine.Config{Provider: prov, Model: "gpt-4o-mini", SubModel: "gpt-4o-mini",
		Store: store, Limits: budget.Limits{MaxCostUSD: 0.50}})
	check(err)
	res, err := eng.Run(ctx, "Which service failed first, and why?", h)
	check(err)
	fmt.Println(res.Answer)
	fmt.Printf("%d turns, %d model calls, %d tokens, $%.6f\n",
		res.Turns, res.Counters.ModelCalls, res.Usage.TotalTokens, res.Usage.CostUSD)
}

// sampleLog writes a 20 000-line service log with two errors and returns
// its path.
func sampleLog() string {
	f, err := os.CreateTemp("", "quickstart-*.log")
	check(err)
	defer f.Close()
	services := []string{"api", "auth", "checkout", "payments", "search"}
	for i := range 20_000 {
		line := fmt.Sprintf("2026-12-02T10:%02d:%02d INFO %s request ok id=%d\n", i/600%60, i/10%60, services[i%5], i)
		switch i {
		case 12_345:
			line = "2026-12-02T10:20:34 ERROR payments database connection pool exhausted (max 20)\n"
		case 12_400:
			line = "2026-12-02T10:20:40 ERROR checkout upstream payments unavailable\n"
		}
		_, err := f.WriteString(line)
		check(err)
	}
	return f.Name()
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
