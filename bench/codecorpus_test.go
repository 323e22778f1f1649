package bench

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCodeCorpusNoBaseline(t *testing.T) {
	cells, err := ReadCodeCorpus(filepath.Join("testdata", "codecorpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunCodeCorpus(context.Background(), cells, CodeCorpusConfig{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	// Without CPython there is no scaffold stub: t2-0 fails on its tool too.
	if rep.Cells != 6 || rep.Trajectories != 3 || rep.Baseline != "none" || rep.CodeOK != 3 {
		t.Fatalf("report %+v", rep)
	}
	n := 0
	for _, f := range rep.Failures {
		n += f.Count
	}
	if n != 3 || len(rep.Results) != 6 {
		t.Fatalf("failures %+v", rep.Failures)
	}
	var b strings.Builder
	if err := WriteCodeCorpus(&b, rep); err != nil || !strings.Contains(b.String(), "no CPython baseline: code mode runs 3 of 6 cells") {
		t.Fatalf("%v:\n%s", err, b.String())
	}
}

func TestCodeCorpusCPythonBaseline(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	cells, err := ReadCodeCorpus(filepath.Join("testdata", "codecorpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunCodeCorpus(context.Background(), cells, CodeCorpusConfig{Python: python})
	if err != nil {
		t.Fatal(err)
	}
	// CPython runs all but t2-1 (a ZeroDivisionError in both); code mode fails
	// `import os` (no such module in code mode).
	if rep.Baseline != "cpython" || rep.CPythonOK != 5 || rep.BothOK != 4 || rep.Share != 0.8 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Cells[0] != "t1-2" {
		t.Fatalf("failures %+v", rep.Failures)
	}
}

func TestReadCodeCorpusErrors(t *testing.T) {
	if _, err := ReadCodeCorpus(filepath.Join("testdata", "nope.json")); err == nil {
		t.Fatal("missing file accepted")
	}
	if _, err := ReadCodeCorpus(filepath.Join("testdata", "bench_niah.json")); err == nil {
		t.Fatal("a cassette accepted as a corpus")
	}
}
