package suite

import (
	"context"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// DefaultDocs is the number of documents in a BrowseComp-Plus context, as
// the RLM paper builds them.
const DefaultDocs = 1000

// loadBrowseComp reads BrowseComp-Plus queries (the decrypted JSON lines of
// Tevatron/browsecomp-plus: query_id, query, answer, gold_docs,
// evidence_docs, negative_docs) and builds each selected query's context:
// its gold and evidence documents plus distractors drawn with o.Seed from
// o.Corpus (or, without one, from every document the query file lists),
// o.Docs in all, shuffled. The document source is read twice (ids, then
// the texts of the chosen documents), so only those are held in memory.
func loadBrowseComp(path string, o Options) ([]Task, error) {
	tasks, err := collect(BrowseCompPlus, path, o, func(r *record) (Task, error) {
		t, _, err := decodeBrowseComp(r)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	n := o.Docs
	if n == 0 {
		n = DefaultDocs
	}
	scan := func(fn func(id, text string)) error {
		if o.Corpus != "" {
			return readRecords(o.Corpus, func(r *record) error {
				id, err := r.id("docid")
				if err != nil {
					return err
				}
				text, err := r.str("text")
				if err != nil {
					return err
				}
				fn(id, text)
				return nil
			})
		}
		return readRecords(path, func(r *record) error {
			t, negatives, err := decodeBrowseComp(r)
			if err != nil {
				return err
			}
			for _, d := range slices.Concat(t.Docs, negatives) {
				fn(d.ID, d.Text)
			}
			return nil
		})
	}
	seen := map[string]bool{}
	var ids []string
	if err := scan(func(id, _ string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}); err != nil {
		return nil, err
	}
	slices.Sort(ids)
	picks := make([][]string, len(tasks))
	need := map[string]bool{}
	for i, t := range tasks {
		picks[i] = pickDistractors(t, ids, n, o.Seed)
		for _, id := range picks[i] {
			need[id] = true
		}
		for _, d := range t.Docs {
			if d.Text == "" {
				need[d.ID] = true
			}
		}
	}
	texts := map[string]string{}
	if err := scan(func(id, text string) {
		if need[id] && texts[id] == "" {
			texts[id] = text
		}
	}); err != nil {
		return nil, err
	}
	for i := range tasks {
		t := &tasks[i]
		docs := slices.Clone(t.Docs)
		for j := range docs {
			if docs[j].Text == "" {
				docs[j].Text = texts[docs[j].ID]
			}
		}
		for _, id := range picks[i] {
			docs = append(docs, Doc{ID: id, Text: texts[id]})
		}
		rng := taskRand(t.ID, o.Seed, 2)
		rng.Shuffle(len(docs), func(a, b int) { docs[a], docs[b] = docs[b], docs[a] })
		t.Docs = docs
		t.Context = RenderDocs(docs)
		t.Meta["docs"] = strconv.Itoa(len(docs))
	}
	return tasks, nil
}

// taskRand returns a generator seeded by seed, the task id and stream, so
// a task's documents do not depend on which other tasks were selected.
func taskRand(id string, seed, stream uint64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	return rand.New(rand.NewPCG(seed^h.Sum64(), stream))
}

// pickDistractors draws n minus the required documents from ids (sorted),
// skipping the task's own documents.
func pickDistractors(t Task, ids []string, n int, seed uint64) []string {
	own := map[string]bool{}
	for _, d := range t.Docs {
		own[d.ID] = true
	}
	var cand []string
	for _, id := range ids {
		if !own[id] {
			cand = append(cand, id)
		}
	}
	k := n - len(t.Docs)
	if k <= 0 {
		return nil
	}
	if k >= len(cand) {
		return cand
	}
	rng := taskRand(t.ID, seed, 1)
	for i := range k {
		j := i + rng.IntN(len(cand)-i)
		cand[i], cand[j] = cand[j], cand[i]
	}
	return cand[:k]
}

// RenderDocs renders documents in order as one context text, each as
// "Document <docid>:\n<text>\n\n".
func RenderDocs(docs []Doc) string {
	size := 0
	for _, d := range docs {
		size += len(d.ID) + len(d.Text) + 14
	}
	var b strings.Builder
	b.Grow(size)
	for _, d := range docs {
		b.WriteString("Document ")
		b.WriteString(d.ID)
		b.WriteString(":\n")
		b.WriteString(d.Text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// decodeBrowseComp decodes one decrypted BrowseComp-Plus query; the task's
// Docs are its gold then evidence documents (deduplicated), the second
// result its negative documents.
func decodeBrowseComp(r *record) (Task, []Doc, error) {
	t := Task{Suite: BrowseCompPlus, AnswerType: "judge", Subset: "queries", Meta: map[string]string{}}
	var err error
	if t.ID, err = r.id("query_id"); err != nil {
		return t, nil, err
	}
	if t.Query, err = r.str("query"); err != nil {
		return t, nil, err
	}
	if t.Answer, err = r.str("answer"); err != nil {
		return t, nil, err
	}
	gold, err := r.docs("gold_docs")
	if err != nil {
		return t, nil, err
	}
	evidence, err := r.docs("evidence_docs")
	if err != nil {
		return t, nil, err
	}
	negatives, err := r.docs("negative_docs")
	if err != nil {
		return t, nil, err
	}
	seen := map[string]bool{}
	for _, d := range slices.Concat(gold, evidence) {
		if !seen[d.ID] {
			seen[d.ID] = true
			t.Docs = append(t.Docs, d)
		}
	}
	t.Meta["gold_docs"] = strconv.Itoa(len(gold))
	t.Meta["evidence_docs"] = strconv.Itoa(len(evidence))
	return t, negatives, nil
}

var exactAnswerLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)exact answer\s*:\s*([^\n]*)`) })

// normAnswer folds an answer for exact match: lower case, white space
// collapsed, surrounding punctuation, quotes and "*" removed.
func normAnswer(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, " .,;:!?*\"'`")
}

// ExtractExactAnswer returns the "Exact Answer:" line of a BrowseComp-style
// response, or the whole response when it has none.
func ExtractExactAnswer(response string) string {
	if m := exactAnswerLine().FindAllStringSubmatch(response, -1); m != nil {
		return strings.TrimSpace(m[len(m)-1][1])
	}
	return strings.TrimSpace(response)
}

func scoreBrowseExact(t Task, answer string) Result {
	got := ExtractExactAnswer(answer)
	res := Result{Detail: map[string]any{"parsed": got, "gold": t.Answer}}
	if normAnswer(got) != "" && normAnswer(got) == normAnswer(t.Answer) {
		res.Score, res.Exact = 1, true
	}
	res.Detail["exact_match"] = res.Exact
	return res
}

// Judge grades an answer: it sends prompt to a model and returns the
// model's reply. The caller supplies it (any model call).
type Judge func(ctx context.Context, prompt string) (string, error)

// Placeholders a judge prompt (JudgeConfig.Prompt) must hold, each once.
var judgePlaceholders = []string{"{question}", "{response}", "{correct_answer}"}

// JudgeConfig is the LLM judge of a suite its paper grades with one
// (BrowseComp-Plus): Prompt is the grader prompt template, with the
// placeholders {question}, {response} and {correct_answer}; Judge asks a
// model. rlm does not ship the published grader prompt (its text is the
// benchmark's): docs/bench.md names the file it is in, and a caller reads
// it from there (rlm bench --judge-prompt FILE).
type JudgeConfig struct {
	Prompt string
	Judge  Judge
}

// check refuses a prompt without its placeholders (Kind
// suite_judge_prompt, detail "missing").
func (c JudgeConfig) check() error {
	if strings.TrimSpace(c.Prompt) == "" {
		return fault.New(fault.PhaseConfig, KindJudgePrompt, "the judge needs its grader prompt").
			WithHint("save the benchmark's published grader prompt to a file and pass it (see docs/bench.md, BrowseComp-Plus)")
	}
	for _, p := range judgePlaceholders {
		if strings.Count(c.Prompt, p) != 1 {
			return fault.New(fault.PhaseConfig, KindJudgePrompt, "the grader prompt must hold each placeholder once").With("missing", p).
				WithHint("the template marks the question, the response and the correct answer as {question}, {response} and {correct_answer}")
		}
	}
	return nil
}

// fill is the prompt for one answer.
func (c JudgeConfig) fill(question, response, correctAnswer string) string {
	return strings.NewReplacer("{question}", question, "{response}", response, "{correct_answer}", correctAnswer).Replace(c.Prompt)
}

var judgeCorrect = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)\*\*correct:\*\*\s*(yes|no)`),
		regexp.MustCompile(`(?i)\*\*correct\*\*:\s*(yes|no)`),
		regexp.MustCompile(`(?i)correct:\s*(yes|no)`),
	}
})

var judgeExtracted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\**extracted_final_answer:?\**:?\s*([^\n]*)`) })

