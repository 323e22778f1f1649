// Command footprint is the hello-world of issue 12's size check: it
// imports only the engine and model/openai, builds a provider and reads
// one engine default, and runs nothing. Its size is what importing the
// engine costs before a run reaches anything: package-level state and
// init functions of everything the engine links (the 17 MB of SQLite and
// JSON Schema the issue found came in this way). TestEngineStaysLight
// bounds it at 10 MB; testdata/hello, which really runs, is bounded
// separately.
package main

import (
	"fmt"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
)

func main() {
	p, err := openai.New(openai.Config{BaseURL: "http://127.0.0.1:1", Model: "m"})
	fmt.Println(engine.DefaultCapabilities("m", "m").Len(), p != nil, err)
}
