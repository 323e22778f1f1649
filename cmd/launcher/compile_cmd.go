package launcher

import (
	"encoding/json"
	"os"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
)

// Error kinds of the prompt-compiler commands' own argument handling.
const (
	kindPromptFlags fault.Kind = "invalid_flags" // conflicting or missing flags
)

// promptFlags are the flags shared by compile and explain.
type promptFlags struct {
	catalog, text, input, options string
}

func (f *promptFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.catalog, "catalog", "", `catalog file: {"units": [...], "tools": [...], "import": {...}}`)
	cmd.Flags().StringVar(&f.text, "text", "", "input text (the user message)")
	cmd.Flags().StringVar(&f.input, "input", "", `input file: {"text", "signals", "needs", "selected", "denied"}`)
	cmd.Flags().StringVar(&f.options, "options", "", `options file: {"capabilities", "discovery_scope", "parent_discovery_scope", "candidate_limit", "mode", "pack", "policy"}`)
}

func readPromptFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read file").With("path", path)
	}
	return b, nil
}

// load builds the catalog, input and options named by the flags.
func (f *promptFlags) load(needInput bool) (*prompt.Catalog, prompt.Input, prompt.Options, error) {
	var in prompt.Input
	var opts prompt.Options
	if f.catalog == "" {
		return nil, in, opts, fault.New(fault.PhaseConfig, kindPromptFlags, "--catalog is required")
	}
	if f.text != "" && f.input != "" {
		return nil, in, opts, fault.New(fault.PhaseConfig, kindPromptFlags, "--text and --input are mutually exclusive")
	}
	cat, err := loadCatalog(f.catalog)
	if err != nil {
		return nil, in, opts, err
	}
	if f.options != "" {
		b, err := readPromptFile(f.options)
		if err != nil {
			return nil, in, opts, err
		}
		if opts, err = prompt.DecodeOptions(b); err != nil {
			return nil, in, opts, err
		}
	}
	if needInput {
		in = prompt.Input{Text: f.text}
		if f.input != "" {
			b, err := readPromptFile(f.input)
			if err != nil {
				return nil, in, opts, err
			}
			if in, err = prompt.DecodeInput(b); err != nil {
				return nil, in, opts, err
			}
		}
	}
	return cat, in, opts, nil
}

func loadCatalog(path string) (*prompt.Catalog, error) {
	b, err := readPromptFile(path)
	if err != nil {
		return nil, err
	}
	file, err := prompt.DecodeCatalogFile(b)
	if err != nil {
		return nil, err
	}
	return file.Build()
}

