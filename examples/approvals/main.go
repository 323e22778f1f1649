// Command approvals shows an effect waiting for a person: the model's
// cell calls a tool with effects (paging the on-call engineer), the run
// stops with approval_required, the program shows what the call would do
// and approves it, and the resumed run performs it once. By default the
// model's replies come from a recorded cassette (no network, no key):
//
//	go run ./examples/approvals
//
// The same flow on the command line: rlm run ... stops with exit 3,
// rlm approve RUN_ID lists and approves, rlm run ... --resume RUN_ID.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

//go:embed cassette.json
var cassette []byte

type page struct {
	Service string `json:"service" jsonschema:"minLength=1"`
}

func main() {
	dir, err := os.MkdirTemp("", "rlm-approvals-")
	check(err)
	defer os.RemoveAll(dir)
	pageOncall := tool.Func("page_oncall", "page the on-call engineer of a service",
		func(ctx context.Context, p page) (page, error) {
			fmt.Println("(the pager rings for", p.Service+")")
			return p, nil
		})
	pageOncall.Effect = authority.EffectNetworkWrite // effects wait for approval (tier approve_diff)
	spec := rlm.Spec{Mode: "code", Context: []string{write(dir, "app.log", sampleLog)}, Tools: []tool.Spec{pageOncall},
		StateDir: filepath.Join(dir, "state"), Replay: write(dir, "cassette.json", string(cassette))}
	ctx := context.Background()
	const query = "Page the owner of the first failed service."

	res, err := rlm.Run(ctx, spec, query)
	if fault.KindOf(err) != authority.KindApprovalRequired {
		log.Fatalf("want an approval stop, got %v", err)
	}
	fmt.Println("run", res.RunID, "waits for an approval")

	// A person (or another process) looks at what it would do and decides
	// (rlm approve RUN_ID [APPROVAL_ID...] does the same).
	pending, err := rlm.Approvals(ctx, spec.StateDir, res.RunID)
	check(err)
	for _, a := range pending {
		fmt.Printf("%s: %s %s (%s)\n", a.ID, a.Tool, a.Args, a.State)
	}
	_, err = rlm.Decide(ctx, spec.StateDir, res.RunID, res.Envelope().Approvals, effect.Approve, "expected page")
	check(err)

	// The same run, resumed: the approved call runs once.
	spec.Resume = res.RunID
	res, err = rlm.Run(ctx, spec, query)
	check(err)
	fmt.Println(res.Answer)
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
