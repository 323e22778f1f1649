package demo_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/demo"
)

// Run the credential-free walkthrough behind `rlm demo`: the real engine
// and HTTP provider against an in-process replay server, over a generated
// 4 MB log with one hidden incident.
func ExampleRun() {
	out, err := demo.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Result.Answer)
	fmt.Println(out.Metadata.Bytes, out.Result.Counters.ModelCalls, out.Replayed.Served, out.Replayed.Remaining)
	// Output:
	// Root cause: A configuration push (cfg-7781, by deploy-bot at 03:12:07Z) set payments-db max_connections=5 (was 50); the pool was exhausted from 03:14:09Z, causing 503s on /v1/pay. The error burst is confined to one partition of the log; every other partition shows routine traffic.
	// 4000083 10 10 0
}
