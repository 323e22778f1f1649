package main

import (
	"context"
	"os"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/cache"
)

// cacheFlags are the response-cache flags of every command that calls a
// model (docs/model.md, "Response cache"). Identical deterministic
// requests of one run are always answered once; --cache DIR keeps the
// responses across runs.
type cacheFlags struct {
	cacheDir      string
	cacheAnyTemp  bool
	temperature   optFloat
	cacheDisabled bool
}

func (f *cacheFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.cacheDir, "cache", "", "keep model responses in this directory, so a rerun does not pay again for identical requests (deterministic requests only: temperature 0, or --cache-any-temperature)")
	fl.BoolVar(&f.cacheAnyTemp, "cache-any-temperature", false, "also share and cache requests whose temperature is not 0 (or is left to the server)")
	fl.Var(&f.temperature, "temperature", "sampling temperature sent with every request (default: the server's); 0 makes requests cacheable")
	fl.BoolVar(&f.cacheDisabled, "no-cache", false, "make every request, even identical deterministic ones")
}

// scopedProvider is a provider that names the owner of its responses for
// the response cache (its endpoint and credentials); every provider the
// CLI builds is one.
type scopedProvider interface {
	model.Provider
	CacheScope() string
}

// cacheScope is the owner of the responses: the endpoint and credentials
// (CacheScope), or the cassette for a replayed run, whose server listens
// on a new port each time.
func (f *providerFlags) cacheScope(p scopedProvider) string {
	if f.replay != "" {
		if data, err := os.ReadFile(f.replay); err == nil {
			return "replay:" + fingerprint.Bytes(data)
		}
	}
	return p.CacheScope()
}

// wrap applies --temperature and puts the cache in front of p; st shows
// the cache's savings in the final usage line.
func (f *cacheFlags) wrap(p model.Provider, scope string, st *status) (model.Provider, error) {
	if f.cacheDisabled {
		if t, ok := f.temperature.get(); ok {
			next := p
			p = model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
				if req.Temperature == nil {
					req.Temperature = &t
				}
				return next.Complete(ctx, req)
			})
		}
		return p, nil
	}
	c, err := cache.New(cache.Options{Dir: f.cacheDir, AnyTemperature: f.cacheAnyTemp})
	if err != nil {
		return nil, err
	}
	st.setCache(c)
	return withTemperature(c.Wrap(p, scope), f.temperature), nil
}

// withTemperature sets the default temperature before the cache computes
// its key, so --temperature 0 requests are cacheable.
func withTemperature(p *cache.Provider, t optFloat) model.Provider {
	v, ok := t.get()
	if !ok {
		return p
	}
	return temperatureSharer{p, v}
}

type temperatureSharer struct {
	*cache.Provider
	t float64
}

func (s temperatureSharer) fill(req model.Request) model.Request {
	if req.Temperature == nil {
		t := s.t
		req.Temperature = &t
	}
	return req
}

func (s temperatureSharer) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return s.Provider.Complete(ctx, s.fill(req))
}

func (s temperatureSharer) Share(ctx context.Context, req model.Request) (*model.Response, model.Lead, error) {
	resp, lead, err := s.Provider.Share(ctx, s.fill(req))
	if lead != nil {
		lead = temperatureLead{lead, s}
	}
	return resp, lead, err
}

type temperatureLead struct {
	model.Lead
	s temperatureSharer
}

func (l temperatureLead) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return l.Lead.Complete(ctx, l.s.fill(req))
}

// optFloat is a float flag that remembers whether it was given.
type optFloat struct {
	v   float64
	set bool
}

func (o *optFloat) String() string {
	if !o.set {
		return ""
	}
	return strconv.FormatFloat(o.v, 'g', -1, 64)
}

func (o *optFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	o.v, o.set = v, true
	return nil
}

func (o *optFloat) Type() string { return "float" }

func (o optFloat) get() (float64, bool) { return o.v, o.set }
