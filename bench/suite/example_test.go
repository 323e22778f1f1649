package suite_test

import (
	"fmt"

	"github.com/rlm-go/rlm/bench/suite"
)

// Load the LongBench-v2 CodeQA questions of a data.json and score two
// answers the way LongBench-v2's evaluation does.
func Example() {
	tasks, err := suite.Load(suite.LongBenchV2, "testdata/longbench-v2/data.json", suite.Options{Subset: "CodeQA"})
	if err != nil {
		fmt.Println(err)
		return
	}
	t := tasks[0]
	fmt.Println(len(tasks), t.Subset)
	fmt.Println(suite.Score(t, "The policy allows 3 tries. The correct answer is (B)").Score)
	fmt.Println(suite.Score(t, "I think it is B").Score)
	// Output:
	// 2 Code Repository Understanding/Code repo QA
	// 1
	// 0
}

// OOLONG gives partial credit to numeric answers: 0.75 to the power of the
// distance to the gold count.
func ExampleScore() {
	tasks, _ := suite.Load(suite.Oolong, "testdata/oolong/synth.jsonl", suite.Options{})
	for _, t := range tasks {
		if t.ID == "1002" { // gold: 4 instances
			fmt.Println(suite.Score(t, "Answer: 4").Score, suite.Score(t, "Answer: 6").Score)
		}
	}
	// Output: 1 0.5625
}
