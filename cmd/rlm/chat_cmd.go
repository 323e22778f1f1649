package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

func newChatCmd() *cobra.Command {
	var (
		pf       providerFlags
		bf       budgetFlags
		ctxFile  string
		saveFile string
		resume   string
	)
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
goes on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			var saved []byte
			if resume != "" {
				b, err := os.ReadFile(resume)
				if err != nil {
					return fault.Wrap(err, fault.PhaseConfig, engine.KindInvalidSession, "cannot read the saved session").With("path", resume)
				}
				saved = b
			}
			if ctxFile == "-" {
				return fault.New(fault.PhaseConfig, fault.KindInvalid, "chat reads queries from stdin; give the context as a file").WithHint("use --context FILE")
			}
			// Configuration first (outputs, key, base URL), then the input.
			st := newStatus(cmd.ErrOrStderr(), false)
			sess, err := pf.open(st, [2]string{"save", saveFile})
			if err != nil {
				return err
			}
			store := corpus.NewStore()
			defer store.Close()
			h, err := store.AddFile(ctx, ctxFile)
			if err != nil {
				sess.close()
				return err
			}
			eng, err := engine.New(engine.Config{
				Provider: sess.provider, Model: pf.model, SubModel: pf.subModel, Store: store,
				Limits: bf.lim, ExperimentalDeepRecursion: bf.deep, Mode: engine.ModeCode,
			})
			if err != nil {
				sess.close()
				return err
			}
			var s *engine.Session
			if saved != nil {
				s, err = eng.ResumeSession(saved, h)
			} else {
				s, err = eng.NewSession(h)
			}
			if err != nil {
				sess.close()
				return err
			}
			failed := 0
			// Queries are read by a goroutine, so that a signal ends a
			// session waiting for its next query (a read of stdin does not
			// return on one; the reader is left blocked as the process ends).
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
				if err != nil {
					failed++
					// Printed as every error is (errorText): phase/kind,
					// each text once, the hint.
					fmt.Fprintln(cmd.ErrOrStderr(), errorText(asFault(err)))
					if ctx.Err() != nil {
						break
					}
					continue
				}
				fmt.Fprintln(cmd.OutOrStdout(), answerText(res.Answer))
			}
			if err := sess.finish(pf.record); err != nil {
				return err
			}
			if eof && *scanErr != nil { // lines is closed: the reader is done
				return fault.Wrap(*scanErr, fault.PhaseConfig, fault.KindInvalid, "cannot read queries from stdin")
			}
			if saveFile != "" {
				data, err := s.Save()
				if err != nil {
					return err
				}
				if err := os.WriteFile(saveFile, append(data, '\n'), 0o644); err != nil {
					return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot write the session").With("path", saveFile)
				}
			}
			if interrupted {
				return fault.FromContext(fault.PhaseExecute, ctx.Err())
			}
			if failed > 0 {
				return exitError{code: 1}
			}
			return nil
		},
	}
	pf.register(cmd)
	bf.register(cmd)
	cmd.Flags().StringVar(&ctxFile, "context", "", "context file; required")
	cmd.Flags().StringVar(&saveFile, "save", "", "write the session (history and plain-data variables) to FILE as JSON at the end")
	cmd.Flags().StringVar(&resume, "resume", "", "resume the session saved in FILE")
	_ = cmd.MarkFlagRequired("context")
	return cmd
}
