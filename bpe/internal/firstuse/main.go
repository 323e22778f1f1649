// Command firstuse prints how long the first exact count of a short text
// takes in a fresh process, for an encoding (cl100k_base or o200k_base,
// the first argument) and an implementation (the second: "rlm", package
// bpe, or "tiktoken-go", github.com/tiktoken-go/tokenizer as rlm used it
// before): the encoding's tables are built on first use. Run it several
// times, alternating, e.g.:
//
//	go build -o /tmp/firstuse ./bpe/internal/firstuse
//	for i in $(seq 11); do for impl in rlm tiktoken-go; do /tmp/firstuse o200k_base $impl; done; done
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/tiktoken-go/tokenizer"

	_ "github.com/rlm-go/rlm/bpe"
	"github.com/rlm-go/rlm/internal/tokens"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: firstuse cl100k_base|o200k_base rlm|tiktoken-go")
		os.Exit(2)
	}
	enc, impl := os.Args[1], os.Args[2]
	start := time.Now()
	var n int
	switch impl {
	case "rlm":
		n = tokens.ForModel(enc).Count("hello world")
	case "tiktoken-go":
		c, err := tokenizer.Get(tokenizer.Encoding(enc))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n, _ = c.Count("hello world")
	default:
		fmt.Fprintln(os.Stderr, "unknown implementation", impl)
		os.Exit(2)
	}
	fmt.Printf("%s %s: first count %v (%d tokens)\n", enc, impl, time.Since(start).Round(10*time.Microsecond), n)
}
