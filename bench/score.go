package bench

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// AnswerText renders an answer for scoring: strings as they are, nil as "",
// and any other value as its JSON encoding.
func AnswerText(answer any) string {
	switch a := answer.(type) {
	case nil:
		return ""
	case string:
		return a
	}
	b, err := json.Marshal(answer)
	if err != nil {
		return ""
	}
	return string(b)
}

// ScoreContains is the NIAH scorer: 1 when want occurs in answer (ignoring
// case), else 0. An empty want scores 0.
func ScoreContains(answer, want string) float64 {
	if want == "" || !strings.Contains(strings.ToLower(answer), strings.ToLower(want)) {
		return 0
	}
	return 1
}

var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-?\d{1,3}(?:,\d{3})+|-?\d+`) })

// ParseCount extracts the integer an answer states: the whole answer when
// it is a number (quotes and a trailing period allowed), else the first
// integer in it (thousands separators allowed). ok is false when there is
// none.
func ParseCount(answer string) (n int, ok bool) {
	t := strings.Trim(strings.TrimSpace(answer), "\"'`.")
	if v, err := strconv.Atoi(t); err == nil {
		return v, true
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return int(f), true
	}
	m := numberRE().FindString(answer)
	if m == "" {
		return 0, false
	}
	v, err := strconv.Atoi(strings.ReplaceAll(m, ",", ""))
	return v, err == nil
}

// ScoreCount is the OOLONG numeric scorer: 0.75^|got-want|, and 0 when the
// answer states no integer.
func ScoreCount(answer string, want int) float64 {
	got, ok := ParseCount(answer)
	if !ok {
		return 0
	}
	// In float64: got - want overflows int for extreme answers.
	return math.Pow(0.75, math.Abs(float64(got)-float64(want)))
}

var wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[a-z]+`) })

// ScoreLabel is the exact-match scorer for a label: 1 when the answer,
// lowercased and stripped of quotes and punctuation, equals want, or when
// want is the only one of labels it names; else 0.
func ScoreLabel(answer, want string, labels []string) float64 {
	a := strings.ToLower(strings.Trim(strings.TrimSpace(answer), "\"'`.!*"))
	w := strings.ToLower(want)
	if a == w {
		return 1
	}
	named := map[string]bool{}
	for _, word := range wordRE().FindAllString(a, -1) {
		for _, l := range labels {
			if word == strings.ToLower(l) {
				named[word] = true
			}
		}
	}
	if len(named) == 1 && named[w] {
		return 1
	}
	return 0
}

var (
	bracketPairRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[(\[]\s*(\d+)\s*,\s*(\d+)\s*[)\]]`) })
	linePairRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(\d+)\s*[,\-–]\s*(\d+)\s*$`) })
)

// ParsePairs extracts the set of id pairs an answer lists, in canonical
// order without duplicates: "(a, b)" or "[a, b]" anywhere (so a JSON list
// of two-element lists works), or else lines holding "a, b" or "a-b".
// Pairs of an id with itself are dropped.
func ParsePairs(answer string) []Pair {
	ms := bracketPairRE().FindAllStringSubmatch(answer, -1)
	if len(ms) == 0 {
		ms = linePairRE().FindAllStringSubmatch(answer, -1)
	}
	seen := map[Pair]bool{}
	var out []Pair
	for _, m := range ms {
		a, err1 := strconv.Atoi(m[1])
		b, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil || a == b {
			continue
		}
		p := NewPair(a, b)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// ScorePairs is the OOLONG-Pairs scorer: F1 of the pairs parsed from the
// answer against want. Two empty sets score 1.
func ScorePairs(answer string, want []Pair) float64 {
	return PairsF1(ParsePairs(answer), want)
}

// PairsF1 returns the F1 score of got against want.
func PairsF1(got, want []Pair) float64 {
	if len(got) == 0 && len(want) == 0 {
		return 1
	}
	ws := make(map[Pair]bool, len(want))
	for _, p := range want {
		ws[p] = true
	}
	tp := 0
	gs := map[Pair]bool{}
	for _, p := range got {
		if ws[p] && !gs[p] {
			tp++
		}
		gs[p] = true
	}
	if tp == 0 {
		return 0
	}
	prec := float64(tp) / float64(len(gs))
	rec := float64(tp) / float64(len(ws))
	return 2 * prec * rec / (prec + rec)
}
