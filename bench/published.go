package bench

import (
	"strings"

	"github.com/rlm-go/rlm/bench/suite"
)

// Published is one figure of the RLM paper's main results table: a
// method's score on a benchmark setting with one model, and its cost per
// task when the paper gives it.
type Published struct {
	// Suite is the benchmark's suite name (suite.Names); Setting the
	// paper's setting of it (context length, subset).
	Suite   string `json:"suite"`
	Setting string `json:"setting"`
	// Method is the paper's method: one of the Paper* constants.
	Method string `json:"method"`
	// Model is the root (or only) model; SubModel the model of the
	// sub-calls (or of the summary agent's compaction) where the paper
	// names one.
	Model    string `json:"model"`
	SubModel string `json:"sub_model,omitempty"`
	// Score in Unit (always a percentage).
	Score float64 `json:"score"`
	Unit  string  `json:"unit"`
	// CostMean and CostSD are the mean and standard deviation of the API
	// cost per task in USD; nil where the paper prints N/A.
	CostMean *float64 `json:"cost_mean_usd,omitempty"`
	CostSD   *float64 `json:"cost_sd_usd,omitempty"`
	// ContextLimited is the paper's asterisk: the method (sometimes) ran
	// into the model's input context limit.
	ContextLimited bool `json:"context_limited,omitempty"`
	// Source cites the figure: paper, version, table, row and column.
	Source string `json:"source"`
}

// The paper's methods (Table 1 rows), as Published.Method spells them.
const (
	PaperBase           = "base"             // "Base Model": the whole input in one call
	PaperCodeActBM25    = "codeact-bm25"     // "CodeAct (+ BM25)"
	PaperCodeActSubcall = "codeact-subcalls" // "CodeAct (+ sub-calls)"
	PaperSummary        = "summary"          // "Summary agent"
	PaperRLM            = "rlm"              // "RLM": REPL with sub-calls
	PaperRLMNoSubcalls  = "rlm-no-subcalls"  // "RLM (no sub-calls)"
)

// PaperMethod returns the paper's method a harness method is compared
// with: direct is the base model, rlm and rlm-code are the RLM (the
// paper's RLM is a REPL with sub-calls; the plan mode answers the same
// way through a different action language), summary the summary agent,
// rlm-no-subcalls (the REPL holding the context, no sub-calls) the
// paper's "RLM (no sub-calls)", codeact (the context in the prompt, a
// REPL, BM25 on BrowseComp-Plus) its "CodeAct (+ BM25)" and
// codeact-subcalls its "CodeAct (+ sub-calls)" (docs/bench.md,
// "Baselines"). Other names are returned as they are, so a method named
// like a paper method (codeact-bm25) matches it.
func PaperMethod(m Method) string {
	switch m {
	case MethodDirect:
		return PaperBase
	case MethodRLM, MethodRLMCode:
		return PaperRLM
	case MethodSummary:
		return PaperSummary
	case MethodRLMNoSubCalls:
		return PaperRLMNoSubcalls
	case MethodCodeAct:
		return PaperCodeActBM25
	case MethodCodeActSubcalls:
		return PaperCodeActSubcall
	}
	return string(m)
}

// The paper's models.
const (
	modelGPT5  = "GPT-5"
	modelMini  = "GPT-5-mini"
	modelNano  = "GPT-5-nano"
	modelCoder = "Qwen3-Coder-480B-A35B"
	modelQwen8 = "Qwen3-8B"
)

// paperSetting is one column of the paper's Table 1: a suite, the
// setting's label, and the subset terms a trial's Subset must all hold
// (its "/"-separated parts, compared as suite subsets are) to be in it.
type paperSetting struct {
	suite, label, column string
	unit                 string
	terms                []string
}

// paperSettings are the four benchmarks of Table 1, in its column order.
var paperSettings = []paperSetting{
	{suite.LongBenchV2, "CodeQA (23K-4.2M tokens)", "CodeQA", "% correct", []string{"Code Repository Understanding"}},
	{suite.BrowseCompPlus, "1K documents (6M-11M tokens)", "BrowseComp+ (1K)", "% correct", nil},
	{suite.Oolong, "trec_coarse, 131K tokens", "OOLONG", "score %", []string{"trec_coarse", "131072"}},
	{suite.OolongPairs, "trec_coarse, 32K tokens", "OOLONG-Pairs", "F1 %", []string{"trec_coarse", "32768"}},
}

// settingOf returns the paper's setting a trial of suiteName with subset
// belongs to, or nil.
func settingOf(suiteName, subset string) *paperSetting {
	parts := map[string]bool{}
	for p := range strings.SplitSeq(subset, "/") {
		parts[suite.FoldKey(p)] = true
	}
	for i := range paperSettings {
		s := &paperSettings[i]
		if s.suite != suiteName {
			continue
		}
		ok := true
		for _, t := range s.terms {
			ok = ok && parts[suite.FoldKey(t)]
		}
		if ok {
			return s
		}
	}
	return nil
}

// paperSource is the citation of every figure of PublishedTable.
const paperSource = "Zhang, Kraska, Khattab, Recursive Language Models, arXiv 2512.24601 (version of 29 Jan 2026), Table 1"

// paperRow is one row of Table 1: a model block, a method, and its four
// cells in column order (CodeQA, BrowseComp+ (1K), OOLONG, OOLONG-Pairs).
type paperRow struct {
	model, subModel, method, row string
	cells                        [4]paperCell
}

