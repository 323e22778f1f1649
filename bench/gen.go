package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// fillerWords is the vocabulary of filler text. It holds no digits and
// none of the needle key words, so a needle is unique in its haystack.
var fillerWords = []string{
	"the", "a", "quiet", "river", "runs", "past", "old", "stone", "mill", "where",
	"children", "used", "to", "play", "every", "summer", "and", "morning", "light",
	"falls", "across", "green", "fields", "of", "barley", "while", "farmers", "talk",
	"about", "weather", "markets", "roads", "bridges", "small", "towns", "grow",
	"slowly", "over", "many", "years", "people", "walk", "along", "narrow", "paths",
	"near", "forest", "edge", "birds", "sing", "in", "tall", "trees", "wind", "moves",
	"through", "open", "windows", "bakers", "sell", "fresh", "bread", "at", "dawn",
	"travellers", "rest", "by", "warm", "fires", "stories", "are", "told", "again",
	"clouds", "drift", "above", "hills", "that", "shelter", "valley", "below",
}

// Needle keys are built from words absent from fillerWords.
var (
	keyAdjectives = []string{"amber", "cobalt", "crimson", "golden", "ivory", "jade", "scarlet", "silver", "violet", "azure"}
	keyNouns      = []string{"falcon", "otter", "lynx", "heron", "badger", "marten", "osprey", "ibex", "walrus", "condor"}
)

// Labels used by the aggregate and pairs tasks. They all have the same
// length, as do the cities, so relabelling a record keeps the size.
var (
	recordLabels = []string{"account", "billing", "general", "product", "returns", "support"}
	recordCities = []string{"Berlin", "Bogota", "Boston", "Denver", "Dublin", "Lisbon", "Madrid", "Prague", "Sydney", "Vienna", "Warsaw", "Zurich"}
)

