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

	"github.com/rlm-go/rlm"
	_ "github.com/rlm-go/rlm/bpe" // exact token counts for OpenAI models (6.5 MB of tables)
	"github.com/rlm-go/rlm/budget"
)

//go:embed cassette.json
var cassette []byte

func main() {
	live := flag.Bool("live", false, "call the OpenAI API (OPENAI_API_KEY) instead of the recorded cassette")
	flag.Parse()
	spec := rlm.Spec{Model: "gpt-4o-mini", Context: []string{flag.Arg(0)}, Limits: budget.Limits{MaxCostUSD: 0.50}}
	if spec.Context[0] == "" {
		spec.Context[0] = sampleLog()
		defer os.Remove(spec.Context[0])
	}
	if !*live {
		spec.Replay = writeCassette() // answered by an in-process OpenAI-compatible server
		defer os.Remove(spec.Replay)
	}

	res, err := rlm.Run(context.Background(), spec, "Which service failed first, and why?")
	check(err)
	fmt.Println(res.Answer)
	fmt.Printf("%d turns, %d model calls, %d tokens, $%.6f\n",
		res.Turns, res.Counters.ModelCalls, res.Usage.TotalTokens, res.Usage.CostUSD)
}

// writeCassette writes the recorded model replies to a file and returns
// its path.
func writeCassette() string {
	f, err := os.CreateTemp("", "quickstart-*.json")
	check(err)
	defer f.Close()
	_, err = f.Write(cassette)
	check(err)
	return f.Name()
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
