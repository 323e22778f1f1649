package prompt

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

// What a compile derives from its capability set alone is cached per
// catalog: which of the catalog's capabilities the set grants (a table
// indexed like Catalog.caps, so gating a unit is one slice read instead
// of Set.Has's binary searches) and the canonical JSON of the set inside
// the compile fingerprint, hashed once per candidate limit. A host that
// compiles every turn with its one set of grants then pays for neither
// per compile. Entries are keyed by the set's contents
// (capability.Set.Equal, constant time for copies of one Set), so a
// different set never reuses a stale entry; the cache holds at most
// grantCacheSize sets, the most recently used first.

// grantCacheSize bounds the sets cached per catalog.
const grantCacheSize = 8

// grantEntry is what one capability set grants in one catalog. capOK
// and capsJSON are immutable once published; prefix is guarded by mu.
type grantEntry struct {
	set      capability.Set
	capOK    []bool // per Catalog.caps entry: granted
	capsJSON []byte // canonical JSON of the set's strings

	mu     sync.Mutex
	prefix map[int]hash.Hash // effective candidate limit → SHA-256 state after the fingerprint's prefix
}

// grantCache is a catalog's bounded cache of grant entries.
type grantCache struct {
	mu      sync.Mutex
	off     bool          // tests: compute every entry afresh
	entries []*grantEntry // most recently used first
}

// grants returns the entry for set, computing it on a miss.
func (c *Catalog) grants(set capability.Set) (*grantEntry, error) {
	gc := &c.grantCache
	if g := gc.lookup(set); g != nil {
		return g, nil
	}
	g, err := c.newGrantEntry(set)
	if err != nil {
		return nil, err
	}
	gc.mu.Lock()
	defer gc.mu.Unlock()
	if gc.off {
		return g, nil
	}
	for i, old := range gc.entries { // another compile may have added it meanwhile
		if old.set.Equal(set) {
			gc.touch(i)
			return old, nil
		}
	}
	if len(gc.entries) == grantCacheSize {
		gc.entries = gc.entries[:grantCacheSize-1]
	}
	gc.entries = append([]*grantEntry{g}, gc.entries...)
	return g, nil
}

func (gc *grantCache) lookup(set capability.Set) *grantEntry {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	for i, g := range gc.entries {
		if g.set.Equal(set) {
			gc.touch(i)
			return g
		}
	}
	return nil
}

// touch moves entry i to the front; gc.mu is held.
func (gc *grantCache) touch(i int) {
	g := gc.entries[i]
	copy(gc.entries[1:i+1], gc.entries[:i])
	gc.entries[0] = g
}

func (c *Catalog) newGrantEntry(set capability.Set) (*grantEntry, error) {
	g := &grantEntry{set: set, capOK: make([]bool, len(c.caps)), prefix: map[int]hash.Hash{}}
	strs := set.Strings()
	wild := slices.ContainsFunc(strs, func(s string) bool { return strings.HasSuffix(s, "*") })
	if wild {
		for i, cp := range c.caps {
			g.capOK[i] = set.Has(capability.Cap(cp))
		}
	} else {
		// Without wildcards Has is exact membership: merge the two sorted
		// lists.
		j := 0
		for i, cp := range c.caps {
			for j < len(strs) && strs[j] < cp {
				j++
			}
			g.capOK[i] = j < len(strs) && strs[j] == cp
		}
	}
	b, err := fingerprint.Canonical(strs)
	if err != nil {
		return nil, fault.Wrap(err, PhaseCompile, fault.KindInternal, "fingerprint")
	}
	g.capsJSON = b
	return g, nil
}

// fingerprint returns the compile fingerprint: fingerprint.Of of the
// material, whose canonical JSON is {"candidate_limit":N,
// "capabilities":[...], then the other keys in order. The hash state
// after the capabilities is kept per limit; rest is the canonical JSON
// of the material without those two keys.
func (g *grantEntry) fingerprint(limit int, rest []byte) (string, error) {
	g.mu.Lock()
	p, ok := g.prefix[limit]
	if !ok {
		p = sha256.New()
		p.Write([]byte(`{"candidate_limit":` + strconv.Itoa(limit) + `,"capabilities":`))
		p.Write(g.capsJSON)
		g.prefix[limit] = p
	}
	h, err := p.(hash.Cloner).Clone()
	g.mu.Unlock()
	if err != nil || len(rest) < 2 || rest[0] != '{' {
		return "", fault.New(PhaseCompile, fault.KindInternal, "fingerprint state")
	}
	h.Write([]byte{','})
	h.Write(rest[1:])
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