func (l *launcher) newCompileCmd() *cobra.Command {
	var f promptFlags
	var queries string
	cmd := &cobra.Command{
		Use:   "compile --catalog FILE [--text TEXT | --input FILE] [--options FILE] [--queries FILE]",
		Short: "Compile the model-visible projection of a prompt catalog",
		Long: "compile selects, resolves and packs the units of a catalog for one input and prints the compiled " +
			"projection as JSON: selected and rejected units with reasons, dependencies, active units, tool schemas, " +
			"rendered text, token ledger and fingerprints. With --queries FILE (a JSON array of inputs) it prints one " +
			"compact JSON result per line (a failed input as {\"error\": {...}}) and a timing summary on stderr. " +
			"An error is printed as by every command: text on stderr, or with --json " +
			`{"status": "failed", "error": {"phase", "kind", ...}} on stdout; the exit status is 1.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if queries != "" && (f.text != "" || f.input != "") {
				return fault.New(fault.PhaseConfig, kindPromptFlags, "--queries excludes --text and --input")
			}
			cat, in, opts, err := f.load(queries == "")
			if err != nil {
				return err
			}
			if queries == "" {
				res, err := cat.Compile(cmd.Context(), in, opts)
				if err != nil {
					return err
				}
				return writeJSON(out, res)
			}
			return compileQueries(cmd, cat, opts, queries)
		},
	}
	f.register(cmd)
	addJSONErrorsFlag(cmd, false)
	cmd.Flags().StringVar(&queries, "queries", "", "file with a JSON array of inputs; one result per line")
	return cmd
}

// compileQueries compiles every input of a JSON array, one JSON line each,
// and reports timing on stderr. It exits 1 if any input failed.
func compileQueries(cmd *cobra.Command, cat *prompt.Catalog, opts prompt.Options, path string) error {
	out := cmd.OutOrStdout()
	b, err := readPromptFile(path)
	if err != nil {
		return err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return fault.Wrap(err, prompt.PhaseInput, prompt.KindInvalidInput, "--queries must be a JSON array of inputs")
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	durs := make([]time.Duration, 0, len(raws))
	failed := 0
	for _, raw := range raws {
		var line any
		in, err := prompt.DecodeInput(raw)
		if err == nil {
			t0 := time.Now()
			var res *prompt.Compiled
			res, err = cat.Compile(cmd.Context(), in, opts)
			durs = append(durs, time.Since(t0))
			line = res
		}
		if err != nil {
			fe := fault.As(err)
			if fe == nil {
				return err
			}
			failed++
			line = map[string]any{"error": fe}
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	slices.Sort(durs)
	summary := map[string]any{"queries": len(raws), "errors": failed}
	if n := len(durs); n > 0 {
		var total time.Duration
		for _, d := range durs {
			total += d
		}
		summary["total_us"] = total.Microseconds()
		summary["mean_us"] = (total / time.Duration(n)).Microseconds()
		summary["median_us"] = durs[n/2].Microseconds()
		summary["p95_us"] = durs[min(n-1, n*95/100)].Microseconds()
		summary["max_us"] = durs[n-1].Microseconds()
	}
	errEnc := json.NewEncoder(cmd.ErrOrStderr())
	if err := errEnc.Encode(map[string]any{"timing": summary}); err != nil {
		return err
	}
	if failed > 0 {
		return exitError{code: 1}
	}
	return nil
}

func (l *launcher) newExplainCmd() *cobra.Command {
	var f promptFlags
	var unit, skills string
	var childSkills, childAllow []string
	cmd := &cobra.Command{
		Use:   "explain (--catalog FILE [--input FILE] [--options FILE] | --skills FILE [--child-skill S]... [--child-allow CAPS]) [--text TEXT] --unit ID",
		Short: "Explain why one unit is or is not visible in a compiled projection",
		Long: "explain compiles like compile and prints the state of one unit (active, selected_not_visible, rejected " +
			"or hidden) with its activation, score and actual reasons. With --skills it compiles a skill catalog exactly as " +
			"for a delegated child: --text is the child's query, --child-skill the delegated skills, --child-allow the child's capabilities.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if unit == "" {
				return fault.New(fault.PhaseConfig, kindPromptFlags, "--unit is required")
			}
			id, err := prompt.ParseUnitID(unit)
			if err != nil {
				return err
			}
			var res *prompt.Compiled
			if skills != "" {
				res, err = compileChildSkills(cmd, &f, skills, childSkills, childAllow)
			} else {
				cat, in, opts, lerr := f.load(true)
				if lerr != nil {
					return lerr
				}
				res, err = cat.Compile(cmd.Context(), in, opts)
			}
			if err != nil {
				return err
			}
			ex, err := res.Explain(id)
			if err != nil {
				return err
			}
			return writeJSON(out, ex)
		},
	}
	f.register(cmd)
	addJSONErrorsFlag(cmd, false)
	cmd.Flags().StringVar(&unit, "unit", "", "unit id, e.g. tool:git_diff")
	cmd.Flags().StringVar(&skills, "skills", "", "skill catalog (as rlm command --skills): explain a delegated child's skill compile")
	cmd.Flags().StringArrayVar(&childSkills, "child-skill", nil, "with --skills: a delegated skill; repeatable")
	cmd.Flags().StringSliceVar(&childAllow, "child-allow", nil, "with --skills: the child's capabilities")
	return cmd
}

// compileChildSkills compiles a skill catalog as subagent does for a
// delegated child (subagent.CompileSkills): the same input and options.
func compileChildSkills(cmd *cobra.Command, f *promptFlags, path string, skills, allow []string) (*prompt.Compiled, error) {
	if f.catalog != "" || f.input != "" || f.options != "" {
		return nil, fault.New(fault.PhaseConfig, kindPromptFlags, "--skills excludes --catalog, --input and --options")
	}
	b, err := readPromptFile(path)
	if err != nil {
		return nil, err
	}
	cat, err := prompt.DecodeSkillCatalog(b)
	if err != nil {
		return nil, err
	}
	caps, err := capability.NewSet(splitCaps(allow)...)
	if err != nil {
		return nil, err
	}
	if err := subagent.CheckSkills(cat, skills); err != nil {
		return nil, err
	}
	return subagent.CompileSkills(cmd.Context(), cat, f.text, skills, caps)
}

func (l *launcher) newSearchCmd() *cobra.Command {
	var catalog, query, options string
	var limit int
	cmd := &cobra.Command{
		Use:   "search --catalog FILE --query TEXT [--limit N] [--options FILE]",
		Short: "Search a prompt catalog's sanitized metadata",
		Long: "search returns at most --limit (default 8, max 32) units matching the query, with sanitized " +
			"metadata only. The discovery scopes of --options apply; capabilities do not (search neither " +
			"activates nor authorizes).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if catalog == "" {
				return fault.New(fault.PhaseConfig, kindPromptFlags, "--catalog is required")
			}
			cat, err := loadCatalog(catalog)
			if err != nil {
				return err
			}
			so := prompt.SearchOptions{Limit: limit}
			if options != "" {
				b, err := readPromptFile(options)
				if err != nil {
					return err
				}
				o, err := prompt.DecodeOptions(b)
				if err != nil {
					return err
				}
				so.DiscoveryScope, so.ParentDiscoveryScope = o.DiscoveryScope, o.ParentDiscoveryScope
			}
			res, err := cat.Search(cmd.Context(), query, so)
			if err != nil {
				return err
			}
			return writeJSON(out, res)
		},
	}
	cmd.Flags().StringVar(&catalog, "catalog", "", "catalog file")
	cmd.Flags().StringVar(&query, "query", "", "search text (1-512 characters)")
	cmd.Flags().IntVar(&limit, "limit", 0, "maximum results (default 8, max 32)")
	cmd.Flags().StringVar(&options, "options", "", "options file (only the discovery scopes are used)")
	addJSONErrorsFlag(cmd, false)
	return cmd
}
