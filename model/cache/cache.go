// Package cache answers identical model requests once.
//
// A Cache is shared by every provider wrapper of one run tree (Wrap). Two
// requests are identical when their key is: SHA-256 over the canonical
// JSON of the wrapper's scope and the request (model, messages, tools,
// tool choice, max_tokens, temperature, reasoning effort, extra fields;
// not the transport choice stream). Only deterministic requests are
// cached, those with temperature 0, unless Options.AnyTemperature opts in.
//
// The first of identical requests makes the call; identical requests that
// arrive while it is in flight wait for it and share its response
// (singleflight); later ones get the stored response. A failed call is
// not stored: one of the waiters makes the call again. With Options.Dir
// the responses are also kept on disk, one file per key, so a rerun of an
// interrupted run does not pay again for what it already got.
//
// The scope keeps owners apart: a wrapper's scope must identify the
// endpoint and the credential (openai.Provider.CacheScope hashes the base
// URL, the default model, the API key and the custom headers; the key
// itself never reaches the cache), so requests sent with different keys
// or to different base URLs never share a response.
package cache

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/convhash"
	"github.com/rlm-go/rlm/model"
)

// KindCacheUnusable: the cache directory cannot be created or written
// (Phase config).
const KindCacheUnusable fault.Kind = "cache_unusable"

// DefaultMaxEntries bounds the responses kept in memory.
const DefaultMaxEntries = 4096

// Options configure a Cache.
type Options struct {
	// Dir, when set, keeps responses on disk under this directory (created
	// when missing), so they survive the process.
	Dir string
	// AnyTemperature caches requests whatever their temperature, including
	// requests that leave it to the server. Off: only temperature 0.
	AnyTemperature bool
	// MaxEntries bounds the responses kept in memory (DefaultMaxEntries
	// when 0); past it responses are still shared with waiters and written
	// to disk, but not kept in memory.
	MaxEntries int
}

// Stats counts what a cache did.
type Stats struct {
	// Hits by source (model.CacheMemory, model.CacheInFlight,
	// model.CacheDisk).
	Hits map[string]int64 `json:"hits"`
	// Calls is the number of real calls made through leads (misses).
	Calls int64 `json:"calls"`
	// Uncached counts requests that were not cacheable (temperature).
	Uncached int64 `json:"uncached"`
	// Saved sums the savings of every hit (budget.Usage.Saved).
	Saved budget.Usage `json:"saved"`
	// WriteErrors counts responses that could not be written to disk.
	WriteErrors int64 `json:"write_errors"`
}

// Cache is the shared state of a run tree's wrappers. It is safe for
// concurrent use.
type Cache struct {
	opts  Options
	disk  *disk
	mu    sync.Mutex
	mem   map[string]*model.Response
	fly   map[string]*flight
	stats Stats
	wait  int // requests waiting for a flight (tests observe it)
	keys  *convhash.Memo
}

type flight struct {
	done chan struct{}
	resp *model.Response // nil when the call failed or was released
}

// New returns a cache. A Dir that cannot be created or written fails with
// cache_unusable.
func New(opts Options) (*Cache, error) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	c := &Cache{opts: opts, mem: map[string]*model.Response{}, fly: map[string]*flight{}, stats: Stats{Hits: map[string]int64{}}, keys: newKeyMemo()}
	if opts.Dir != "" {
		d, err := openDisk(opts.Dir)
		if err != nil {
			return nil, err
		}
		c.disk = d
	}
	return c, nil
}

// Stats returns a snapshot of the counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Hits = make(map[string]int64, len(c.stats.Hits))
	for k, v := range c.stats.Hits {
		s.Hits[k] = v
	}
	return s
}

// Wrap returns p answering through the cache under scope, which must
// identify p's endpoint and credential (see the package comment). The
// result is a model.Sharer.
func (c *Cache) Wrap(p model.Provider, scope string) *Provider {
	return &Provider{c: c, next: p, scope: scope}
}

// Provider is a provider wrapped by a Cache.
type Provider struct {
	c     *Cache
	next  model.Provider
	scope string
}

var _ model.Sharer = (*Provider)(nil)

// Complete answers req from the cache or through one real call.
func (p *Provider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	resp, lead, err := p.Share(ctx, req)
	if err != nil || resp != nil {
		return resp, err
	}
	return lead.Complete(ctx, req)
}

// Key returns the cache key of req under the wrapper's scope, and whether
// req is cacheable at all.
func (p *Provider) Key(req model.Request) (string, bool) {
	if !p.c.opts.AnyTemperature && (req.Temperature == nil || *req.Temperature != 0) {
		return "", false
	}
	req.Stream, req.OnDelta = false, nil
	if k, ok := memoKey(p.c.keys, p.scope, req); ok {
		return k, true
	}
	// The marks CachePrefix asks for, written as the keys of earlier
	// versions have them: a cache on disk stays valid.
	req = req.CacheMarked()
	k, err := fingerprint.Of(keyDoc{keyVersion, p.scope, req})
	if err != nil {
		return "", false // Extra that does not encode: never cached
	}
	return k, true
}