// sentence returns one filler sentence of lo..hi words.
func sentence(rng *rand.Rand, lo, hi int) string {
	n := lo + rng.IntN(hi-lo+1)
	words := make([]string, n)
	for i := range words {
		words[i] = fillerWords[rng.IntN(len(fillerWords))]
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func genNIAH(rng *rand.Rand, size int) *Task {
	key := keyAdjectives[rng.IntN(len(keyAdjectives))] + "-" + keyNouns[rng.IntN(len(keyNouns))]
	value := fmt.Sprintf("%07d", 1_000_000+rng.IntN(9_000_000))
	needle := "One of the special magic numbers for " + key + " is: " + value + "."
	var lines []string
	total := len(needle) + 1
	for len(lines) == 0 || total < size {
		l := sentence(rng, 8, 16)
		lines = append(lines, l)
		total += len(l) + 1
	}
	at := rng.IntN(len(lines) + 1)
	lines = slices.Insert(lines, at, needle)
	return &Task{
		Context:  strings.Join(lines, "\n") + "\n",
		Query:    "What is the special magic number for " + key + " mentioned in the context? Answer with the number only.",
		Expected: Expected{Form: FormValue, Value: value},
	}
}

// record is one line of the aggregate and pairs tasks.
type record struct {
	id          int
	month, day  int
	city, label string
	user        int
	note        string
}

func (r record) String() string {
	return fmt.Sprintf("id=%d date=2025-%02d-%02d city=%s user=u%04d label=%s note=%s", r.id, r.month, r.day, r.city, r.user, r.label, r.note)
}

// genRecords generates at least min records totalling at least size bytes
// (one per line); label picks each record's label.
func genRecords(rng *rand.Rand, size, min int, label func() string) []record {
	var recs []record
	total := 0
	for len(recs) < min || total < size {
		r := record{
			id: len(recs) + 1, month: 1 + rng.IntN(12), day: 1 + rng.IntN(28),
			city: recordCities[rng.IntN(len(recordCities))], user: rng.IntN(10000),
			label: label(), note: strings.TrimSuffix(sentence(rng, 4, 10), "."),
		}
		recs = append(recs, r)
		total += len(r.String()) + 1
	}
	return recs
}

func render(recs []record) string {
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func genAggregate(rng *rand.Rand, size int) *Task {
	// Skewed label frequencies: label i has weight perm[i]+1.
	perm := rng.Perm(len(recordLabels))
	var cum []int
	sum := 0
	for _, p := range perm {
		sum += p + 1
		cum = append(cum, sum)
	}
	pick := func() string {
		x := rng.IntN(sum)
		i, _ := slices.BinarySearch(cum, x+1)
		return recordLabels[i]
	}
	mostFrequent := rng.IntN(2) == 1
	target := recordLabels[rng.IntN(len(recordLabels))]
	recs := genRecords(rng, size, 1, pick)

	counts := map[string]int{}
	for _, r := range recs {
		counts[r.label]++
	}
	top := mostCommon(counts)
	// Break a tie for first place by relabelling one runner-up record.
	for _, l := range recordLabels {
		if l != top && counts[l] == counts[top] {
			for i := range recs {
				if recs[i].label == l {
					recs[i].label = top
					counts[l]--
					counts[top]++
					break
				}
			}
		}
	}
	t := &Task{Context: render(recs)}
	if mostFrequent {
		t.Query = "Each line of the context is a record with a label (label=...). Which label occurs most often? Answer with the label only. Possible labels: " + strings.Join(recordLabels, ", ") + "."
		t.Expected = Expected{Form: FormLabel, Value: top, Labels: slices.Clone(recordLabels)}
	} else {
		t.Query = "Each line of the context is a record with a label (label=...). How many records have label=" + target + "? Answer with a single number."
		t.Expected = Expected{Form: FormCount, Count: counts[target]}
	}
	return t
}

// mostCommon returns the label with the highest count, the first in
// recordLabels order on a tie.
func mostCommon(counts map[string]int) string {
	best := recordLabels[0]
	for _, l := range recordLabels[1:] {
		if counts[l] > counts[best] {
			best = l
		}
	}
	return best
}

func genPairs(rng *rand.Rand, size int) *Task {
	target := recordLabels[rng.IntN(len(recordLabels))]
	var others []string
	for _, l := range recordLabels {
		if l != target {
			others = append(others, l)
		}
	}
	recs := genRecords(rng, size, 2, func() string { return others[rng.IntN(len(others))] })
	// About sqrt(n) records carry the target label, so the answer set grows
	// roughly linearly with the input.
	n := len(recs)
	m := min(n, max(4, int(math.Sqrt(float64(n)))+4))
	chosen := rng.Perm(n)[:m]
	slices.Sort(chosen)
	for _, i := range chosen {
		recs[i].label = target
	}
	pairs := targetPairs(recs, target)
	if len(pairs) == 0 {
		recs[chosen[1]].city = recs[chosen[0]].city
		pairs = targetPairs(recs, target)
	}
	return &Task{
		Context: render(recs),
		Query: "Each line of the context is a record with an id, a city and a label. List every pair of record ids (a, b) with a < b such that both records have label=" + target +
			" and both records have the same city. Write each pair as (a, b), separated by spaces or new lines.",
		Expected: Expected{Form: FormPairs, Pairs: pairs},
	}
}

// targetPairs returns the sorted pairs of records labelled target in the
// same city.
func targetPairs(recs []record, target string) []Pair {
	byCity := map[string][]int{}
	for _, r := range recs {
		if r.label == target {
			byCity[r.city] = append(byCity[r.city], r.id)
		}
	}
	var out []Pair
	for _, ids := range byCity {
		for i := range ids {
			for j := i + 1; j < len(ids); j++ {
				out = append(out, NewPair(ids[i], ids[j]))
			}
		}
	}
	slices.SortFunc(out, comparePairs)
	return out
}

func comparePairs(x, y Pair) int {
	if x.A != y.A {
		return x.A - y.A
	}
	return x.B - y.B
}
