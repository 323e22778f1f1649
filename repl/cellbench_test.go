package repl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/internal/heapfloor"
)

// The cell benchmark (issue 35): model-style cells over a ~256 KB context
// (testdata/cellbench/cells.py), against CPython's outputs and timings
// recorded by testdata/cellbench/record.py. Each round is a fresh
// interpreter that runs every cell in order; a round's outputs must equal
// CPython's, so the benchmark cannot get faster by computing something
// else. bench/code_cells.sh pairs it with CPython.

type benchCell struct{ name, src string }

type cellRecord struct {
	Python        string `json:"python"`
	Date          string `json:"date"`
	ContextSHA256 string `json:"context_sha256"`
	ContextLen    int    `json:"context_len"`
	TotalMS       struct {
		Median, Min, Max float64
	} `json:"total_ms"`
	CPUMS struct {
		Median, Min, Max float64
	} `json:"cpu_ms"`
	Cells []struct {
		Name        string  `json:"name"`
		MedianUS    float64 `json:"median_us"`
		CPUMedianUS float64 `json:"cpu_median_us"`
		Stdout      string  `json:"stdout"`
	} `json:"cells"`
}

var cellMarker = regexp.MustCompile(`(?m)^# ---- ([a-z0-9_]+)\n`)

var benchInput = sync.OnceValues(func() (*benchData, error) {
	src, err := os.ReadFile("testdata/cellbench/cells.py")
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile("testdata/cellbench/cells.json")
	if err != nil {
		return nil, err
	}
	d := &benchData{}
	if err := json.Unmarshal(raw, &d.rec); err != nil {
		return nil, err
	}
	locs := cellMarker.FindAllSubmatchIndex(src, -1)
	for i, l := range locs {
		end := len(src)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		d.cells = append(d.cells, benchCell{string(src[l[2]:l[3]]), string(src[l[1]:end])})
	}
	if len(d.cells) == 0 || d.cells[0].name != "setup" {
		return nil, fmt.Errorf("cells.py: no setup cell")
	}
	setup := d.cells[0]
	d.cells = d.cells[1:]
	if len(d.cells) != len(d.rec.Cells) {
		return nil, fmt.Errorf("cells.py has %d cells, cells.json %d: re-record", len(d.cells), len(d.rec.Cells))
	}
	// The context is built by the setup cell in this interpreter and must
	// be the text CPython built.
	it, err := New(Config{}, nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	if o, err := it.Exec(context.Background(), setup.src); err != nil || o.Exception != nil {
		return nil, fmt.Errorf("setup: %v %v", err, o.Exception)
	}
	v, _, err := it.Get("context")
	if err != nil {
		return nil, err
	}
	d.text, _ = v.(string)
	sum := sha256.Sum256([]byte(d.text))
	if hex.EncodeToString(sum[:]) != d.rec.ContextSHA256 {
		return nil, fmt.Errorf("the setup cell built another context than CPython's (%d bytes)", len(d.text))
	}
	return d, nil
})

type benchData struct {
	cells []benchCell
	rec   cellRecord
	text  string
}

// contextValue is what context is bound to: the store-like Text real runs
// use, or a plain str.
func (d *benchData) contextValue(kind string) any {
	if kind == "text" {
		return memText{name: "context", b: []byte(d.text)}
	}
	return d.text
}

// round runs every cell once in a fresh interpreter, adding each cell's
// CPU time (the process's) to per, and returns the first cell whose output
// differs from CPython's.
func (d *benchData) round(ctx context.Context, kind string, per []time.Duration) error {
	it, err := New(Config{}, map[string]any{"context": d.contextValue(kind)})
	if err != nil {
		return err
	}
	defer it.Close()
	for i, c := range d.cells {
		c0 := processCPU()
		o, err := it.Exec(ctx, c.src)
		per[i] += processCPU() - c0
		if err != nil {
			return fmt.Errorf("cell %s: %v", c.name, err)
		}
		if o.Exception != nil {
			return fmt.Errorf("cell %s: %v", c.name, o.Exception)
		}
		if want := d.rec.Cells[i].Stdout; o.Stdout != want {
			return fmt.Errorf("cell %s prints\n%s\nCPython printed\n%s", c.name, o.Stdout, want)
		}
	}
	return nil
}

// TestModelCellsMatchCPython is the benchmark's differential check, run
// with the tests.
func TestModelCellsMatchCPython(t *testing.T) {
	d, err := benchInput()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"str", "text"} {
		t.Run(kind, func(t *testing.T) {
			if err := d.round(context.Background(), kind, make([]time.Duration, len(d.cells))); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// asRLM keeps the heap floor of an rlm process (heapfloor.Launcher) while
// BenchmarkModelCells runs: what code mode costs in `rlm run`, where the
// test binary otherwise measures the default collector (a program that
// embeds the library).
var asRLM = flag.Bool("cells.as-rlm", false, "keep the heap floor an rlm process keeps (BenchmarkModelCells)")

// BenchmarkModelCells: one op is one round (a fresh interpreter, every
// cell). cpu-ms/op is the process's CPU time per round (the collector's
// included), x-cpython its ratio to CPython's recorded median CPU time per
// round (on a shared machine CPU time is steadier than wall time); -v logs
// each cell's CPU time against CPython's; geomean-x is the geometric mean
// of the cells' ratios, which no one cell dominates.
//
//	go test -run '^$' -bench ModelCells -benchtime 20x -v ./repl
func BenchmarkModelCells(b *testing.B) {
	d, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	if *asRLM {
		defer heapfloor.Keep(heapfloor.Launcher)()
	}
	for _, kind := range []string{"str", "text"} {
		b.Run(kind, func(b *testing.B) {
			per := make([]time.Duration, len(d.cells))
			ctx := context.Background()
			b.ResetTimer()
			c0 := processCPU()
			for i := 0; i < b.N; i++ {
				if err := d.round(ctx, kind, per); err != nil {
					b.Fatal(err)
				}
			}
			cpu := float64(processCPU()-c0) / float64(b.N)
			b.StopTimer()
			b.ReportMetric(cpu/1e6, "cpu-ms/op")
			b.ReportMetric(cpu/(d.rec.CPUMS.Median*1e6), "x-cpython")
			var sb strings.Builder
			fmt.Fprintf(&sb, "CPU per cell (µs): code mode, %s (median, recorded %s), ratio:\n", d.rec.Python, d.rec.Date)
			type row struct {
				name    string
				go_, py float64
			}
			rows := make([]row, len(d.cells))
			for i, c := range d.cells {
				rows[i] = row{c.name, float64(per[i].Microseconds()) / float64(b.N), d.rec.Cells[i].CPUMedianUS}
			}
			logSum := 0.0
			for _, r := range rows {
				logSum += math.Log(r.go_ / r.py)
			}
			b.ReportMetric(math.Exp(logSum/float64(len(rows))), "geomean-x")
			sort.SliceStable(rows, func(i, j int) bool { return rows[i].go_-rows[i].py > rows[j].go_-rows[j].py })
			for _, r := range rows {
				fmt.Fprintf(&sb, "%-18s %9.0f %9.0f %5.2fx\n", r.name, r.go_, r.py, r.go_/r.py)
			}
			b.Log(sb.String())
		})
	}
}
