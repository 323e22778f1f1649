package launcher

import (
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
)

// scheduleFlags are the flags of rlm bench run and replay that run trials
// concurrently, rate limit them and show the progress.
type scheduleFlags struct {
	trials     int
	rateLimits []string
	progress   bool
	// live: the progress line is redrawn on a terminal (else one line a
	// trial); drawn: it is on screen.
	mu    sync.Mutex
	live  bool
	drawn bool
}

func (f *scheduleFlags) register(fl *pflag.FlagSet, rateLimits bool) {
	fl.IntVar(&f.trials, "max-concurrent-trials", 1, "run up to N trials at once (the report keeps its order); --max-concurrency bounds each trial's sub-calls")
	if rateLimits {
		fl.StringArrayVar(&f.rateLimits, "rate-limit", nil, `send at most RPM requests per minute to MODEL, over all trials: MODEL=RPM ("*=RPM": every other model); repeat for several models`)
	}
	fl.BoolVar(&f.progress, "progress", false, "show the progress (trials done/total, spend, ETA) on stderr even when it is not a terminal (one line per trial)")
}

// schedule maps the flags onto a bench.Config's fields. The progress goes
// to stderr when it is a terminal (redrawn on one line) or with
// --progress; never to stdout.
func (f *scheduleFlags) schedule(cmd *cobra.Command, trials *int, rpm *map[string]float64, progress *func(bench.Progress)) error {
	*trials = f.trials
	if f.trials < 1 {
		return fault.New(fault.PhaseConfig, kindUsage, "--max-concurrent-trials must be at least 1").With("max_concurrent_trials", f.trials)
	}
	for _, s := range f.rateLimits {
		m, v, err := bench.ParseRateLimit(s)
		if err != nil {
			return err
		}
		if *rpm == nil {
			*rpm = map[string]float64{}
		}
		(*rpm)[m] = v
	}
	stderr := cmd.ErrOrStderr()
	f.live = console.IsTerminal(stderr)
	if !f.live && !f.progress {
		return nil
	}
	*progress = func(p bench.Progress) { f.show(stderr, p) }
	return nil
}

func (f *scheduleFlags) show(w io.Writer, p bench.Progress) {
	f.mu.Lock()
	defer f.mu.Unlock()
	line := termsafe.Text("rlm bench: " + p.String())
	if f.live {
		fmt.Fprint(w, "\r\033[K"+line)
		f.drawn = true
		return
	}
	fmt.Fprintln(w, line)
}

// stopProgress ends the live progress line.
func (f *scheduleFlags) stopProgress(cmd *cobra.Command) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.drawn {
		fmt.Fprintln(cmd.ErrOrStderr())
		f.drawn = false
	}
}

func (l *launcher) newBenchReplayCmd() *cobra.Command {
	var (
		f  benchRunFlags
		ro bench.ReplayOptions
	)
	cmd := &cobra.Command{
		Use:   "replay DIR",
		Short: "Run a recorded benchmark again offline and check its scores and costs",
		Long: `Run every trial recorded by rlm bench run --record DIR again, each against its
own cassette through an in-process replay server (no key, no network), score
it again from the benchmark's files (which must be the ones recorded: their
SHA-256 is in DIR/manifest.json; --data and --corpus read them from another
path), and print the report, labelled replayed. Exits 1 when a trial's status,
score or cost differs from the recorded run's (bench_replay_differs), or when a
file is missing (bench_record_missing) or altered (bench_record_altered).
See docs/bench.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var rl map[string]float64
			if err := f.schedule(cmd, &ro.MaxConcurrency, &rl, &ro.Progress); err != nil {
				return err
			}
			rep, err := bench.Replay(cmd.Context(), args[0], ro)
			f.stopProgress(cmd)
			if err == nil && rep != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "rlm bench replay: %d trial(s) replayed offline: status, scores and costs as recorded\n", len(rep.Trials))
			}
			return f.print(cmd, rep, err, nil)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fl.StringVar(&ro.Data, "data", "", "read the benchmark's file here instead of the path recorded (same SHA-256)")
	fl.StringVar(&ro.Corpus, "corpus", "", "read BrowseComp-Plus's corpus here instead of the path recorded (same SHA-256)")
	f.scheduleFlags.register(fl, false)
	return cmd
}
