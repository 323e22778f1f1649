package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// newContextCmd returns "rlm context", which runs one context-store
// operation on a file and prints its result as JSON.
func newContextCmd() *cobra.Command {
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

	// runOn registers the input at path (a file, a directory, or - for
	// stdin) and runs a on it. A list search streams its matches.
	runOn := func(cmd *cobra.Command, path string, a corpus.Action) error {
		ctx := cmd.Context()
		s := corpus.NewStore()
		defer s.Close()
		h, err := addContext(ctx, s, path, cmd.InOrStdin())
		if err != nil {
			return inputHint(err)
		}
		if a.Type == corpus.ActionSearch && !a.CountOnly {
			return streamSearch(ctx, cmd.OutOrStdout(), s, h, a, lim)
		}
		r, err := s.Do(ctx, h, a, lim)
		if err != nil {
			return err
		}
		return writeJSON(cmd.OutOrStdout(), r)
	}

	cmd.AddCommand(&cobra.Command{
		Use:   "metadata FILE|DIR|-",
		Short: "Print the size, line count and kind of FILE",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOn(cmd, args[0], corpus.Action{Type: corpus.ActionPeek, Selector: corpus.PeekMetadata})
		},
	})

	var head, tail int64
	peek := &cobra.Command{
		Use:   "peek FILE --head N | --tail N",
		Short: "Print the first or last N bytes of FILE",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a := corpus.Action{Type: corpus.ActionPeek, Selector: corpus.PeekHead, Count: head}
			if cmd.Flags().Changed("tail") {
				a.Selector, a.Count = corpus.PeekTail, tail
			}
			return runOn(cmd, args[0], a)
		},
	}
	peek.Flags().Int64Var(&head, "head", 0, "print the first N bytes")
	peek.Flags().Int64Var(&tail, "tail", 0, "print the last N bytes")
	peek.MarkFlagsOneRequired("head", "tail")
	peek.MarkFlagsMutuallyExclusive("head", "tail")
	cmd.AddCommand(peek)

	cmd.AddCommand(&cobra.Command{
		Use:   "slice FILE START LENGTH",
		Short: "Print LENGTH bytes of FILE from byte offset START (0: through the end)",
		Args:  cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			start, err := intArg("START", args[1])
			if err != nil {
				return err
			}
			length, err := intArg("LENGTH", args[2])
			if err != nil {
				return err
			}
			return runOn(cmd, args[0], corpus.Action{Type: corpus.ActionSlice, Start: start, Length: length})
		},
	})

	var regex, count bool
	search := &cobra.Command{
		Use:   "search FILE PATTERN",
		Short: "Print the lines of FILE containing PATTERN (literal, or RE2 with --regex)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOn(cmd, args[0], corpus.Action{Type: corpus.ActionSearch, Pattern: args[1], Regex: regex, CountOnly: count})
		},
	}
	search.Flags().BoolVar(&regex, "regex", false, "PATTERN is an RE2 regular expression (multi-line mode)")
	search.Flags().BoolVar(&count, "count", false, "print only the number of matching lines")
	cmd.AddCommand(search)

	var bySize, byLines int64
	var withText bool
	part := &cobra.Command{
		Use:   "partition FILE --bytes N | --lines N",
		Short: "Print the chunks FILE splits into",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a := corpus.Action{Type: corpus.ActionPartition, Strategy: corpus.StrategyBytes, Size: bySize, WithText: withText}
			if cmd.Flags().Changed("lines") {
				a.Strategy, a.Size = corpus.StrategyLines, byLines
			}
			return runOn(cmd, args[0], a)
		},
	}
	part.Flags().Int64Var(&bySize, "bytes", 0, "chunks of about N bytes, cut at a line end in their last tenth when there is one")
	part.Flags().Int64Var(&byLines, "lines", 0, "chunks of N lines")
	part.Flags().BoolVar(&withText, "with-text", false, "include each chunk's text (bounded by --max-bytes)")
	part.MarkFlagsOneRequired("bytes", "lines")
	part.MarkFlagsMutuallyExclusive("bytes", "lines")
	cmd.AddCommand(part)

	cmd.AddCommand(&cobra.Command{
		Use:   "do FILE ACTION_JSON",
		Short: `Run a plan-language action on FILE, e.g. '{"type":"reduce","reducer":"count"}'`,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var a corpus.Action
			if err := json.Unmarshal([]byte(args[1]), &a); err != nil {
				return fault.Wrap(err, fault.PhaseConfig, fault.KindMalformed, "cannot decode action")
			}
			return runOn(cmd, args[0], a)
		},
	})
	return cmd
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

// streamFlush is how long a streamed match may wait in the output buffer.
const streamFlush = 100 * time.Millisecond

// streamSearch runs a list search and prints its result as writeJSON
// would, byte for byte, but writes each match as the search finds it
// (through a 32 KiB buffer, flushed at least every streamFlush) instead of
// collecting the list: memory is one match and the buffer, whatever the
// limits. A search that fails before anything was written prints only the
// error, as before; one that fails after matches reached the output leaves
// the document unterminated, and the error follows (exit status 1).
func streamSearch(ctx context.Context, out io.Writer, s *corpus.Store, h corpus.Handle, a corpus.Action, lim corpus.Limits) error {
	cw := &countingWriter{w: out}
	w := bufio.NewWriterSize(cw, 32<<10)
	var item bytes.Buffer
	enc := json.NewEncoder(&item)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	n, last := 0, time.Now()
	r, err := s.SearchEach(ctx, h, a.Pattern, a.Regex, lim, func(m corpus.Match) error {
		item.Reset()
		if err := enc.Encode(m); err != nil {
			return err
		}
		if n == 0 {
			w.WriteString("{\n  \"value\": [")
		} else {
			w.WriteByte(',')
		}
		n++
		w.WriteString("\n    ")
		w.Write(bytes.TrimSuffix(item.Bytes(), []byte("\n")))
		if now := time.Now(); now.Sub(last) >= streamFlush {
			last = now
			return w.Flush()
		}
		return nil
	})
	if err != nil {
		if cw.n > 0 {
			w.Flush() // what was found so far is out already: the rest too
		}
		return err
	}
	if n == 0 {
		w.WriteString("{\n  \"value\": []")
	} else {
		w.WriteString("\n  ]")
	}
	w.WriteString(",\n  \"truncated\": " + strconv.FormatBool(r.Truncated) + ",\n  \"accounting\": ")
	item.Reset()
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(r.Accounting); err != nil {
		return err
	}
	w.Write(bytes.TrimSuffix(item.Bytes(), []byte("\n")))
	w.WriteString("\n}\n")
	return w.Flush()
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}

// intArg parses a decimal argument; range checks are the store's.
func intArg(name, s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "argument is not an integer").With("argument", name).With("value", s)
	}
	return n, nil
}
