package bench_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/bench"
)

// Generate a long-context task with a known answer, deterministically from
// a seed, and score answers the way the benchmark it follows does (here
// containment of the needle).
func ExampleGenerate() {
	task, err := bench.Generate(bench.KindNIAH, 64<<10, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := bench.Generate(bench.KindNIAH, 64<<10, 7)
	fmt.Println(len(task.Context) >= 64<<10, task.Context == again.Context, task.Expected.Form)
	fmt.Println(strings.Contains(task.Context, task.Expected.Value))
	fmt.Println(task.Score("The special magic number is "+task.Expected.Value+"."), task.Score("I could not find it."))
	// Output:
	// true true value
	// true
	// 1 0
}

// Run part of the conformance suite: each case drives the real engine
// through the real HTTP provider against an embedded cassette.
func ExampleConformance() {
	rep := bench.Conformance(context.Background(), func(name string) bool { return strings.HasPrefix(name, "budget_") })
	fmt.Println(rep.Status, rep.CaseCount, rep.Passed, rep.Failed)
	// Output:
	// pass 8 8 0
}
