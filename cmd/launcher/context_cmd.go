package launcher

import (
	"encoding/json"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// contextRunner registers the input at path (a file, a directory, or -
// for stdin) and runs a on it, printing the result as JSON.
type contextRunner func(cmd *cobra.Command, path string, a corpus.Action) error

// newContextCmd returns "rlm context", which runs one context-store
// operation on a file and prints its result as JSON.
func (l *launcher) newContextCmd() *cobra.Command {
	var lim corpus.Limits
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Inspect a file with the bounded context-store operations",
		Long: "context registers FILE in a context store (memory-mapped, not copied) and runs one bounded " +
			"operation on it, printing the result as JSON: {\"value\",\"truncated\",\"accounting\"}. " +
			"FILE - reads stdin (spooled to a temporary file in $TMPDIR); a directory stands for the text " +
			"files below it, as one context listing them (docs/corpus.md).",
	}
	pf := cmd.PersistentFlags()
	pf.IntVar(&lim.MaxResults, "max-results", 0, "maximum list items (0: default 100, cap 100000)")
	pf.IntVar(&lim.MaxBytes, "max-bytes", 0, "maximum text bytes returned (0: default 65536, cap 16 MiB)")
	pf.DurationVar(&lim.TimeLimit, "time-limit", 0, "time limit (0: default 10s, cap 5m)")
	addJSONErrorsFlag(cmd, true)
	// A list search streams its matches (corpus.Store.WriteSearch).
	run := func(cmd *cobra.Command, path string, a corpus.Action) error {
		ctx := cmd.Context()
		s := corpus.NewStore()
		defer s.Close()
		h, err := addContext(ctx, s, path, cmd.InOrStdin())
		if err != nil {
			return inputHint(err)
		}
		if a.Type == corpus.ActionSearch && !a.CountOnly {
			return s.WriteSearch(ctx, cmd.OutOrStdout(), h, a.Pattern, a.Regex, lim)
		}
		r, err := s.Do(ctx, h, a, lim)
		if err != nil {
			return err
		}
		return writeJSON(cmd.OutOrStdout(), r)
	}
	cmd.AddCommand(contextActionCmd("metadata FILE|DIR|-", "Print the size, line count and kind of FILE", 1, run,
		func(_ *cobra.Command, _ []string) (corpus.Action, error) {
			return corpus.Action{Type: corpus.ActionPeek, Selector: corpus.PeekMetadata}, nil
		}))
	cmd.AddCommand(l.newContextPeekCmd(run), l.newContextSliceCmd(run), l.newContextSearchCmd(run), l.newContextPartitionCmd(run))
	cmd.AddCommand(contextActionCmd("do FILE ACTION_JSON", `Run a plan-language action on FILE, e.g. '{"type":"reduce","reducer":"count"}'`, 2, run,
		func(_ *cobra.Command, args []string) (a corpus.Action, err error) {
			if err := json.Unmarshal([]byte(args[1]), &a); err != nil {
				return a, fault.Wrap(err, fault.PhaseConfig, fault.KindMalformed, "cannot decode action")
			}
			return a, nil
		}))
	return cmd
}

// contextActionCmd is a subcommand of rlm context taking n arguments (the
// first the input) whose action is built by action.
func contextActionCmd(use, short string, n int, run contextRunner, action func(*cobra.Command, []string) (corpus.Action, error)) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(n),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := action(cmd, args)
			if err != nil {
				return err
			}
			return run(cmd, args[0], a)
		},
	}
}

func (l *launcher) newContextPeekCmd(run contextRunner) *cobra.Command {
	var head, tail int64
	peek := contextActionCmd("peek FILE --head N | --tail N", "Print the first or last N bytes of FILE", 1, run,
		func(cmd *cobra.Command, _ []string) (corpus.Action, error) {
			if cmd.Flags().Changed("tail") {
				return corpus.Action{Type: corpus.ActionPeek, Selector: corpus.PeekTail, Count: tail}, nil
			}
			return corpus.Action{Type: corpus.ActionPeek, Selector: corpus.PeekHead, Count: head}, nil
		})
	peek.Flags().Int64Var(&head, "head", 0, "print the first N bytes")
	peek.Flags().Int64Var(&tail, "tail", 0, "print the last N bytes")
	peek.MarkFlagsOneRequired("head", "tail")
	peek.MarkFlagsMutuallyExclusive("head", "tail")
	return peek
}

func (l *launcher) newContextSliceCmd(run contextRunner) *cobra.Command {
	return contextActionCmd("slice FILE START LENGTH", "Print LENGTH bytes of FILE from byte offset START (0: through the end)", 3, run,
		func(_ *cobra.Command, args []string) (corpus.Action, error) {
			start, err := intArg("START", args[1])
			if err != nil {
				return corpus.Action{}, err
			}
			length, err := intArg("LENGTH", args[2])
			return corpus.Action{Type: corpus.ActionSlice, Start: start, Length: length}, err
		})
}

func (l *launcher) newContextSearchCmd(run contextRunner) *cobra.Command {
	var regex, count bool
	search := contextActionCmd("search FILE PATTERN", "Print the lines of FILE containing PATTERN (literal, or RE2 with --regex)", 2, run,
		func(_ *cobra.Command, args []string) (corpus.Action, error) {
			return corpus.Action{Type: corpus.ActionSearch, Pattern: args[1], Regex: regex, CountOnly: count}, nil
		})
	search.Flags().BoolVar(&regex, "regex", false, "PATTERN is an RE2 regular expression (multi-line mode)")
	search.Flags().BoolVar(&count, "count", false, "print only the number of matching lines")
	return search
}

func (l *launcher) newContextPartitionCmd(run contextRunner) *cobra.Command {
	var bySize, byLines, byPages int64
	var withText bool
	part := contextActionCmd("partition FILE --bytes N | --lines N | --pages N", "Print the chunks FILE splits into", 1, run,
		func(cmd *cobra.Command, _ []string) (corpus.Action, error) {
			a := corpus.Action{Type: corpus.ActionPartition, Strategy: corpus.StrategyBytes, Size: bySize, WithText: withText}
			if cmd.Flags().Changed("lines") {
				a.Strategy, a.Size = corpus.StrategyLines, byLines
			}
			if cmd.Flags().Changed("pages") {
				a.Strategy, a.Size = corpus.StrategyPages, byPages
			}
			return a, nil
		})
	part.Flags().Int64Var(&bySize, "bytes", 0, "chunks of about N bytes, cut at a line end in their last tenth when there is one")
	part.Flags().Int64Var(&byLines, "lines", 0, "chunks of N lines")
	part.Flags().Int64Var(&byPages, "pages", 0, "chunks of N pages of a PDF")
	part.Flags().BoolVar(&withText, "with-text", false, "include each chunk's text (bounded by --max-bytes)")
	part.MarkFlagsOneRequired("bytes", "lines", "pages")
	part.MarkFlagsMutuallyExclusive("bytes", "lines", "pages")
	return part
}

// inputHint gives an unreadable input of rlm context, which has no
// --context flag (FILE is an argument), its own hint instead of the table's.
func inputHint(err error) error {
	fe := fault.As(err)
	if fe == nil || fe.Phase != fault.PhaseContext || fe.Kind != fault.KindIO || fault.HintOf(fe) != "" {
		return err
	}
	c := *fe // never mutate an error owned by the library
	return c.WithHint("check the FILE path (use - to read standard input)")
}

// intArg parses a decimal argument; range checks are the store's.
func intArg(name, s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "argument is not an integer").With("argument", name).With("value", s)
	}
	return n, nil
}
