package prompt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/capability"
)

type genCat struct {
	cat     *Catalog
	tools   []genTool
	caps    capability.Set
	queries []string
	intents []UnitID
}

var (
	genMu    sync.Mutex
	genCache = map[int]*genCat{}
)

func generated(tb testing.TB, n int) *genCat {
	genMu.Lock()
	defer genMu.Unlock()
	if g, ok := genCache[n]; ok {
		return g
	}
	tools := genCatalog(n, 1)
	specs, caps := genSpecs(tools)
	t0 := time.Now()
	c, err := NewCatalog(specs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("built %d-unit catalog in %v", n, time.Since(t0))
	g := &genCat{cat: c, tools: tools, caps: caps}
	r := rand.New(rand.NewPCG(uint64(n), 9))
	for range 200 {
		t := tools[r.IntN(len(tools))]
		g.queries = append(g.queries, genQuery(t, r))
		g.intents = append(g.intents, UnitID("tool:"+t.schema.Name))
	}
	genCache[n] = g
	return g
}

// BenchmarkCompile measures one compile (candidate limit 64, every
// capability granted, estimated token counts warm in the catalog cache)
// on generated catalogs, and reports the median besides the mean.
func BenchmarkCompile(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, model := range []string{"", "gpt-4o"} {
			name := fmt.Sprintf("units=%d/tokens=%s", n, map[string]string{"": "estimate", "gpt-4o": "o200k"}[model])
			b.Run(name, func(b *testing.B) {
				g := generated(b, n)
				opts := Options{Capabilities: g.caps, CandidateLimit: 64, Model: model}
				ctx := context.Background()
				for _, q := range g.queries { // warm the token cache
					if _, err := g.cat.Compile(ctx, Input{Text: q}, opts); err != nil {
						b.Fatal(err)
					}
				}
				durs := make([]time.Duration, 0, b.N)
				i := 0
				for b.Loop() {
					t0 := time.Now()
					if _, err := g.cat.Compile(ctx, Input{Text: g.queries[i%len(g.queries)]}, opts); err != nil {
						b.Fatal(err)
					}
					durs = append(durs, time.Since(t0))
					i++
				}
				slices.Sort(durs)
				b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "median-ns/op")
			})
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	g := generated(b, 10_000)
	i := 0
	for b.Loop() {
		if _, err := g.cat.Search(context.Background(), g.queries[i%len(g.queries)], SearchOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkNewCatalog(b *testing.B) {
	specs, _ := genSpecs(genCatalog(10_000, 1))
	for b.Loop() {
		if _, err := NewCatalog(specs); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSelectionQuality compiles generated queries whose intended tool is
// known and reports recall of the intended tool among the active units and
// the mean number of active units, at candidate limit 64 with and without a
// lexical cutoff. It asserts a floor; run with -v to see the figures. Set
// RLM_QUALITY_SIZES=1000,10000,100000 for the larger catalogs.
func TestSelectionQuality(t *testing.T) {
	sizes := []int{1_000}
	if env := os.Getenv("RLM_QUALITY_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	for _, n := range sizes {
		g := generated(t, n)
		for _, cfg := range []struct {
			limit, cutoff int
		}{{64, 0}, {64, 50}, {8, 0}, {8, 50}} {
			opts := Options{Capabilities: g.caps, CandidateLimit: cfg.limit, LexicalCutoff: cfg.cutoff}
			hits, active, top1 := 0, 0, 0
			for i, q := range g.queries {
				r, err := g.cat.Compile(context.Background(), Input{Text: q}, opts)
				if err != nil {
					t.Fatal(err)
				}
				if slices.Contains(r.ActiveUnits, g.intents[i]) {
					hits++
				}
				for _, s := range r.Selected {
					if s.Activation == Relevant {
						if s.Unit == g.intents[i] {
							top1++
						}
						break
					}
				}
				active += len(r.ActiveUnits)
			}
			recall := float64(hits) / float64(len(g.queries))
			t.Logf("units=%d candidate_limit=%d lexical_cutoff=%d: recall=%.3f top1=%.3f mean_active=%.1f (incl. 1 always tool) over %d queries",
				n, cfg.limit, cfg.cutoff, recall, float64(top1)/float64(len(g.queries)), float64(active)/float64(len(g.queries)), len(g.queries))
			if cfg.limit == 64 && cfg.cutoff == 0 && recall < 0.9 {
				t.Errorf("recall %.3f below 0.9", recall)
			}
		}
	}
}
