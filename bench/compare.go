package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/fault"
)

// KindNotReport reports a results file that is not a bench report (the
// JSON rlm bench run --json writes): not JSON, or without schema_version,
// summaries or trials (detail "file").
const KindNotReport fault.Kind = "bench_report_invalid"

// ReadReport reads a bench report (rlm bench run --json) from path. A
// file that cannot be read is io_error; one that is not a bench report
// is KindNotReport; both name the file.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		e := fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the results file").With("file", path)
		if errors.Is(err, fs.ErrNotExist) {
			e.WithHint("pass the file rlm bench run --json wrote")
		}
		return nil, e
	}
	notReport := func(why string) *fault.Error {
		return fault.New(fault.PhaseParse, KindNotReport, "not a bench report: "+why).With("file", path).
			WithHint("rlm bench report reads the JSON of rlm bench run --json")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return nil, notReport("not a JSON object")
	}
	for _, k := range []string{"schema_version", "summaries", "trials"} {
		if _, ok := keys[k]; !ok {
			return nil, notReport("no "+k+" field").With("field", k)
		}
	}
	var rep Report
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&rep); err != nil {
		return nil, notReport("a field has the wrong type").With("error", err.Error())
	}
	if rep.SchemaVersion != 1 {
		return nil, notReport("unknown schema_version").With("field", "schema_version").With("schema_version", rep.SchemaVersion)
	}
	return &rep, nil
}

// Dist describes a sample: its size, mean, sample standard deviation
// (n−1; 0 for one value) and quantiles (linear interpolation, R-7).
type Dist struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P95  float64 `json:"p95"`
}

// Describe returns the Dist of xs; an empty sample has all zero fields.
func Describe(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	mean := sum / float64(len(s))
	ss := 0.0
	for _, x := range s {
		ss += (x - mean) * (x - mean)
	}
	sd := 0.0
	if len(s) > 1 {
		sd = math.Sqrt(ss / float64(len(s)-1))
	}
	return Dist{N: len(s), Mean: mean, SD: sd, P25: quantile(s, 0.25), P50: quantile(s, 0.5), P75: quantile(s, 0.75), P95: quantile(s, 0.95)}
}