// ParseVerdict reads a judge reply as BrowseComp-Plus's evaluation does:
// the "correct: yes|no" line (bold spellings first); ok is false when the
// reply has none.
func ParseVerdict(reply string) (correct, ok bool) {
	for _, re := range judgeCorrect() {
		if m := re.FindStringSubmatch(reply); m != nil {
			return strings.EqualFold(m[1], "yes"), true
		}
	}
	return false, false
}

// ScoreJudged scores answer like Score and, for a suite its paper grades
// with an LLM judge (BrowseComp-Plus), asks the judge with its prompt
// filled in (a prompt without its placeholders is Kind
// suite_judge_prompt, nothing asked): Score is then the
// verdict (1 or 0; a reply without a verdict scores 0 with detail
// "judge_parse_error"), Judged is true, Exact and detail "exact_match"
// keep the exact-match result. Other suites are returned as Score does.
func ScoreJudged(ctx context.Context, t Task, answer string, jc JudgeConfig) (Result, error) {
	res := Score(t, answer)
	if t.Suite != BrowseCompPlus || jc.Judge == nil {
		return res, nil
	}
	if err := jc.check(); err != nil {
		return res, err
	}
	reply, err := jc.Judge(ctx, jc.fill(t.Query, answer, t.Answer))
	if err != nil {
		return res, err
	}
	res.Judged = true
	res.Detail["judge_reply"] = reply
	if m := judgeExtracted().FindStringSubmatch(reply); m != nil {
		res.Detail["extracted_final_answer"] = strings.TrimSpace(m[1])
	}
	correct, ok := ParseVerdict(reply)
	res.Score = 0
	if !ok {
		res.Detail["judge_parse_error"] = true
	} else if correct {
		res.Score = 1
	}
	return res, nil
}

// NIAHTask wraps a generated S-NIAH task (bench.Generate(bench.KindNIAH,
// ...)) for scoring here; refs are the values the answer must contain.
func NIAHTask(id, query, context string, refs ...string) Task {
	return Task{ID: id, Suite: SNIAH, Subset: "generated", Query: query, Context: context,
		Answer: strings.Join(refs, "\n"), AnswerType: "contains"}
}

// scoreNIAH scores as RULER's string_match_all: the fraction of reference
// values that occur in the answer, case-insensitively.
func scoreNIAH(t Task, answer string) Result {
	refs := strings.Split(t.Answer, "\n")
	a := strings.ToLower(answer)
	hit := 0
	for _, r := range refs {
		if strings.Contains(a, strings.ToLower(r)) {
			hit++
		}
	}
	s := float64(hit) / float64(len(refs))
	return Result{Score: s, Exact: s == 1, Detail: map[string]any{"found": hit, "refs": len(refs)}}
}