// paperCell is a score, its cost mean and sd (cost < 0: N/A), and the
// asterisk.
type paperCell struct {
	score, cost, sd float64
	limited         bool
}

// na is a cell's cost printed N/A ± N/A.
const na = -1

// table1 holds the figures of Table 1, transcribed cell by cell.
var table1 = []paperRow{
	{modelGPT5, "", PaperBase, "Base Model", [4]paperCell{{24.0, 0.13, 0.07, true}, {0.0, na, na, true}, {44.0, 0.14, 0.02, false}, {0.1, 0.16, 0.10, false}}},
	{modelGPT5, "", PaperCodeActBM25, "CodeAct (+ BM25)", [4]paperCell{{22.0, 0.06, 0.08, true}, {51.0, 0.71, 1.20, false}, {38.0, 0.61, 1.06, false}, {24.7, 0.75, 0.43, false}}},
	{modelGPT5, "", PaperCodeActSubcall, "CodeAct (+ sub-calls)", [4]paperCell{{24.0, 0.06, 0.08, true}, {0.0, na, na, true}, {40.0, 0.85, 1.27, false}, {28.4, 1.11, 0.62, false}}},
	{modelGPT5, modelNano, PaperSummary, "Summary agent", [4]paperCell{{58.0, 1.31, 1.46, false}, {70.5, 0.57, 0.10, false}, {46.0, 0.13, 0.01, false}, {0.1, 0.13, 0.09, false}}},
	{modelGPT5, modelMini, PaperRLM, "RLM", [4]paperCell{{62.0, 0.11, 0.10, false}, {91.3, 0.99, 1.22, false}, {56.5, 0.43, 0.85, false}, {58.0, 0.33, 0.20, false}}},
	{modelGPT5, "", PaperRLMNoSubcalls, "RLM (no sub-calls)", [4]paperCell{{58.0, 0.18, 0.56, false}, {88.0, 0.44, 0.90, false}, {36.0, 0.37, 0.42, false}, {43.9, 0.69, 1.16, false}}},

	{modelCoder, "", PaperBase, "Base Model", [4]paperCell{{20.0, 0.13, 0.08, true}, {0.0, na, na, true}, {36.0, 0.06, 0.00, false}, {0.1, 0.05, 0.01, false}}},
	{modelCoder, "", PaperCodeActBM25, "CodeAct (+ BM25)", [4]paperCell{{24.0, 0.17, 0.08, true}, {12.7, 0.39, 0.50, false}, {38.0, 1.51, 1.09, false}, {0.3, 1.54, 0.35, false}}},
	{modelCoder, "", PaperCodeActSubcall, "CodeAct (+ sub-calls)", [4]paperCell{{26.0, 0.28, 0.30, true}, {0.0, na, na, true}, {32.0, 1.83, 1.14, false}, {0.1, 1.49, 0.46, false}}},
	{modelCoder, "", PaperSummary, "Summary agent", [4]paperCell{{50.0, 1.26, 1.50, false}, {38.0, 8.98, 2.12, false}, {44.1, 0.15, 0.01, false}, {0.31, 0.05, 0.00, false}}},
	{modelCoder, "", PaperRLM, "RLM", [4]paperCell{{56.0, 0.92, 1.23, false}, {44.7, 0.84, 0.63, false}, {48.0, 0.61, 0.49, false}, {23.1, 1.02, 0.52, false}}},
	{modelCoder, "", PaperRLMNoSubcalls, "RLM (no sub-calls)", [4]paperCell{{66.0, 0.18, 0.58, false}, {46.0, 0.82, 0.69, false}, {43.5, 0.32, 0.13, false}, {17.3, 1.77, 1.23, false}}},

	{modelQwen8, "", PaperBase, "Base Model", [4]paperCell{{4.0, 0.01, 0.00, true}, {0.0, na, na, true}, {0.0, na, na, true}, {0.1, 0.01, 0.00, false}}},
	{modelQwen8, "", PaperRLM, "RLM", [4]paperCell{{26.0, 0.04, 0.13, false}, {2.0, 0.03, 0.06, false}, {24.0, 0.19, 0.26, false}, {4.3, 0.05, 0.05, false}}},
}

// PublishedTable returns the figures of the RLM paper's Table 1 (arXiv
// 2512.24601; version of 29 Jan 2026): every method on CodeQA,
// BrowseComp-Plus (1K documents), OOLONG (131K) and OOLONG-Pairs (32K),
// with GPT-5 (RLM sub-calls to GPT-5-mini, summary compaction by
// GPT-5-nano), Qwen3-Coder-480B-A35B and Qwen3-8B, each citing its row
// and column. The fine-tuned RLM-Qwen3-8B row is left out: no harness
// method corresponds to it. The slice is new on each call.
func PublishedTable() []Published {
	var out []Published
	for _, r := range table1 {
		for i, c := range r.cells {
			s := paperSettings[i]
			p := Published{Suite: s.suite, Setting: s.label, Method: r.method, Model: r.model, SubModel: r.subModel,
				Score: c.score, Unit: s.unit, ContextLimited: c.limited,
				Source: paperSource + ", " + r.model + " block, row \"" + r.row + "\", column \"" + s.column + "\""}
			if c.cost != na {
				mean, sd := c.cost, c.sd
				p.CostMean, p.CostSD = &mean, &sd
			}
			out = append(out, p)
		}
	}
	return out
}
