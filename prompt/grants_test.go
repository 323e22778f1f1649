package prompt

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/pack"
)

// material is everything a compile's output depends on besides code; its
// fingerprint.Of is the compile fingerprint, which finish computes in
// pieces (grants.go).
type material struct {
	Catalog              string      `json:"catalog"`
	Input                Input       `json:"input"`
	Capabilities         []string    `json:"capabilities"`
	DiscoveryScope       Scope       `json:"discovery_scope"`
	ParentDiscoveryScope Scope       `json:"parent_discovery_scope"`
	CandidateLimit       int         `json:"candidate_limit"`
	Mode                 Mode        `json:"mode"`
	Pack                 bool        `json:"pack"`
	Policy               pack.Policy `json:"policy"`
	Encoding             string      `json:"encoding"`
	LexicalCutoff        int         `json:"lexical_cutoff"`
}

// grantCatalogs builds one generated catalog twice, once with the grant
// cache off (the reference: every compile derives its grants afresh).
// Tools require their own capability, their domain's, or a dotted one
// ("tool:mcp.DOMAIN.NAME", for dotted wildcards), and it returns every
// capability the catalog mentions.
func grantCatalogs(t *testing.T, n int) (cached, ref *Catalog, caps []string, tools []genTool) {
	t.Helper()
	tools = genCatalog(n, 3)
	for i := range tools {
		s := &tools[i].schema
		switch i % 3 {
		case 0:
			s.Capability = "tool:" + s.Name
		case 1:
			s.Capability = "tool:mcp." + tools[i].domain + "." + s.Name
		}
		caps = append(caps, s.Capability)
	}
	specs, _ := genSpecs(tools)
	var err error
	if cached, err = NewCatalog(specs); err != nil {
		t.Fatal(err)
	}
	if ref, err = NewCatalog(specs); err != nil {
		t.Fatal(err)
	}
	ref.grantCache.off = true
	return cached, ref, caps, tools
}

// grantSets are capability sets over caps: all of them, halves, wildcards,
// none, and sets equal in content but built separately.
func grantSets(caps []string) []capability.Set {
	var even, odd []string
	for i, c := range caps {
		if i%2 == 0 {
			even = append(even, c)
		} else {
			odd = append(odd, c)
		}
	}
	return []capability.Set{
		capability.MustSet(caps...),
		capability.MustSet(even...),
		capability.MustSet(odd...),
		capability.MustSet("tool:*"),
		{},
		capability.MustSet("tool:mcp.github.*", "tool:mcp.slack.*", "model:*"),
		capability.MustSet(append([]string{"tool:mcp.*"}, even...)...),
		capability.MustSet(even...), // equal to the second, other storage
		capability.MustSet("tool:mcp.docker.*"),
		capability.MustSet(odd[:len(odd)/2]...),
		capability.MustSet(caps[len(caps)/2:]...),
		capability.MustSet("rlm", "tool:github"),
	}
}

