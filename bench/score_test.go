package bench

import (
	"math"
	"testing"
)

func TestScoreContains(t *testing.T) {
	cases := []struct {
		answer, want string
		score        float64
	}{
		{"4829173", "4829173", 1},
		{"The special magic number is 4829173.", "4829173", 1},
		{"4829174", "4829173", 0},
		{"", "4829173", 0},
		{"anything", "", 0},
		{"Key AMBER", "amber", 1},
	}
	for _, c := range cases {
		if got := ScoreContains(c.answer, c.want); got != c.score {
			t.Errorf("ScoreContains(%q, %q) = %v", c.answer, c.want, got)
		}
	}
}

func TestScoreCount(t *testing.T) {
	cases := []struct {
		answer string
		want   int
		score  float64
	}{
		{"42", 42, 1},
		{"\"42\".", 42, 1},
		{"42.0", 42, 1},
		{"There are 41 such records.", 42, 0.75},
		{"44", 42, 0.5625},
		{"1,234 records", 1234, 1},
		{"-3", 0, math.Pow(0.75, 3)},
		{"none", 42, 0},
		{"", 0, 0},
	}
	for _, c := range cases {
		if got := ScoreCount(c.answer, c.want); math.Abs(got-c.score) > 1e-12 {
			t.Errorf("ScoreCount(%q, %d) = %v, want %v", c.answer, c.want, got, c.score)
		}
	}
}

func TestScoreLabel(t *testing.T) {
	labels := []string{"account", "billing", "returns"}
	cases := []struct {
		answer, want string
		score        float64
	}{
		{"billing", "billing", 1},
		{" Billing. ", "billing", 1},
		{"**billing**", "billing", 1},
		{"The most frequent label is billing.", "billing", 1},
		{"billing or returns", "billing", 0},
		{"returns", "billing", 0},
		{"billings", "billing", 0},
		{"", "billing", 0},
	}
	for _, c := range cases {
		if got := ScoreLabel(c.answer, c.want, labels); got != c.score {
			t.Errorf("ScoreLabel(%q, %q) = %v", c.answer, c.want, got)
		}
	}
}

func TestParsePairs(t *testing.T) {
	cases := []struct {
		answer string
		want   []Pair
	}{
		{"(1, 2) (5, 3)", []Pair{{1, 2}, {3, 5}}},
		{"[[1,2],[3,5]]", []Pair{{1, 2}, {3, 5}}},
		{"(2,1) and (1, 2)", []Pair{{1, 2}}},
		{"1, 2\n3-5\n", []Pair{{1, 2}, {3, 5}}},
		{"(4, 4)", nil},
		{"no pairs", nil},
		{"ids 1, 2 and 3", nil},
	}
	for _, c := range cases {
		got := ParsePairs(c.answer)
		if len(got) != len(c.want) {
			t.Errorf("ParsePairs(%q) = %v", c.answer, got)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ParsePairs(%q) = %v", c.answer, got)
			}
		}
	}
}

func TestScorePairs(t *testing.T) {
	want := []Pair{{1, 2}, {3, 4}, {5, 6}, {7, 8}}
	cases := []struct {
		answer string
		want   []Pair
		score  float64
	}{
		{"(1, 2) (3, 4) (5, 6) (7, 8)", want, 1},
		{"(8, 7) (6, 5) (4, 3) (2, 1)", want, 1},
		{"(1, 2) (3, 4)", want, 2 * 1 * 0.5 / 1.5},          // precision 1, recall 1/2
		{"(1, 2) (3, 4) (9, 10) (11, 12)", want, 0.5},       // precision 1/2, recall 1/2
		{"(1, 2) (1, 2) (1, 2)", want, 2 * 1 * 0.25 / 1.25}, // duplicates count once
		{"(9, 10)", want, 0},
		{"", want, 0},
		{"", nil, 1},
		{"(1, 2)", nil, 0},
	}
	for _, c := range cases {
		if got := ScorePairs(c.answer, c.want); math.Abs(got-c.score) > 1e-12 {
			t.Errorf("ScorePairs(%q) = %v, want %v", c.answer, got, c.score)
		}
	}
}

func TestAnswerText(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, ""}, {"x", "x"}, {int64(42), "42"}, {[]any{[]any{1, 2}}, "[[1,2]]"}, {map[string]any{"a": 1}, `{"a":1}`},
	}
	for _, c := range cases {
		if got := AnswerText(c.in); got != c.want {
			t.Errorf("AnswerText(%v) = %q", c.in, got)
		}
	}
}

func TestSummarize(t *testing.T) {
	cases := []struct {
		in   []float64
		want Stats
	}{
		{nil, Stats{}},
		{[]float64{5}, Stats{N: 1, Mean: 5, P25: 5, P50: 5, P75: 5}},
		{[]float64{4, 1, 3, 2}, Stats{N: 4, Mean: 2.5, P25: 1.75, P50: 2.5, P75: 3.25}},
		{[]float64{1, 2, 3, 4, 5}, Stats{N: 5, Mean: 3, P25: 2, P50: 3, P75: 4}},
	}
	for _, c := range cases {
		if got := Summarize(c.in); got != c.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
