package launcher

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
)

// chatFlags are rlm chat's flags.
type chatFlags struct {
	pf        providerFlags
	bf        budgetFlags
	vf        verboseFlags
	wf        rootWindowFlags
	af        answerFlags
	ctxFile   string
	saveFile  string
	resume    string
	traceFile string
	asJSON    bool
}

func (l *launcher) newChatCmd() *cobra.Command {
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

-v, --stream, --trace-content, --max-repairs, --context-window,
--compact-at, --no-compaction and --answer-schema mean what they mean on
rlm run (the session's root conversation is compacted as a run's is, and
each query's answer must match the schema); --trace writes every query of the session (one run each) to one file.
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
	f.pf.register(l, cmd)
	f.bf.register(cmd)
	f.vf.register(cmd)
	f.wf.register(cmd)
	f.af.register(cmd, false)
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
	if err := checkOutputs([2]string{"record", f.pf.record}, [2]string{"save", f.saveFile}, [2]string{"trace", f.traceFile}); err != nil {
		return err
	}
	sp := rlm.Spec{Context: []string{f.ctxFile}, Trace: f.traceFile, Mode: engine.ModeCode}
	f.pf.spec(&sp)
	f.bf.spec(&sp)
	f.vf.spec(&sp)
	f.wf.spec(&sp)
	f.af.spec(&sp)
	// No progress line: the answers are printed between the queries.
	st := console.NewStatus(cmd.ErrOrStderr(), false)
	sess, err := f.pf.l.open(ctx, sp, append(statusOptions(st), f.vf.options(cmd.ErrOrStderr(), false)...)...)
	if err != nil {
		return err
	}
	defer sess.Close()
	chat, err := sess.Chat(ctx, saved)
	if err != nil {
		return err
	}
	failed, interrupted, eof, scanErr := f.loop(cmd, chat)
	// The outputs: the recording, the trace, then the session, each
	// written even when another could not be.
	outErr := errors.Join(sess.Close(), chat.Close())
	if eof && scanErr != nil {
		return errors.Join(outErr, fault.Wrap(scanErr, fault.PhaseConfig, fault.KindInvalid, "cannot read queries from stdin"))
	}
	if err := f.save(chat); err != nil {
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

// loop asks each line of stdin and prints its answer, until stdin ends
// (eof, with the read error if any) or the command is interrupted.
func (f *chatFlags) loop(cmd *cobra.Command, chat *rlm.Chat) (failed int, interrupted, eof bool, scanErr error) {
	ctx := cmd.Context()
	// Queries are read by a goroutine, so that a signal ends a session
	// waiting for its next query (a read of stdin does not return on one;
	// the reader is left blocked as the process ends).
	lines, readErr := make(chan string), new(error)
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
		*readErr = sc.Err() // read after lines is closed
	}()
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
		res, err := chat.Ask(ctx, q)
		if err != nil {
			failed++
		}
		if werr := f.print(cmd, res, err); werr != nil {
			return failed, interrupted, eof, werr
		}
		if err != nil && ctx.Err() != nil {
			break
		}
	}
	if eof {
		scanErr = *readErr // lines is closed: the reader is done
	}
	return failed, interrupted, eof, scanErr
}

// print prints one query's outcome: with --json its document on one line,
// else the answer on stdout or the error on stderr.
func (f *chatFlags) print(cmd *cobra.Command, res *rlm.Result, err error) error {
	switch {
	case f.asJSON:
		return writeJSONLine(cmd.OutOrStdout(), runEnvelope(&rlm.Result{Result: res.Result}))
	case err != nil:
		// Printed as every error is (errorText): phase/kind, each text
		// once, the hint.
		fmt.Fprintln(cmd.ErrOrStderr(), termsafe.Text(console.ErrorText(asFault(err))))
	default:
		fmt.Fprintln(cmd.OutOrStdout(), answerOut(cmd, cmd.OutOrStdout(), answerText(res.Answer)))
	}
	return nil
}

// save writes the session to --save (nothing without it).
func (f *chatFlags) save(s *rlm.Chat) error {
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
