// Command hello imports only engine and model/openai; TestEngineStaysLight
// builds it to bound what a program embedding the engine links.
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