// keyVersion changes when the key's material changes.
const keyVersion = 1

// Share implements model.Sharer.
func (p *Provider) Share(ctx context.Context, req model.Request) (*model.Response, model.Lead, error) {
	c := p.c
	key, ok := p.Key(req)
	if !ok {
		c.mu.Lock()
		c.stats.Uncached++
		c.mu.Unlock()
		return nil, direct{p.next}, nil
	}
	for {
		c.mu.Lock()
		if r, ok := c.mem[key]; ok {
			c.hitLocked(model.CacheMemory, r)
			c.mu.Unlock()
			return hit(r, model.CacheMemory, req), nil, nil
		}
		if f, ok := c.fly[key]; ok {
			c.wait++
			c.mu.Unlock()
			var err error
			select {
			case <-f.done:
			case <-ctx.Done():
				err = fault.FromContext(fault.PhaseProvider, ctx.Err())
			}
			c.mu.Lock()
			c.wait--
			c.mu.Unlock()
			if err != nil {
				return nil, nil, err
			}
			if f.resp != nil {
				c.mu.Lock()
				c.hitLocked(model.CacheInFlight, f.resp)
				c.mu.Unlock()
				return hit(f.resp, model.CacheInFlight, req), nil, nil
			}
			continue // the call failed or was released: try again
		}
		f := &flight{done: make(chan struct{})}
		c.fly[key] = f
		c.mu.Unlock()
		if c.disk != nil {
			if r := c.disk.load(key); r != nil {
				c.finish(key, f, r)
				c.mu.Lock()
				c.hitLocked(model.CacheDisk, r)
				c.mu.Unlock()
				return hit(r, model.CacheDisk, req), nil, nil
			}
		}
		return nil, &lead{p: p, key: key, f: f}, nil
	}
}

func (c *Cache) hitLocked(source string, r *model.Response) {
	c.stats.Hits[source]++
	c.stats.Saved = c.stats.Saved.Add(r.Usage.Saved())
}

// finish publishes the outcome of a flight: r is stored in memory (when
// there is room) and shared with the waiters; nil wakes them to retry.
func (c *Cache) finish(key string, f *flight, r *model.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r != nil && len(c.mem) < c.opts.MaxEntries {
		c.mem[key] = r
	}
	f.resp = r
	delete(c.fly, key)
	close(f.done)
}

// hit is the response a hit returns: a copy of the stored one that spends
// nothing and records the savings. Its text is passed to OnDelta in one
// piece.
func hit(r *model.Response, source string, req model.Request) *model.Response {
	out := *r
	out.ToolCalls = slices.Clone(r.ToolCalls)
	out.Usage = r.Usage.Saved()
	out.Meta.Cache = source
	out.Meta.Attempts, out.Meta.LatencyMS, out.Meta.HTTPStatus, out.Meta.Streamed = 0, 0, 0, false
	if req.OnDelta != nil && out.Text != "" {
		req.OnDelta(out.Text)
	}
	return &out
}

// stored is the copy of a real call's response the cache keeps.
func stored(r *model.Response) *model.Response {
	out := *r
	out.ToolCalls = slices.Clone(r.ToolCalls)
	out.Meta.Cache = ""
	return &out
}

// lead is the claim on one real call.
type lead struct {
	p    *Provider
	key  string
	f    *flight
	once sync.Once
}

// Complete makes the real call and shares its response when req is the
// request the lead was claimed for.
func (l *lead) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	claimed := false
	l.once.Do(func() { claimed = true })
	if !claimed {
		return l.p.next.Complete(ctx, req)
	}
	c := l.p.c
	// The request the lead was claimed for, or one of the same key (keyed
	// again: the key memo hashes none of a conversation's messages twice).
	if k, ok := l.p.Key(req); !ok || k != l.key {
		c.finish(l.key, l.f, nil)
		return l.p.next.Complete(ctx, req)
	}
	c.mu.Lock()
	c.stats.Calls++
	c.mu.Unlock()
	resp, err := l.p.next.Complete(ctx, req)
	if err != nil || resp == nil {
		c.finish(l.key, l.f, nil)
		return resp, err
	}
	s := stored(resp)
	if c.disk != nil {
		if werr := c.disk.store(l.key, s); werr != nil {
			c.mu.Lock()
			c.stats.WriteErrors++
			c.mu.Unlock()
		}
	}
	c.finish(l.key, l.f, s)
	return resp, nil
}

// Release gives the claim up unless it was used.
func (l *lead) Release() {
	l.once.Do(func() { l.p.c.finish(l.key, l.f, nil) })
}

// direct is the lead of an uncacheable request: a plain call.
type direct struct{ next model.Provider }

func (d direct) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return d.next.Complete(ctx, req)
}

func (direct) Release() {}

// encodeEntry and decodeEntry are the on-disk form of one response.
type entry struct {
	Version  int            `json:"version"`
	Key      string         `json:"key"`
	Response model.Response `json:"response"`
}

func encodeEntry(key string, r *model.Response) ([]byte, error) {
	return json.Marshal(entry{Version: entryVersion, Key: key, Response: *r})
}

const entryVersion = 1
