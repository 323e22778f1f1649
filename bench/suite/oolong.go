package suite

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// OOLONG-synth answer types (the dataset's answer_type column).
const (
	AnswerLabel      = "ANSWER_TYPE.LABEL"
	AnswerNumeric    = "ANSWER_TYPE.NUMERIC"
	AnswerComparison = "ANSWER_TYPE.COMPARISON"
	AnswerUser       = "ANSWER_TYPE.USER"
	AnswerDate       = "ANSWER_TYPE.DATE"
	AnswerMonthYear  = "ANSWER_TYPE.MONTH_YEAR"
)

// decodeOolong decodes an oolong-synth row (it has answer_type) or an
// oolong-real row (it does not); one file may hold both.
func decodeOolong(r *record) (Task, error) {
	if _, synth := r.raw("answer_type"); synth {
		return decodeOolongSynth(r)
	}
	return decodeOolongReal(r)
}

// decodeOolongSynth decodes one oolong-synth row.
func decodeOolongSynth(r *record) (Task, error) {
	t := Task{Suite: Oolong, Meta: map[string]string{"split": "synth"}}
	var err error
	if t.ID, err = r.id("id"); err != nil {
		return t, err
	}
	n, err := r.integer("context_len")
	if err != nil {
		return t, err
	}
	t.Meta["context_len"] = strconv.FormatInt(n, 10)
	ds, err := r.str("dataset")
	if err != nil {
		return t, err
	}
	t.Meta["dataset"] = ds
	if t.Context, err = r.str("context_window_text"); err != nil {
		return t, err
	}
	if t.Query, err = r.str("question"); err != nil {
		return t, err
	}
	if t.Answer, err = r.str("answer"); err != nil {
		return t, err
	}
	if t.AnswerType, err = r.str("answer_type"); err != nil {
		return t, err
	}
	if _, _, err := synthGold(t.Answer); err != nil {
		return t, r.fail("answer", "answer is not a Python list literal of one value: "+err.Error())
	}
	cw, err := r.id("context_window_id")
	if err != nil {
		return t, err
	}
	t.Meta["context_window_id"] = cw
	for _, f := range []string{"task_group", "task", "input_subset"} {
		v, err := r.optStr(f)
		if err != nil {
			return t, err
		}
		if v != "" {
			t.Meta[f] = v
		}
	}
	t.Subset = "synth/" + ds + "/" + t.Meta["context_len"]
	return t, nil
}

// decodeOolongReal decodes one oolong-real (dnd) row.
func decodeOolongReal(r *record) (Task, error) {
	t := Task{Suite: Oolong, Meta: map[string]string{"split": "real"}}
	var err error
	if t.ID, err = r.id("id"); err != nil {
		return t, err
	}
	cw, err := r.id("context_window_id")
	if err != nil {
		return t, err
	}
	t.Meta["context_window_id"] = cw
	if t.Context, err = r.str("context_window_text"); err != nil {
		return t, err
	}
	if t.Query, err = r.str("question"); err != nil {
		return t, err
	}
	if t.Answer, err = r.id("answer"); err != nil {
		return t, err
	}
	for _, f := range []string{"question_type", "campaign"} {
		v, err := r.optStr(f)
		if err != nil {
			return t, err
		}
		if v != "" {
			t.Meta[f] = v
		}
	}
	if _, ok := r.raw("context_len"); ok {
		n, err := r.integer("context_len")
		if err != nil {
			return t, err
		}
		t.Meta["context_len"] = strconv.FormatInt(n, 10)
	}
	t.AnswerType = t.Meta["question_type"]
	t.Subset = "real/dnd"
	if c := t.Meta["campaign"]; c != "" {
		t.Subset += "/" + c
	}
	return t, nil
}

