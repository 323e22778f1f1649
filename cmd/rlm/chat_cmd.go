package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/trace"
)

// chatFlags are rlm chat's flags.
type chatFlags struct {
	pf        providerFlags
	bf        budgetFlags
	vf        verboseFlags
	ctxFile   string
	saveFile  string
	resume    string
	traceFile string
	asJSON    bool
}

func newChatCmd() *cobra.Command {
	var f chatFlags
	cmd := &cobra.Command{
		Use:   "chat --context FILE",
		Short: "Ask several questions about one context in a persistent code-mode session",
		Long: `Read queries from stdin, one per line, and print each answer followed by a
newline (an answer that holds newlines spans several lines).
The session runs in code mode: one interpreter keeps its variables, the
context and a history of earlier queries and answers (history) across the
queries. Each query is a run with its own budgets. --save writes the session
(history and plain-data variables) as JSON when stdin ends; --resume starts
from such a file. A failed query prints its error on stderr and the session
goes on.

-v, --stream, --trace-content and --max-repairs mean what they mean on rlm
run; --trace writes every query of the session (one run each) to one file.
With --json each query prints one line: the document rlm run --json prints,
whose "trace" holds that query's events; a failure of the command itself is
one {"status","error"} line.`,
		Args: cobra.NoArgs,
		// With --json one document per line, the command's failure too.
		Annotations: map[string]string{jsonLinesAnnotation: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.run(cmd)
		},
	}
	f.pf.register(cmd)
	f.bf.register(cmd)
	f.vf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.traceFile, "trace", "", traceUsage+"; it holds every query of the session")
	fl.BoolVar(&f.asJSON, "json", false, `print each query's result as one line of JSON, the document of rlm run --json: {"status","answer","usage","error","replayed","trace","details"}`)
	fl.StringVar(&f.ctxFile, "context", "", "context file; required")
	fl.StringVar(&f.saveFile, "save", "", "write the session (history and plain-data variables) to FILE as JSON at the end")
	fl.StringVar(&f.resume, "resume", "", "resume the session saved in FILE")
	_ = cmd.MarkFlagRequired("context")
	return cmd
}

// run runs the session: a query per line of stdin, until it ends or the
// command is interrupted.
func (f *chatFlags) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	var saved []byte
	if f.resume != "" {
		b, err := os.ReadFile(f.resume)
		if err != nil {
			return fault.Wrap(err, fault.PhaseConfig, engine.KindInvalidSession, "cannot read the saved session").With("path", f.resume)
		}
		saved = b
	}
	if f.ctxFile == "-" {
		return fault.New(fault.PhaseConfig, fault.KindInvalid, "chat reads queries from stdin; give the context as a file").WithHint("use --context FILE")
	}
	// Configuration first (outputs, key, base URL), then the input.
	st := newStatus(cmd.ErrOrStderr(), false)
	sess, err := f.pf.open(st, [2]string{"save", f.saveFile}, [2]string{"trace", f.traceFile})
	if err != nil {
		return err
	}
	defer sess.close()
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddFile(ctx, f.ctxFile)
	if err != nil {
		return err
	}
	cfg := engine.Config{
		Provider: sess.provider, Model: f.pf.model, SubModel: f.pf.subModel, Store: store,
		Limits: f.bf.lim, ExperimentalDeepRecursion: f.bf.deep, Mode: engine.ModeCode,
	}
	// No progress line: the answers are printed between the queries.
	f.vf.apply(&cfg, cmd.ErrOrStderr(), false)
	eng, err := engine.New(cfg)
	if err != nil {
		return err
	}
	var s *engine.Session
	if saved != nil {
		s, err = eng.ResumeSession(saved, h)
	} else {
		s, err = eng.NewSession(h)
	}
	if err != nil {
		return err
	}
	tout, err := openTrace(f.traceFile)
	if err != nil {
		return err
	}
	// With --trace one recorder holds the whole session, so that event ids
	// are unique in the file; a query's own events are those after the
	// events of the queries before it.
	var rec *trace.Recorder
	if f.traceFile != "" {
		rec = trace.NewRecorder(trace.WithObserver(tout.observe))
		ctx = trace.WithRecorder(ctx, rec)
	}
	var seen uint64 // the last sequence number of the queries so far
	failed := 0
	// Queries are read by a goroutine, so that a signal ends a session
	// waiting for its next query (a read of stdin does not return on one;
	// the reader is left blocked as the process ends).
	lines, scanErr := make(chan string), new(error)
	stopScan := make(chan struct{})
	defer close(stopScan)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(cmd.InOrStdin())
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-stopScan:
				return
			}
		}
		*scanErr = sc.Err() // read after lines is closed
	}()
	interrupted, eof := false, false
	for !interrupted && !eof {
		var line string
		select {
		case l, ok := <-lines:
			line, eof = l, !ok
		case <-ctx.Done():
			interrupted = true
		}
		q := strings.TrimSpace(line)
		if q == "" {
			continue
		}
		res, err := s.Ask(ctx, q)
		if rec != nil {
			res.Trajectory, seen = eventsAfter(res.Trajectory, seen)
		}
		if err != nil {
			failed++
		}
		switch {
		case f.asJSON:
			if werr := writeJSONLine(cmd.OutOrStdout(), runEnvelope(res, nil, runIdentity{})); werr != nil {
				return werr
			}
		case err != nil:
			// Printed as every error is (errorText): phase/kind, each
			// text once, the hint.
			fmt.Fprintln(cmd.ErrOrStderr(), termsafe.Text(errorText(asFault(err))))
		default:
			fmt.Fprintln(cmd.OutOrStdout(), answerOut(cmd, cmd.OutOrStdout(), answerText(res.Answer)))
		}
		if err != nil && ctx.Err() != nil {
			break
		}
	}
	// The outputs: the recording, the trace, then the session, each
	// written even when another could not be.
	outErr := sess.finish(f.pf.record)
	if err := tout.write("rlm chat", rec.Events(), rec.Dropped()); err != nil {
		outErr = errors.Join(outErr, err)
	}
	if eof && *scanErr != nil { // lines is closed: the reader is done
		return errors.Join(outErr, fault.Wrap(*scanErr, fault.PhaseConfig, fault.KindInvalid, "cannot read queries from stdin"))
	}
	if err := f.save(s); err != nil {
		outErr = errors.Join(outErr, err)
	}
	if outErr != nil {
		return outErr
	}
	if interrupted {
		return fault.FromContext(fault.PhaseExecute, ctx.Err())
	}
	if failed > 0 {
		return exitError{code: 1}
	}
	return nil
}

// save writes the session to --save (nothing without it).
func (f *chatFlags) save(s *engine.Session) error {
	if f.saveFile == "" {
		return nil
	}
	data, err := s.Save()
	if err != nil {
		return err
	}
	if err := os.WriteFile(f.saveFile, append(data, '\n'), 0o644); err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot write the session").With("path", f.saveFile)
	}
	return nil
}

// eventsAfter returns the events of a sorted trajectory whose sequence
// numbers follow seen, and the last sequence number of the trajectory.
func eventsAfter(events []trace.Event, seen uint64) ([]trace.Event, uint64) {
	i := sort.Search(len(events), func(i int) bool { return events[i].Seq > seen })
	if n := len(events); n > 0 {
		seen = max(seen, events[n-1].Seq)
	}
	return events[i:], seen
}
