package sys

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestProcess runs the cases of testdata/process_cases.py, which CPython
// ran each in a process of its own (their real sys.stdout and
// sys.stderr), as recorded by
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_process.py
//
// run in this package's directory.
func TestProcess(t *testing.T) {
	data, err := os.ReadFile("testdata/process.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []libtest.Case
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := libtest.Run(c.Src, Register)
			if res.Err != nil || res.Exc != nil {
				t.Fatalf("run ended with %v %v", res.Err, res.Exc)
			}
			if res.Stdout != c.Stdout {
				t.Errorf("output:\n got: %q\nwant: %q", res.Stdout, c.Stdout)
			}
		})
	}
}