var datetimeGold = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[datetime\.date\((\d{1,4}), (\d{1,2}), (\d{1,2})\)\]$`)
})

// synthGold returns str() of the first element of an oolong-synth answer
// (a Python list literal such as "['spam']", "[12]" or
// "[datetime.date(2023, 1, 5)]"), and the date when it is one.
func synthGold(answer string) (string, *time.Time, error) {
	if strings.Contains(answer, "datetime") {
		m := datetimeGold().FindStringSubmatch(answer)
		if m == nil {
			return "", nil, errString("bad datetime.date literal")
		}
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
		if t.Year() != y || int(t.Month()) != mo || t.Day() != d {
			return "", nil, errString("no such date")
		}
		return t.Format("2006-01-02 15:04:05"), &t, nil
	}
	s := strings.TrimSpace(answer)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return "", nil, errString("not a list")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	if s == "" {
		return "", nil, errString("empty list")
	}
	if q := s[0]; q == '\'' || q == '"' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s):
				i++
				switch s[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(s[i])
				}
			case c == q:
				return b.String(), nil, nil
			default:
				b.WriteByte(c)
			}
		}
		return "", nil, errString("unterminated string")
	}
	tok := s
	if i := strings.IndexByte(s, ','); i >= 0 {
		tok = strings.TrimSpace(s[:i])
	}
	if n, ok := pyInt(tok); ok {
		return strconv.FormatInt(n, 10), nil, nil
	}
	if _, err := strconv.ParseFloat(tok, 64); err == nil {
		return tok, nil, nil
	}
	switch tok {
	case "True", "False", "None":
		return tok, nil, nil
	}
	return "", nil, errString("first element is not a literal")
}

type errString string

func (e errString) Error() string { return string(e) }

// pyInt parses s as Python's int() does for ASCII input: surrounding white
// space, a sign, and single underscores between digits are allowed.
func pyInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "_") {
		if strings.Contains(s, "__") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") ||
			strings.HasPrefix(s, "+_") || strings.HasPrefix(s, "-_") {
			return 0, false
		}
		s = strings.ReplaceAll(s, "_", "")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

var comparisonPhrases = []string{"more common", "less common", "same frequency"}

// synthParse extracts the candidate answer from a model's output as
// OOLONG's synth evaluation does: the text after the last colon, without
// "*", "[" and "]"; a long candidate that names a comparison becomes that
// phrase; an output without a colon is kept whole when short, else its
// last word.
func synthParse(out string) (string, string) {
	if !strings.Contains(out, ":") {
		if utf8.RuneCountInString(out) < 20 {
			return out, "low"
		}
		f := strings.Fields(out)
		if len(f) == 0 {
			return "", "low"
		}
		return f[len(f)-1], "low"
	}
	c := strings.TrimSpace(out[strings.LastIndexByte(out, ':')+1:])
	c = strings.NewReplacer("*", "", "[", "", "]", "").Replace(c)
	conf := "med"
	for _, k := range []string{"User:", "Answer:", "Date:", "Label"} {
		if strings.Contains(out, k) {
			conf = "high"
		}
	}
	if utf8.RuneCountInString(c) < 20 {
		return c, "vhigh"
	}
	for _, p := range comparisonPhrases {
		if strings.Contains(c, p) {
			return p, conf
		}
	}
	return c, conf
}

func scoreOolongSynth(t Task, answer string) Result {
	gold, date, err := synthGold(t.Answer)
	parsed, conf := synthParse(answer)
	res := Result{Detail: map[string]any{"parsed": parsed, "gold": gold, "parse_confidence": conf}}
	if err != nil {
		res.Detail["error"] = err.Error()
		return res
	}
	switch {
	case parsed == gold:
		res.Score = 1
	case isComparison(parsed):
		if strings.Contains(gold, parsed) {
			res.Score = 1
		}
	case t.AnswerType == AnswerNumeric:
		g, ok1 := pyInt(gold)
		p, ok2 := pyInt(parsed)
		if ok1 && ok2 {
			res.Score = math.Pow(0.75, math.Abs(float64(g-p)))
		} else {
			res.Detail["parse_confidence"] = "low"
		}
	case t.AnswerType == AnswerDate && date != nil:
		if d, ok := parseDate(parsed); ok {
			if d.Equal(*date) {
				res.Score = 1
			}
		} else {
			res.Detail["parse_confidence"] = "low"
		}
	}
	res.Exact = res.Score == 1
	return res
}

func isComparison(s string) bool {
	for _, p := range comparisonPhrases {
		if s == p {
			return true
		}
	}
	return false
}

// dateLayouts are the date spellings parseDate accepts: the common subset
// of what OOLONG's evaluation accepts through dateutil.
var dateLayouts = []string{
	"2006-01-02", "2006-1-2", "2006/01/02", "2006/1/2", "01/02/2006", "1/2/2006",
	"Jan 2, 2006", "Jan 02, 2006", "January 2, 2006", "January 02, 2006",
	"Jan. 2, 2006", "2 Jan 2006", "02 Jan 2006", "2 January 2006", "Jan 2 2006", "January 2 2006",
	"2006-01-02 15:04:05", "2006-01-02T15:04:05",
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	for _, l := range dateLayouts {
		if d, err := time.Parse(l, s); err == nil {
			return time.Date(d.Year(), d.Month(), d.Day(), d.Hour(), d.Minute(), d.Second(), 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

var (
	boxedText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\boxed\{\\text\{([^}]*)\}\}`) })
	boxed     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\boxed\{([^}]*)\}`) })
)

// realValue is an oolong-real answer parsed as the dnd evaluation does: an
// integer, else a comma-separated list, else a string.
type realValue struct {
	kind string // "int", "list", "str"
	n    int64
	list []string
	s    string
}

func parseRealValue(s string) realValue {
	if n, ok := pyInt(s); ok {
		return realValue{kind: "int", n: n}
	}
	if strings.Contains(s, ",") {
		var items []string
		for it := range strings.SplitSeq(s, ",") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		return realValue{kind: "list", list: items}
	}
	return realValue{kind: "str", s: s}
}

func (v realValue) String() string {
	switch v.kind {
	case "int":
		return strconv.FormatInt(v.n, 10)
	case "list":
		return strings.Join(v.list, ", ")
	}
	return v.s
}

func scoreOolongReal(t Task, answer string) Result {
	gold := parseRealValue(t.Answer)
	a := strings.TrimSpace(answer)
	conf := "high"
	var got realValue
	m := boxedText().FindStringSubmatch(a)
	if m == nil {
		m = boxed().FindStringSubmatch(a)
	}
	switch {
	case m != nil:
		got = parseRealValue(m[1])
	case a == "":
		got, conf = realValue{kind: "str"}, "low"
	default:
		got, conf = parseRealValue(a), "med"
	}
	res := Result{Detail: map[string]any{"parsed": got.String(), "gold": gold.String(), "parse_confidence": conf}}
	switch {
	case gold.kind == "int" && got.kind == "int":
		res.Score = math.Pow(0.75, math.Abs(float64(gold.n-got.n)))
	case gold.kind == "str" && got.kind == "str":
		if strings.EqualFold(strings.TrimSpace(gold.s), strings.TrimSpace(got.s)) {
			res.Score = 1
		}
	case gold.kind == "list" && got.kind == "list" && len(gold.list) > 0:
		have := map[string]bool{}
		for _, x := range got.list {
			have[x] = true
		}
		seen := map[string]bool{}
		overlap := 0
		for _, x := range gold.list {
			if have[x] && !seen[x] {
				overlap++
			}
			seen[x] = true
		}
		res.Score = float64(overlap) / float64(len(gold.list))
	}
	res.Exact = res.Score == 1
	return res
}
