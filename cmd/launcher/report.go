package launcher

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/workspace"
)

// Error kinds of the CLI's own checks, declared where the library
// produces them too.
const (
	kindUsage            = rlm.KindInvalidUsage
	kindUnwritableOutput = rlm.KindUnwritableOutput
	kindUnpricedModel    = rlm.KindUnpricedModel
)

// jsonErrorKind returns the error kind of a {"status","error"} document, or
// "" (for tests and scripts).
func jsonErrorKind(doc []byte) string {
	var out struct {
		Status string `json:"status"`
		Error  struct {
			Phase fault.Phase `json:"phase"`
			Kind  fault.Kind  `json:"kind"`
		} `json:"error"`
	}
	if json.Unmarshal(doc, &out) != nil || out.Status == "" || out.Error.Phase == "" {
		return ""
	}
	return string(out.Error.Kind)
}

// reportError prints err once: with asJSON as {"status","error"} on stdout,
// otherwise as text on stderr (see errorText), neutralized for a terminal
// (termsafe.Text: a server's message or a model's text quoted in the
// error cannot send control sequences). Every command's errors go through
// it.
func reportError(stdout, stderr io.Writer, err error, asJSON bool) {
	if asJSON {
		if werr := writeJSON(stdout, failureJSON(err)); werr == nil {
			return
		}
	}
	fmt.Fprintln(stderr, termsafe.Text(console.ErrorText(asFault(err))))
}

// failureJSON is the --json document of a command's failure that has no
// result of its own: the envelope {"status","error"}, status failed (or
// cancelled, approval_required: rlm.StatusOf) and the error with its hint.
func failureJSON(err error) envelope {
	return newEnvelope(asFault(err), nil, "")
}

// asFault returns err's *fault.Error with its hint filled in from the CLI's
// table when the producer set none. Other errors (cobra's usage errors)
// become Phase config, Kind invalid_usage.
func asFault(err error) *fault.Error {
	fe := fault.As(err)
	if fe == nil {
		fe = fault.Wrap(err, fault.PhaseConfig, kindUsage, err.Error()).WithHint("see rlm --help, or rlm COMMAND --help")
	}
	c := *fe // never mutate an error owned by the library
	if c.Hint = fault.HintOf(fe); c.Hint == "" {
		for e := fe; e != nil; e = fault.As(e.Cause) {
			if h := tableHint(e); h != "" {
				c.Hint = h
				break
			}
		}
	}
	return &c
}

// withHint is asFault for an error that is part of a result document; nil
// stays nil.
func withHint(fe *fault.Error) *fault.Error {
	if fe == nil {
		return nil
	}
	return asFault(fe)
}

// hintKey selects a hint; an empty phase matches every phase.
type hintKey struct {
	phase fault.Phase
	kind  fault.Kind
}

// hints are the remedies the CLI knows for errors whose producers cannot
// name the CLI's flags; the map is built when an error is reported.
var hints = sync.OnceValue(func() map[hintKey]string {
	return map[hintKey]string{
		{fault.PhaseValidate, engine.KindDeepRecursionRequired}: "lower --max-depth to 3 or less (the supported maximum: budgets are tree-wide, every level shares them)",
		{"", effect.KindJournalLocked}:                          "another rlm process holds the effect journal: wait for it to finish, or give this run its own --state-dir",
		{fault.PhaseReplay, fault.KindIO}:                       "check the cassette path (--replay, --record, --cassette) and its directory",
		{fault.PhaseReplay, replay.KindMalformedCassette}:       "the cassette is not valid: record it again with --record",
		{fault.PhaseTrace, fault.KindIO}:                        "check the trace file's path and that its directory exists",
		{fault.PhaseContext, fault.KindIO}:                      "check the --context path (use - to read standard input)",
		{fault.PhaseConfig, fault.KindIO}:                       "check the file path",
		{fault.PhaseContext, corpus.KindInvalidPattern}:         "give a non-empty pattern on one line; with --regex, RE2 syntax (no lookaround or backreferences)",
		{fault.PhaseContext, corpus.KindInvalidLimit}:           "limits must be 0 (the default) or positive, at most --max-results 100000, --max-bytes 16777216 and --time-limit 5m",
		{fault.PhaseContext, corpus.KindOutOfRange}:             "offsets and lengths are bytes within the input: see its size with `rlm context metadata FILE`",
		{fault.PhaseContext, corpus.KindInvalidAction}:          "check the action's arguments (see `rlm context --help`)",
		{fault.PhaseContext, corpus.KindOutputTooLarge}:         "ask for less, or raise --max-bytes (at most 16777216)",
		{fault.PhaseConfig, kindUnwritableOutput}:               "create the directory, or choose another path",
		{fault.PhaseConfig, kindUnpricedModel}:                  "choose a model in the price table (see docs/budget.md), or drop --strict-cost to run with an unknown cost",
		{fault.PhaseBudget, budget.KindMaxIterations}:           "raise --max-iterations",
		{fault.PhaseBudget, budget.KindMaxDepth}:                "raise --max-depth (at most 3)",
		{fault.PhaseBudget, budget.KindMaxModelCalls}:           "raise --max-model-calls",
		{fault.PhaseBudget, budget.KindMaxToolCalls}:            "raise --max-tool-calls",
		{fault.PhaseBudget, budget.KindMaxContextOps}:           "raise --max-context-ops",
		{fault.PhaseBudget, budget.KindMaxTotalTokens}:          "raise --max-total-tokens",
		{fault.PhaseBudget, budget.KindMaxCost}:                 "raise --max-cost",
		{fault.PhaseBudget, budget.KindMaxOutputBytes}:          "raise --max-output-bytes",
		{fault.PhaseBudget, budget.KindTimeLimit}:               "raise --time-limit",
		{"", budget.KindInvalidLimits}:                          "check the --max-* and --time-limit values (see --help)",
		{"", capability.KindDenied}:                             "grant the capability with --allow, e.g. --allow tool:fs_read",
		{"", authority.KindApprovalRequired}:                    rlm.ApprovalHint(""),
		{"", workspace.KindConfinementDenied}:                   "tools only reach files inside --workspace",
		{"", direct.KindUnavailableToolSchema}:                  "grant the tool by exact name with --allow tool:NAME, or pass --mode all_tools",
	}
})

func tableHint(e *fault.Error) string {
	if h, ok := hints()[hintKey{e.Phase, e.Kind}]; ok {
		return h
	}
	return hints()[hintKey{"", e.Kind}]
}

// addJSONErrorsFlag gives a command without a --json result form a --json
// flag that makes its errors JSON ({"status","error"} on stdout), like every
// other command's --json.
func addJSONErrorsFlag(cmd *cobra.Command, persistent bool) {
	fl := cmd.Flags()
	if persistent {
		fl = cmd.PersistentFlags()
	}
	fl.Bool("json", false, `print errors as JSON, {"status":"failed","error":{...}} on stdout, instead of text on stderr`)
}

// jsonFlag reports whether cmd has a --json flag that is set.
func jsonFlag(cmd *cobra.Command, args []string) bool {
	if cmd == nil {
		return false
	}
	f := cmd.Flags().Lookup("json")
	if f == nil {
		return false
	}
	if f.Value.String() == "true" {
		return true
	}
	// Flag parsing stops at the first flag it rejects, so a --json after
	// it was never parsed: read the arguments as typed (up to "--").
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json" {
			return true
		}
		if v, ok := strings.CutPrefix(a, "--json="); ok {
			b, err := strconv.ParseBool(v)
			return err == nil && b
		}
	}
	return false
}