// TestGrantCacheMatchesFresh is the differential test of the grant cache:
// compiles that cycle through more capability sets than the cache holds,
// in an order that revisits evicted and cached ones, with several
// candidate limits and options, are byte-identical to compiles that
// derive every grant afresh, and their fingerprint is fingerprint.Of of
// the whole material, as it always was.
func TestGrantCacheMatchesFresh(t *testing.T) {
	cached, ref, caps, tools := grantCatalogs(t, 600)
	sets := grantSets(caps)
	r := rand.New(rand.NewPCG(5, 5))
	optsFor := []func(capability.Set) Options{
		func(s capability.Set) Options { return Options{Capabilities: s} },
		func(s capability.Set) Options { return Options{Capabilities: s, CandidateLimit: 16} },
		func(s capability.Set) Options {
			return Options{Capabilities: s, CandidateLimit: 400, LexicalCutoff: 30}
		},
		func(s capability.Set) Options { return Options{Capabilities: s, NoPack: true, CandidateLimit: 8} },
		func(s capability.Set) Options {
			return Options{Capabilities: s, DiscoveryScope: mustScope(t, `[{"kind":"tool"}]`), Model: "gpt-4o"}
		},
		func(s capability.Set) Options { return Options{Capabilities: s, Mode: ModeAllTools, NoPack: true} },
	}
	ctx := context.Background()
	for step := range 120 {
		set := sets[r.IntN(len(sets))]
		opts := optsFor[r.IntN(len(optsFor))](set)
		g := tools[r.IntN(len(tools))]
		in := Input{Text: genQuery(g, r)}
		if step%7 == 0 {
			in.Denied = []UnitID{UnitID("tool:" + tools[r.IntN(len(tools))].schema.Name)}
			in.Selected = []UnitID{UnitID("tool:" + tools[r.IntN(len(tools))].schema.Name)}
		}
		got, err := cached.Compile(ctx, in, opts)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		want, err := ref.Compile(ctx, in, opts)
		if err != nil {
			t.Fatalf("step %d (reference): %v", step, err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Fatalf("step %d: cached compile differs from a fresh one\ncached: %.600s\nfresh:  %.600s", step, gj, wj)
		}
		fp := fingerprint.MustOf(material{
			Catalog: got.CatalogFingerprint, Input: got.Input(), Capabilities: set.Strings(),
			DiscoveryScope: got.opts.DiscoveryScope, ParentDiscoveryScope: got.opts.ParentDiscoveryScope,
			CandidateLimit: got.opts.CandidateLimit, Mode: got.opts.Mode, Pack: !opts.NoPack, Policy: got.eval.policy,
			Encoding: got.eval.counter.Encoding(), LexicalCutoff: opts.LexicalCutoff,
		})
		if got.Fingerprint != fp {
			t.Fatalf("step %d: fingerprint %s, fingerprint.Of(material) %s", step, got.Fingerprint, fp)
		}
		if n := len(cached.grantCache.entries); n > grantCacheSize {
			t.Fatalf("step %d: %d cached sets, bound %d", step, n, grantCacheSize)
		}
	}
}

func mustScope(t *testing.T, js string) Scope {
	t.Helper()
	var s Scope
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGrantCacheDistinguishesSets checks what the differential test
// could miss by chance: after a set is cached, an equal set built
// separately reuses its entry, while sets that differ in one capability,
// are a subset or superset, never do.
func TestGrantCacheDistinguishesSets(t *testing.T) {
	cached, ref, caps, tools := grantCatalogs(t, 120)
	ctx := context.Background()
	q := Input{Text: genQuery(tools[0], rand.New(rand.NewPCG(1, 1)))}
	base := caps[:60]
	swapped := append(append([]string{}, base[:59]...), caps[60])
	for _, tc := range []struct {
		name string
		set  capability.Set
	}{
		{"base", capability.MustSet(base...)},
		{"one swapped", capability.MustSet(swapped...)},
		{"subset", capability.MustSet(base[:59]...)},
		{"superset", capability.MustSet(caps[:61]...)},
		{"base again, other storage", capability.MustSet(base...)},
		{"wildcard", capability.MustSet("tool:*")},
		{"empty", capability.Set{}},
	} {
		got, err := cached.Compile(ctx, Input{Text: q.Text, Selected: []UnitID{UnitID("tool:" + tools[0].schema.Name), UnitID("tool:" + tools[59].schema.Name), UnitID("tool:" + tools[60].schema.Name)}}, Options{Capabilities: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Compile(ctx, got.Input(), Options{Capabilities: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Errorf("%s: cached compile differs from a fresh one", tc.name)
		}
	}
	if n := len(cached.grantCache.entries); n != 6 { // "base again" hit
		t.Errorf("%d cached sets, want 6", n)
	}
}

// TestGrantCacheConcurrent compiles with several sets from several
// goroutines (run with -race) and checks each result against the
// reference.
func TestGrantCacheConcurrent(t *testing.T) {
	cached, ref, caps, tools := grantCatalogs(t, 300)
	sets := grantSets(caps)
	ctx := context.Background()
	want := map[string]string{}
	key := func(i, j int) string { return fmt.Sprint(i, "/", j) }
	queries := make([]string, 6)
	for j := range queries {
		queries[j] = genQuery(tools[j*7], rand.New(rand.NewPCG(uint64(j), 2)))
	}
	for i, s := range sets {
		for j, q := range queries {
			r, err := ref.Compile(ctx, Input{Text: q}, Options{Capabilities: s, CandidateLimit: 8 << (j % 3)})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(r)
			want[key(i, j)] = string(b)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(sets)*len(queries))
	for w := range 4 {
		wg.Go(func() {
			for k := range len(sets) * len(queries) {
				i, j := (k+w*5)%len(sets), (k/len(sets)+w)%len(queries)
				r, err := cached.Compile(ctx, Input{Text: queries[j]}, Options{Capabilities: sets[i], CandidateLimit: 8 << (j % 3)})
				if err != nil {
					errs <- err.Error()
					continue
				}
				if b, _ := json.Marshal(r); string(b) != want[key(i, j)] {
					errs <- "set " + key(i, j) + " differs"
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	var msgs []string
	for m := range errs {
		msgs = append(msgs, m)
	}
	if len(msgs) > 0 {
		t.Fatal(strings.Join(msgs, "\n"))
	}
}

// TestGrantEntryMatchesHas: the grant table agrees with Set.Has for every
// catalog capability, for sets with and without wildcards (the latter
// are merged as sorted lists instead of asking Has).
func TestGrantEntryMatchesHas(t *testing.T) {
	c, _, caps, _ := grantCatalogs(t, 300)
	for i, set := range append(grantSets(caps), capability.MustSet(caps[0], caps[len(caps)-1], "tool:zzz", "rlm", "model:x")) {
		g, err := c.newGrantEntry(set)
		if err != nil {
			t.Fatal(err)
		}
		for j, cp := range c.caps {
			if want := set.Has(capability.Cap(cp)); g.capOK[j] != want {
				t.Errorf("set %d, %s: granted %v, Has %v", i, cp, g.capOK[j], want)
			}
		}
	}
}
