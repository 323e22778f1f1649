package bench

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// Progress is the state of a run, reported after each trial
// (Config.Progress).
type Progress struct {
	// Done counts the finished trials (Resumed included) of Total.
	Done  int `json:"done"`
	Total int `json:"total"`
	// Resumed counts the trials taken from the journal (Config.Resume).
	Resumed int `json:"resumed"`
	// Failed counts the finished trials that failed.
	Failed int `json:"failed"`
	// SpentUSD is the cost of the finished trials, resumed ones included.
	SpentUSD float64 `json:"spent_usd"`
	// Elapsed is the time since the run started; ETA the time left,
	// estimated from the trials this run has run (0 before the first).
	Elapsed time.Duration `json:"elapsed"`
	ETA     time.Duration `json:"eta"`
}

// String renders p on one line: "12/50 trials · $0.42 spent · ETA 3m10s".
func (p Progress) String() string {
	s := fmt.Sprintf("%d/%d trials", p.Done, p.Total)
	if p.Resumed > 0 {
		s += fmt.Sprintf(" (%d resumed)", p.Resumed)
	}
	if p.Failed > 0 {
		s += fmt.Sprintf(" · %d failed", p.Failed)
	}
	s += fmt.Sprintf(" · $%.4f spent", p.SpentUSD)
	switch {
	case p.Done == p.Total:
		s += " · done in " + p.Elapsed.Round(time.Second).String()
	case p.ETA >= time.Second:
		s += " · ETA " + p.ETA.Round(time.Second).String()
	case p.ETA > 0:
		s += " · ETA <1s"
	default:
		s += " · ETA unknown"
	}
	return s
}

// progress counts finished trials for Config.Progress.
type progress struct {
	mu    sync.Mutex
	f     func(Progress)
	start time.Time
	p     Progress
	ran   int // trials run (not resumed) so far
}

// finish counts one finished trial (resumed: taken from the journal) and
// reports.
func (pg *progress) finish(tr Trial, resumed bool) {
	if pg.f == nil {
		return
	}
	pg.mu.Lock()
	defer pg.mu.Unlock()
	pg.p.Done++
	if resumed {
		pg.p.Resumed++
	} else {
		pg.ran++
	}
	if tr.Status == StatusFailed {
		pg.p.Failed++
	}
	pg.p.SpentUSD += tr.Usage.CostUSD
	pg.p.Elapsed = time.Since(pg.start)
	pg.p.ETA = 0
	if left := pg.p.Total - pg.p.Done; pg.ran > 0 && left > 0 {
		// Trials run here took Elapsed, concurrency included.
		per := pg.p.Elapsed / time.Duration(pg.ran)
		pg.p.ETA = per * time.Duration(left)
	}
	pg.f(pg.p)
}

// RateLimitAny is the Config.RateLimits key of every model without its
// own limit.
const RateLimitAny = "*"

// ParseRateLimit parses MODEL=RPM (requests per minute, > 0); MODEL "*"
// is every model without its own limit.
func ParseRateLimit(s string) (modelName string, rpm float64, err error) {
	name, v, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	rpm, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if !ok || name == "" || perr != nil || !(rpm > 0) || math.IsInf(rpm, 0) {
		return "", 0, fault.New(fault.PhaseConfig, KindInvalidTask, "a rate limit is MODEL=RPM, requests per minute above 0").With("rate_limit", s).
			WithHint(`e.g. --rate-limit gpt-5=500 --rate-limit "*=60"`)
	}
	return name, rpm, nil
}

// limiter holds a model's requests to its rate (Config.RateLimits): one
// token bucket per model, of burst 1, shared by every trial of the run.
type limiter struct {
	next     model.Provider
	fallback string // the model of a request that names none
	mu       sync.Mutex
	rpm      map[string]float64
	buckets  map[string]*rate.Limiter
}

// limited wraps p with the rate limits (p itself when there are none).
func limited(p model.Provider, rpm map[string]float64, defaultModel string) model.Provider {
	if len(rpm) == 0 {
		return p
	}
	return &limiter{next: p, fallback: defaultModel, rpm: rpm, buckets: map[string]*rate.Limiter{}}
}

func (l *limiter) bucket(name string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := name
	rpm, ok := l.rpm[name]
	if !ok {
		key, rpm, ok = RateLimitAny, l.rpm[RateLimitAny], l.rpm[RateLimitAny] > 0
	}
	if !ok {
		return nil
	}
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(rate.Limit(rpm/60), 1)
		l.buckets[key] = b
	}
	return b
}

// Complete waits for the request's model's turn, then sends it.
func (l *limiter) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	if b := l.bucket(cmp.Or(req.Model, l.fallback)); b != nil {
		if err := b.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, fault.FromContext(fault.PhaseProvider, ctx.Err())
			}
			return nil, fault.Wrap(err, fault.PhaseProvider, fault.KindCancelled, "the rate limit's wait outlasts the deadline")
		}
	}
	return l.next.Complete(ctx, req)
}

// trialIDKey carries a trial's key (trialKey) in its context.
type trialIDKey struct{}

// trialProviderKey carries a trial's provider in its context.
type trialProviderKey struct{}

// withTrialProvider is ctx carrying p: the judge of the trial calls it.
func withTrialProvider(ctx context.Context, p model.Provider) context.Context {
	return context.WithValue(ctx, trialProviderKey{}, p)
}

func trialProvider(ctx context.Context) model.Provider {
	p, _ := ctx.Value(trialProviderKey{}).(model.Provider)
	return p
}
