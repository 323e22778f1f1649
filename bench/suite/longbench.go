package suite

import (
	"regexp"
	"strings"
	"sync"
)

// decodeLongBench decodes one record of LongBench-v2's data.json (a JSON
// array; JSON lines are read too): _id, domain, sub_domain, difficulty,
// length, question, choice_A..choice_D, answer (a letter) and context.
func decodeLongBench(r *record) (Task, error) {
	t := Task{Suite: LongBenchV2, AnswerType: "choice", Meta: map[string]string{}}
	var err error
	if t.ID, err = r.id("_id"); err != nil {
		return t, err
	}
	for _, f := range []string{"domain", "sub_domain", "difficulty", "length"} {
		v, err := r.str(f)
		if err != nil {
			return t, err
		}
		t.Meta[f] = v
	}
	q, err := r.str("question")
	if err != nil {
		return t, err
	}
	var choices [4]string
	for i, l := range []string{"A", "B", "C", "D"} {
		if choices[i], err = r.str("choice_" + l); err != nil {
			return t, err
		}
	}
	if t.Answer, err = r.str("answer"); err != nil {
		return t, err
	}
	if a := t.Answer; len(a) != 1 || a[0] < 'A' || a[0] > 'D' {
		return t, r.fail("answer", "answer is not one of A, B, C, D")
	}
	if t.Context, err = r.str("context"); err != nil {
		return t, err
	}
	t.Query = LongBenchQuery(q, choices)
	t.Meta["question"] = q
	t.Subset = t.Meta["domain"] + "/" + t.Meta["sub_domain"]
	return t, nil
}

// LongBenchQuery poses a LongBench-v2 question as its zero-shot template
// does after the document: the question, the four choices and the answer
// format its evaluation extracts.
func LongBenchQuery(question string, choices [4]string) string {
	var b strings.Builder
	b.WriteString("What is the correct answer to this question: ")
	b.WriteString(strings.TrimSpace(question))
	b.WriteString("\nChoices:\n")
	for i, c := range choices {
		b.WriteString("(" + string(rune('A'+i)) + ") " + strings.TrimSpace(c) + "\n")
	}
	b.WriteString("\nFormat your response as follows: \"The correct answer is (insert answer here)\".")
	return b.String()
}

var (
	choiceParen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`The correct answer is \(([A-D])\)`) })
	choiceBare  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`The correct answer is ([A-D])`) })
)

// ExtractChoice returns the letter a response commits to as LongBench-v2's
// evaluation extracts it ("*" removed, then "The correct answer is (X)",
// else "The correct answer is X"), or "" when there is none.
func ExtractChoice(response string) string {
	r := strings.ReplaceAll(response, "*", "")
	if m := choiceParen().FindStringSubmatch(r); m != nil {
		return m[1]
	}
	if m := choiceBare().FindStringSubmatch(r); m != nil {
		return m[1]
	}
	return ""
}

func scoreChoice(t Task, answer string) Result {
	got := ExtractChoice(answer)
	res := Result{Detail: map[string]any{"parsed": got, "gold": t.Answer}}
	if got == "" {
		res.Detail["parsed"] = nil
	}
	if got != "" && got == t.Answer {
		res.Score, res.Exact = 1, true
	}
	return res
}
