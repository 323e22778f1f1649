// Command hello is a whole program that embeds the engine: it answers a
// question over a small context through an OpenAI-compatible server
// (base URL in its first argument) and prints the answer. It imports only
// the engine, the context store and model/openai; TestEngineStaysLight
// builds it to bound what such a program links, and runs it.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
)

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(baseURL string) error {
	p, err := openai.New(openai.Config{BaseURL: baseURL, APIKey: "test", Model: "gpt-4o-mini"})
	if err != nil {
		return err
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("log", "10:00 ok\n10:01 ERROR disk full\n")
	if err != nil {
		return err
	}
	e, err := engine.New(engine.Config{Provider: p, Model: "gpt-4o-mini", Store: store})
	if err != nil {
		return err
	}
	res, err := e.Run(context.Background(), "Which error appears?", h)
	if err != nil {
		return err
	}
	fmt.Println(res.Answer)
	return nil
}
