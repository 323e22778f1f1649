package bench

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

func TestGenerateDeterministic(t *testing.T) {
	for _, k := range Kinds() {
		a, err := Generate(k, 5000, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(k, 5000, 7)
		c, _ := Generate(k, 5000, 8)
		if a.Context != b.Context || a.Query != b.Query || a.Expected.String() != b.Expected.String() {
			t.Errorf("%s: same seed, different task", k)
		}
		if a.Context == c.Context {
			t.Errorf("%s: different seeds, same context", k)
		}
	}
}

// Golden samples pin the generators' output across versions.
func TestGenerateGolden(t *testing.T) {
	for _, k := range Kinds() {
		task, err := Generate(k, 700, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("query: %s\nexpected (%s): %s\ncontext (%d bytes):\n%s", task.Query, task.Expected.Form, task.Expected.String(), len(task.Context), task.Context)
		checkFile(t, filepath.Join("testdata", "generate_"+string(k)+".golden"), []byte(got))
	}
}

func TestGenerateSizes(t *testing.T) {
	for _, k := range Kinds() {
		for _, size := range []int{MinSize, 1000, 20_000, 300_000} {
			task, err := Generate(k, size, 3)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(task.Context); n < size || (size >= 1000 && n >= size+256) {
				t.Errorf("%s size %d: context is %d bytes", k, size, n)
			}
			if !strings.HasSuffix(task.Context, "\n") {
				t.Errorf("%s: context does not end with a newline", k)
			}
		}
	}
}

var recordRE = regexp.MustCompile(`(?m)^id=(\d+) date=\S+ city=(\S+) user=\S+ label=(\S+) note=`)

type parsedRecord struct {
	id          int
	city, label string
}

func parseRecords(t *testing.T, text string) []parsedRecord {
	t.Helper()
	var out []parsedRecord
	for _, m := range recordRE.FindAllStringSubmatch(text, -1) {
		var id int
		fmt.Sscan(m[1], &id)
		out = append(out, parsedRecord{id, m[2], m[3]})
	}
	if len(out) != strings.Count(text, "\n") {
		t.Fatalf("%d records parsed from %d lines", len(out), strings.Count(text, "\n"))
	}
	return out
}

// The known answer is really in the text, computed here independently of
// the generator from the rendered context.
func TestGeneratedAnswersAreInTheText(t *testing.T) {
	labelRE := regexp.MustCompile(`label=(\w+)`)
	for seed := uint64(1); seed <= 12; seed++ {
		for _, size := range []int{300, 10_000, 120_000} {
			niah, _ := Generate(KindNIAH, size, seed)
			v := niah.Expected.Value
			if strings.Count(niah.Context, v) != 1 || !strings.Contains(niah.Context, "magic numbers for ") {
				t.Fatalf("niah seed %d: value %s occurs %d times", seed, v, strings.Count(niah.Context, v))
			}
			key := regexp.MustCompile(`for (\S+) mentioned`).FindStringSubmatch(niah.Query)[1]
			if strings.Count(niah.Context, key) != 1 || !strings.Contains(niah.Context, key+" is: "+v+".") {
				t.Fatalf("niah seed %d: key %s does not lead to the value", seed, key)
			}

			agg, _ := Generate(KindAggregate, size, seed)
			counts := map[string]int{}
			for _, r := range parseRecords(t, agg.Context) {
				counts[r.label]++
			}
			switch agg.Expected.Form {
			case FormCount:
				label := labelRE.FindStringSubmatch(agg.Query)[1]
				if counts[label] != agg.Expected.Count {
					t.Fatalf("aggregate seed %d: %d records labelled %s, expected says %d", seed, counts[label], label, agg.Expected.Count)
				}
			case FormLabel:
				top := agg.Expected.Value
				for l, n := range counts {
					if l != top && n >= counts[top] {
						t.Fatalf("aggregate seed %d: %s (%d) rivals %s (%d)", seed, l, n, top, counts[top])
					}
				}
			default:
				t.Fatalf("aggregate form %s", agg.Expected.Form)
			}

			pairs, _ := Generate(KindPairs, size, seed)
			label := labelRE.FindStringSubmatch(pairs.Query)[1]
			recs := parseRecords(t, pairs.Context)
			var want []Pair
			for i, a := range recs {
				for _, b := range recs[i+1:] {
					if a.label == label && b.label == label && a.city == b.city {
						want = append(want, NewPair(a.id, b.id))
					}
				}
			}
			if len(want) == 0 || PairsF1(want, pairs.Expected.Pairs) != 1 || len(want) != len(pairs.Expected.Pairs) {
				t.Fatalf("pairs seed %d size %d: recomputed %d pairs, expected %d", seed, size, len(want), len(pairs.Expected.Pairs))
			}
		}
	}
}

// Each task's own expected answer scores 1.
func TestExpectedScoresOne(t *testing.T) {
	for _, k := range Kinds() {
		for seed := uint64(1); seed <= 6; seed++ {
			task, _ := Generate(k, 8000, seed)
			if s := task.Score(task.Expected.String()); s != 1 {
				t.Errorf("%s seed %d: expected answer %q scores %v", k, seed, task.Expected.String(), s)
			}
			if s := task.Score(""); s != 0 && task.Expected.Form != FormPairs {
				t.Errorf("%s: empty answer scores %v", k, s)
			}
		}
	}
}

func TestGenerateRejects(t *testing.T) {
	cases := []struct {
		kind Kind
		size int
	}{{"haystack", 1000}, {KindNIAH, MinSize - 1}, {KindPairs, 0}, {KindAggregate, MaxSize + 1}}
	for _, c := range cases {
		if _, err := Generate(c.kind, c.size, 1); fault.KindOf(err) != KindInvalidTask {
			t.Errorf("%s/%d: %v", c.kind, c.size, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"20000", 20000, true}, {"200k", 200_000, true}, {"200KB", 200_000, true}, {"1m", 1_000_000, true},
		{"4MiB", 4 << 20, true}, {"64 ki", 64 << 10, true}, {"512b", 512, true},
		{"", 0, false}, {"-5", 0, false}, {"0", 0, false}, {"1.5m", 0, false}, {"lots", 0, false}, {"9999999m", 0, false},
	}
	for _, c := range cases {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v", c.in, got, err)
		}
		if err != nil && fault.KindOf(err) != KindInvalidTask {
			t.Errorf("ParseSize(%q) kind %s", c.in, fault.KindOf(err))
		}
	}
}
