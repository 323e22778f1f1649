package prompt

import (
	"slices"
	"strings"
)

// Per-clause scoring of multi-intent text. "Archive the roles in aws and
// then open up the queues there" asks for two tools; scored as one bag of
// words, every tool that combines a verb of one clause with an object of
// the other scores as well as the two intended ones, and with three
// intents such combinations crowd a small candidate limit. So the text is
// split into clauses, each clause's relevant units are ranked by the
// whole text's score plus twice what the clause alone matches (its
// lexical terms and the keyword and phrase triggers it contains), and
// the frontier takes the best of each clause in turn until the limit is
// full. Text with fewer than two clauses that match anything keeps the
// ordinary frontier.

// clauseWords are the conjunctions that start a clause; they belong to
// none. Punctuation ", ; : ! ? &", a line break and a full stop not
// directly between two words also end one ("example.com" and "v1.2"
// stay whole).
var clauseWords = map[string]bool{
	"and": true, "then": true, "also": true, "plus": true, "afterwards": true, "after": true, "finally": true,
}

// maxClauses bounds the clauses ranked separately; later ones join the
// last.
const maxClauses = 8

// clauseLocalWeight multiplies what a clause alone matches in its ranking.
const clauseLocalWeight = 2

// textClauses splits the text's words (tokenize order) into clauses:
// runs of words between boundaries, conjunctions left out, empty runs
// dropped, at most maxClauses.
func textClauses(text string) [][]string {
	var out [][]string
	var cur []string
	prev := 0
	tokenizeSpans(text, func(w string, start, end int) {
		gap := text[prev:start]
		prev = end
		brk := strings.ContainsAny(gap, ",;:!?&\n") || strings.Contains(gap, ".") && gap != "."
		if brk || clauseWords[w] {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
		}
		if !clauseWords[w] {
			cur = append(cur, w)
		}
	})
	if len(cur) > 0 {
		out = append(out, cur)
	}
	if len(out) > maxClauses {
		last := out[maxClauses-1]
		for _, c := range out[maxClauses:] {
			last = append(last, c...)
		}
		out = append(out[:maxClauses-1], last)
	}
	return out
}

// clauseEval is one clause of the text: its lexical terms and its tokens
// as catalog token ids (seq in order with -1 for unknown, set distinct
// and sorted), for its triggers.
type clauseEval struct {
	lex []lexTerm
	seq []int32
	set []int32
}

func (cl *clauseEval) hasAll(ids []int32) bool {
	for _, t := range ids {
		if _, ok := slices.BinarySearch(cl.set, t); !ok {
			return false
		}
	}
	return true
}

func (cl *clauseEval) hasPhrase(ids []int32) bool {
	for p := 0; p+len(ids) <= len(cl.seq); p++ {
		if cl.seq[p] == ids[0] && slices.Equal(cl.seq[p:p+len(ids)], ids) {
			return true
		}
	}
	return false
}

// evalClauses sets e.clauses to the text's clauses that match some
// catalog term, when there are at least two of them.
func (e *evaluated) evalClauses(text string) {
	c := e.c
	var out []clauseEval
	for _, words := range textClauses(text) {
		cl := clauseEval{lex: c.lexTerms(words)}
		if len(cl.lex) == 0 {
			continue
		}
		for _, w := range words {
			id, ok := c.dict[w]
			if !ok {
				cl.seq = append(cl.seq, -1)
				continue
			}
			cl.seq = append(cl.seq, id)
			cl.set = append(cl.set, id)
		}
		slices.Sort(cl.set)
		cl.set = slices.Compact(cl.set)
		out = append(out, cl)
	}
	if len(out) >= 2 {
		e.clauses = out
	}
}

// clauseFrontier chooses up to e.limit of the eligible relevant units
// for multi-clause text: each clause ranks them by their score plus
// clauseLocalWeight times what the clause alone matches, and the clauses
// take their best unit not yet chosen in turn. top is the whole text's
// frontier (its best e.limit eligible units): a unit the clause does not
// match ranks by its whole-text score, so only those in top can be among
// the clause's best, and a clause's candidates are the eligible units it
// matches plus top. The result is in rank order of the whole text.
func (c *Catalog) clauseFrontier(e *evaluated, top []rank) []rank {
	sl := e.slots
	if sl.clauseLoc == nil {
		sl.clauseLoc = make([]int64, len(c.units))
	}
	loc := sl.clauseLoc
	var touched []int32
	add := func(u int32, w int64) {
		if w > 0 && sl.eligible[u] {
			if loc[u] == 0 {
				touched = append(touched, u)
			}
			loc[u] += w
		}
	}
	whole := func(u int32) rank {
		return rank{score: sl.score[u] + int64(c.hot[u].priority), unit: u}
	}
	ranked := make([][]rank, len(e.clauses))
	for k := range e.clauses {
		cl := &e.clauses[k]
		for _, lt := range cl.lex {
			for _, p := range c.postings[lt.tok] {
				add(p.unit, int64(p.weight)*int64(lt.strength)/matchExact)
			}
		}
		for _, t := range cl.set {
			for _, r := range c.kwIdx[t] {
				if cl.hasAll(c.trigToks[r.unit][r.trig]) {
					add(r.unit, int64(c.units[r.unit].Triggers[r.trig].Weight))
				}
			}
			for _, r := range c.phIdx[t] {
				if cl.hasPhrase(c.trigToks[r.unit][r.trig]) {
					add(r.unit, int64(c.units[r.unit].Triggers[r.trig].Weight))
				}
			}
		}
		h := make(topK, 0, e.limit)
		push := func(rk rank) {
			rk.score += clauseLocalWeight * loc[rk.unit]
			if len(h) < e.limit || rk.score >= h[0].score {
				rk.miss = e.nameMiss(rk.unit)
			}
			h.push(rk, e.limit)
		}
		for _, u := range touched {
			push(whole(u))
		}
		for _, rk := range top {
			if loc[rk.unit] == 0 {
				push(whole(rk.unit))
			}
		}
		ranked[k] = h.sorted()
		for _, u := range touched {
			loc[u] = 0
		}
		touched = touched[:0]
	}
	seen := make(map[int32]bool, e.limit)
	next := make([]int, len(ranked))
	var out []rank
	for more := true; more && len(out) < e.limit; {
		more = false
		for k := range ranked {
			for next[k] < len(ranked[k]) && seen[ranked[k][next[k]].unit] {
				next[k]++
			}
			if next[k] == len(ranked[k]) || len(out) == e.limit {
				continue
			}
			u := ranked[k][next[k]].unit
			seen[u], more = true, true
			rk := whole(u)
			rk.miss = e.nameMiss(u)
			out = append(out, rk)
		}
	}
	slices.SortFunc(out, rank.cmp)
	return out
}
