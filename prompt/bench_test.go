package prompt

import (
	"context"
	"encoding/json"
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
	// heldOut are queries from genHeldOutQuery, never used for tuning.
	heldOut       []string
	heldOutIntent []UnitID
	// multi are queries from genMultiQuery (two or three intents each),
	// never used for tuning.
	multi       []string
	multiIntent [][]UnitID
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
	h := rand.New(rand.NewPCG(uint64(n), 31))
	for range 200 {
		t := tools[h.IntN(len(tools))]
		g.heldOut = append(g.heldOut, genHeldOutQuery(t, h))
		g.heldOutIntent = append(g.heldOutIntent, UnitID("tool:"+t.schema.Name))
	}
	m := rand.New(rand.NewPCG(uint64(n), 53))
	for range 200 {
		q, ids := genMultiQuery(tools, m)
		g.multi = append(g.multi, q)
		g.multiIntent = append(g.multiIntent, ids)
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

// BenchmarkNewCatalog builds generated catalogs from specs (normalization,
// fingerprint, indexes); BenchmarkCatalogFile from a catalog file's bytes
// (strict decoding, tool import and the build), as rlm compile does.
func BenchmarkNewCatalog(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			specs, _ := genSpecs(genCatalog(n, 1))
			for b.Loop() {
				if _, err := NewCatalog(specs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCatalogFile(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			tools := genCatalog(n, 1)
			f := CatalogFile{Import: ImportOptions{AlwaysVisibleTools: []string{tools[0].schema.Name}}}
			for _, t := range tools {
				f.Tools = append(f.Tools, t.schema)
			}
			data, err := json.Marshal(f)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				cf, err := DecodeCatalogFile(data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cf.Build(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSelectionQuality compiles generated queries whose intended tool is
// known and reports recall of the intended tool among the active units,
// top-1 and the mean number of active units, at candidate limits 64, 16
// and 8, for two query sets: "tuned" (genQuery, the set the ranking was
// tuned on) and "held-out" (genHeldOutQuery: other paraphrases, synonyms,
// inflections and typos, never tuned on), and the recall over (query,
// intended tool) pairs of multi-intent queries (genMultiQuery, never
// tuned on). It asserts floors; run with -v
// to see the figures. Set RLM_QUALITY_SIZES=1000,10000,100000 for the
// larger catalogs.
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
		for _, set := range []struct {
			name    string
			queries []string
			intents []UnitID
		}{{"tuned", g.queries, g.intents}, {"held-out", g.heldOut, g.heldOutIntent}} {
			for _, cfg := range []struct {
				limit, cutoff int
				floor         float64
			}{{64, 0, 0.97}, {64, 50, 0}, {16, 0, 0.95}, {8, 0, 0}} {
				opts := Options{Capabilities: g.caps, CandidateLimit: cfg.limit, LexicalCutoff: cfg.cutoff}
				recall, top1, active := selectionQuality(t, g.cat, set.queries, set.intents, opts)
				t.Logf("units=%d queries=%s candidate_limit=%d lexical_cutoff=%d: recall=%.3f top1=%.3f mean_active=%.1f (incl. 1 always tool) over %d queries",
					n, set.name, cfg.limit, cfg.cutoff, recall, top1, active, len(set.queries))
				if recall < cfg.floor {
					t.Errorf("units=%d %s limit %d: recall %.3f below %.2f", n, set.name, cfg.limit, recall, cfg.floor)
				}
			}
		}
		for _, cfg := range []struct {
			limit int
			floor float64
		}{{64, 0.97}, {16, 0.95}, {8, 0}} {
			opts := Options{Capabilities: g.caps, CandidateLimit: cfg.limit}
			recall, all, active := multiQuality(t, g.cat, g.multi, g.multiIntent, opts)
			t.Logf("units=%d queries=multi-intent candidate_limit=%d: recall=%.3f all-intents=%.3f mean_active=%.1f over %d queries",
				n, cfg.limit, recall, all, active, len(g.multi))
			if recall < cfg.floor {
				t.Errorf("units=%d multi-intent limit %d: recall %.3f below %.2f", n, cfg.limit, recall, cfg.floor)
			}
		}
	}
}

// multiQuality returns, for multi-intent queries, recall over all
// (query, intended tool) pairs, the share of queries with every intended
// tool active, and mean active units.
func multiQuality(t testing.TB, c *Catalog, queries []string, intents [][]UnitID, opts Options) (recall, all, active float64) {
	t.Helper()
	hits, pairs, full, act := 0, 0, 0, 0
	for i, q := range queries {
		r, err := c.Compile(context.Background(), Input{Text: q}, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, id := range intents[i] {
			if slices.Contains(r.ActiveUnits, id) {
				got++
			} else if os.Getenv("RLM_QUALITY_MISSES") != "" {
				t.Logf("miss (limit %d): %q wants %s", opts.CandidateLimit, q, id)
			}
		}
		hits, pairs, act = hits+got, pairs+len(intents[i]), act+len(r.ActiveUnits)
		if got == len(intents[i]) {
			full++
		}
	}
	n := float64(len(queries))
	return float64(hits) / float64(pairs), float64(full) / n, float64(act) / n
}

// selectionQuality returns recall, top-1 and mean active units.
func selectionQuality(t testing.TB, c *Catalog, queries []string, intents []UnitID, opts Options) (recall, top1, active float64) {
	t.Helper()
	hits, act, first := 0, 0, 0
	for i, q := range queries {
		r, err := c.Compile(context.Background(), Input{Text: q}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(r.ActiveUnits, intents[i]) {
			hits++
		} else if os.Getenv("RLM_QUALITY_MISSES") != "" {
			t.Logf("miss (limit %d): %q wants %s", opts.CandidateLimit, q, intents[i])
		}
		for _, s := range r.Selected {
			if s.Activation == Relevant {
				if s.Unit == intents[i] {
					first++
				}
				break
			}
		}
		act += len(r.ActiveUnits)
	}
	n := float64(len(queries))
	return float64(hits) / n, float64(first) / n, float64(act) / n
}

// BenchmarkSelectionRecall reports the held-out and tuned recall at
// candidate limits 64 and 16 on the 10k and 100k catalogs as metrics
// (the figures of TestSelectionQuality), with the time of one pass over
// the 200 held-out queries at limit 64.
func BenchmarkSelectionRecall(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			g := generated(b, n)
			for b.Loop() {
				for _, q := range g.heldOut {
					if _, err := g.cat.Compile(context.Background(), Input{Text: q}, Options{Capabilities: g.caps, CandidateLimit: 64}); err != nil {
						b.Fatal(err)
					}
				}
			}
			for _, limit := range []int{64, 16} {
				opts := Options{Capabilities: g.caps, CandidateLimit: limit}
				held, _, _ := selectionQuality(b, g.cat, g.heldOut, g.heldOutIntent, opts)
				tuned, _, _ := selectionQuality(b, g.cat, g.queries, g.intents, opts)
				multi, _, _ := multiQuality(b, g.cat, g.multi, g.multiIntent, opts)
				b.ReportMetric(held, fmt.Sprintf("heldout-recall@%d", limit))
				b.ReportMetric(tuned, fmt.Sprintf("tuned-recall@%d", limit))
				b.ReportMetric(multi, fmt.Sprintf("multi-recall@%d", limit))
			}
		})
	}
}

// opTimes records each operation's wall time and, where the OS reports
// it, the process CPU time it took (the compile and the garbage
// collection running meanwhile, on any thread), and reports their
// medians: on a loaded machine the CPU time is the steadier figure, as
// it leaves out waiting for a core.
type opTimes struct {
	wall, cpu []time.Duration
	c0        time.Duration
	start     time.Time
}

func (o *opTimes) begin() {
	o.start = time.Now()
	o.c0, _ = processCPU()
}

func (o *opTimes) end() {
	o.wall = append(o.wall, time.Since(o.start))
	if c, ok := processCPU(); ok {
		o.cpu = append(o.cpu, c-o.c0)
	}
}

func (o *opTimes) report(b *testing.B) {
	slices.Sort(o.wall)
	b.ReportMetric(float64(o.wall[len(o.wall)/2].Nanoseconds()), "median-ns/op")
	if len(o.cpu) > 0 {
		slices.Sort(o.cpu)
		b.ReportMetric(float64(o.cpu[len(o.cpu)/2].Nanoseconds()), "cpu-median-ns/op")
	}
}

var (
	grantMu  sync.Mutex
	grantCat = map[int]*Catalog{}
)

// generatedPerToolCaps is the generated catalog of n units where every
// tool requires its own capability "tool:NAME", as a host with one grant
// per tool declares it.
func generatedPerToolCaps(tb testing.TB, n int) (*Catalog, []string) {
	grantMu.Lock()
	defer grantMu.Unlock()
	tools := genCatalog(n, 1)
	caps := make([]string, len(tools))
	for i := range tools {
		tools[i].schema.Capability = "tool:" + tools[i].schema.Name
		caps[i] = tools[i].schema.Capability
	}
	if c, ok := grantCat[n]; ok {
		return c, caps
	}
	specs, _ := genSpecs(tools)
	c, err := NewCatalog(specs)
	if err != nil {
		tb.Fatal(err)
	}
	grantCat[n] = c
	return c, caps
}

// BenchmarkCompileGrants measures one compile of the 10k-unit catalog
// whose tools each require their own capability, granted either as an
// explicit list of all 10k capabilities or as "tool:*" (issue 35's
// "prompt compile" row), and reports the median besides the mean. The
// capability set is built once, as a host holding its grants does;
// "explicit-rebuilt" builds an equal set anew before each compile (as a
// caller decoding its options per call), outside the timed median.
func BenchmarkCompileGrants(b *testing.B) {
	const n = 10_000
	queries := generated(b, n).queries
	for _, grant := range []string{"explicit", "wildcard", "explicit-rebuilt"} {
		b.Run(fmt.Sprintf("units=%d/caps=%s", n, grant), func(b *testing.B) {
			c, caps := generatedPerToolCaps(b, n)
			set := capability.MustSet("tool:*")
			if grant != "wildcard" {
				set = capability.MustSet(caps...)
			}
			opts := Options{Capabilities: set, CandidateLimit: 64}
			ctx := context.Background()
			for _, q := range queries { // warm the token cache
				if _, err := c.Compile(ctx, Input{Text: q}, opts); err != nil {
					b.Fatal(err)
				}
			}
			var ot opTimes
			i := 0
			for b.Loop() {
				if grant == "explicit-rebuilt" {
					opts.Capabilities = capability.MustSet(caps...)
				}
				ot.begin()
				if _, err := c.Compile(ctx, Input{Text: queries[i%len(queries)]}, opts); err != nil {
					b.Fatal(err)
				}
				ot.end()
				i++
			}
			ot.report(b)
		})
	}
}

// BenchmarkCompileMultiIntent measures one compile of a multi-intent
// query (genMultiQuery, per-clause ranking) at candidate limit 64, and
// reports the median besides the mean.
func BenchmarkCompileMultiIntent(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			g := generated(b, n)
			opts := Options{Capabilities: g.caps, CandidateLimit: 64}
			ctx := context.Background()
			for _, q := range g.multi { // warm the token cache
				if _, err := g.cat.Compile(ctx, Input{Text: q}, opts); err != nil {
					b.Fatal(err)
				}
			}
			var ot opTimes
			i := 0
			for b.Loop() {
				ot.begin()
				if _, err := g.cat.Compile(ctx, Input{Text: g.multi[i%len(g.multi)]}, opts); err != nil {
					b.Fatal(err)
				}
				ot.end()
				i++
			}
			ot.report(b)
		})
	}
}