// Row is one benchmark setting and method of a Comparison, over the
// trials of every report given.
type Row struct {
	// Benchmark is the suite (or the generated task family); Setting the
	// paper's setting the trials are in, or another label (see Compare).
	Benchmark string `json:"benchmark"`
	Setting   string `json:"setting"`
	Method    Method `json:"method"`
	Model     string `json:"model"`
	SubModel  string `json:"sub_model"`
	// Trials counts every trial; Attempted the ok and failed ones.
	Trials    int `json:"trials"`
	Attempted int `json:"attempted"`
	OK        int `json:"ok"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	// Score is the mean score of the attempted trials in percent (nil:
	// none attempted), in Unit.
	Score *float64 `json:"score"`
	Unit  string   `json:"unit"`
	// Published is the paper's figure for this benchmark, setting and
	// method (nil: none); Diff is Score − Published.Score, in points.
	Published *Published `json:"published"`
	Diff      *float64   `json:"diff"`
	// CostUSD, Tokens (total per trial) and LatencyMS describe the
	// attempted trials; CostKnown is false when a trial's cost is unknown.
	CostUSD       Dist `json:"cost_usd"`
	CostKnown     bool `json:"cost_known"`
	CostEstimated bool `json:"cost_estimated"`
	Tokens        Dist `json:"tokens"`
	LatencyMS     Dist `json:"latency_ms"`
	// CallsPerTask is the mean number of model calls of an attempted
	// trial; MaxDepth the deepest recursion of any trial.
	CallsPerTask float64 `json:"calls_per_task"`
	MaxDepth     int     `json:"max_depth"`
	// Replayed reports that a report of the row came from recorded or
	// scripted responses.
	Replayed bool `json:"replayed"`
	// Costs are the attempted trials' costs in USD, in trial order (the
	// cost plot's points).
	Costs []float64 `json:"costs_usd"`
}

// Comparison is the outcome of Compare.
type Comparison struct {
	SchemaVersion int `json:"schema_version"`
	// Reports is the number of reports compared.
	Reports int `json:"reports"`
	// Replayed and Notice: a report came from replayed responses
	// (ReplayNotice).
	Replayed bool   `json:"replayed"`
	Notice   string `json:"notice,omitempty"`
	Rows     []Row  `json:"rows"`
}

// OtherSetting labels the trials of a published benchmark that are not
// in any setting of the paper's table (another context length, another
// LongBench-v2 domain, ...); their rows have no published figure.
const OtherSetting = "other (not in Table 1)"

// Compare sets the trials of reports beside the published figures. Rows
// are per benchmark, setting, method and models, in the order they first
// occur. A published benchmark's trial is in the paper's setting its
// task's subset falls in (OOLONG trec_coarse at 131,072 tokens,
// OOLONG-Pairs trec_coarse at 32,768, LongBench-v2's Code Repository
// Understanding domain, any BrowseComp-Plus query), else in
// OtherSetting; a generated task's setting is its size. A row's published
// figure has the same suite, setting and paper method (PaperMethod); of
// several (one per model), the one whose model the run's model names
// ("gpt-5", "qwen3-coder-480b-a35b", ...), else the first (GPT-5).
func Compare(reports []*Report, published []Published) Comparison {
	c := Comparison{SchemaVersion: 1, Reports: len(reports), Rows: []Row{}}
	type key struct {
		bench, setting string
		method         Method
		model, sub     string
	}
	type group struct {
		row    Row
		trials []Trial
		setIdx int
	}
	var order []key
	groups := map[key]*group{}
	setOrder := map[[2]string]int{}
	for _, rep := range reports {
		if rep == nil {
			continue
		}
		c.Replayed = c.Replayed || rep.Replayed
		for _, tr := range rep.Trials {
			bench, setting, unit := placeTrial(rep, tr)
			k := key{bench, setting, tr.Method, rep.Model, rep.SubModel}
			g := groups[k]
			if g == nil {
				sk := [2]string{bench, setting}
				if _, ok := setOrder[sk]; !ok {
					setOrder[sk] = len(setOrder)
				}
				g = &group{row: Row{Benchmark: bench, Setting: setting, Method: tr.Method, Model: rep.Model, SubModel: rep.SubModel, Unit: unit},
					setIdx: setOrder[sk]}
				groups[k] = g
				order = append(order, k)
			}
			g.row.Replayed = g.row.Replayed || rep.Replayed
			g.trials = append(g.trials, tr)
		}
	}
	if c.Replayed {
		c.Notice = ReplayNotice
	}
	slices.SortStableFunc(order, func(a, b key) int { return groups[a].setIdx - groups[b].setIdx })
	for _, k := range order {
		g := groups[k]
		row := g.row
		fillRow(&row, g.trials)
		row.Published = pickPublished(published, row)
		if row.Published != nil && row.Score != nil {
			d := *row.Score - row.Published.Score
			row.Diff = &d
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// placeTrial returns a trial's benchmark, setting and score unit.
func placeTrial(rep *Report, tr Trial) (bench, setting, unit string) {
	if rep.Suite == "" {
		unit = "score %"
		switch rep.Task {
		case KindNIAH:
			unit = "% correct"
		case KindPairs:
			unit = "F1 %"
		}
		return string(rep.Task), fmt.Sprintf("%d bytes", rep.Size), unit
	}
	switch rep.Suite {
	case suite.OolongPairs:
		unit = "F1 %"
	case suite.Oolong:
		unit = "score %"
	default:
		unit = "% correct"
	}
	if s := settingOf(rep.Suite, tr.Subset); s != nil {
		return rep.Suite, s.label, s.unit
	}
	return rep.Suite, OtherSetting, unit
}

// fillRow sets row's counts and statistics from its trials.
func fillRow(row *Row, trials []Trial) {
	var scores, tokens, lat []float64
	calls := 0.0
	row.Costs = []float64{}
	row.CostKnown = true
	for _, t := range trials {
		row.Trials++
		row.MaxDepth = max(row.MaxDepth, t.MaxDepth)
		switch t.Status {
		case StatusSkipped:
			row.Skipped++
			continue
		case StatusOK:
			row.OK++
		default:
			row.Failed++
		}
		row.Attempted++
		scores = append(scores, t.Score)
		row.Costs = append(row.Costs, t.Usage.CostUSD)
		tokens = append(tokens, float64(t.Usage.TotalTokens))
		lat = append(lat, t.LatencyMS)
		calls += float64(t.Usage.Calls)
		row.CostKnown = row.CostKnown && (t.Usage.CostKnown || t.Usage.CostEstimated)
		row.CostEstimated = row.CostEstimated || t.Usage.CostEstimated
	}
	if row.Attempted == 0 {
		row.CostKnown = false
		return
	}
	s := 100 * Describe(scores).Mean
	row.Score = &s
	row.CostUSD, row.Tokens, row.LatencyMS = Describe(row.Costs), Describe(tokens), Describe(lat)
	row.CallsPerTask = calls / float64(row.Attempted)
}

// pickPublished returns the published figure of row's suite, setting and
// paper method: the one whose model the row's model names, else the
// first; nil when there is none.
func pickPublished(published []Published, row Row) *Published {
	var first *Published
	want := PaperMethod(row.Method)
	for i := range published {
		p := &published[i]
		if p.Suite != row.Benchmark || p.Setting != row.Setting || p.Method != want {
			continue
		}
		if namesModel(row.Model, p.Model) {
			cp := *p
			return &cp
		}
		if first == nil {
			first = p
		}
	}
	if first == nil {
		return nil
	}
	cp := *first
	return &cp
}

// namesModel reports whether a run's model name names the paper's model:
// "openai/gpt-5" names GPT-5, "gpt-5-mini" does not.
func namesModel(run, paper string) bool {
	m, p := suite.FoldKey(run), suite.FoldKey(paper)
	return m != "" && p != "" && strings.Contains(m, p) && !strings.Contains(m, p+"mini") && !strings.Contains(m, p+"nano")
}
