package prompt

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The multi-intent held-out query generator (issue 35 item 6). Each query
// asks for two or three tools in one sentence ("X and then Y", "X, then Y
// and Z"), with synonym verbs neither genQuery nor genHeldOutQuery uses
// (including the ones issue 35 saw missed: "combine", "undelete", "open
// again", "reply to"). Its word lists and frames were fixed, and its
// baseline measured, before the synonym table grew and before per-clause
// scoring was written; nothing was tuned on it. Its random stream is its
// own.

var multiVerbs = [][]string{ // per genActions entry, same order
	{"itemize", "list out", "run through all", "tally up"},
	{"grab", "bring up", "look at", "open up"},
	{"file", "spin up", "draft", "compose"},
	{"combine", "merge", "rework", "revise"},
	{"trash", "scrap", "wipe out", "throw away"},
	{"dig up", "scan for", "track down", "search through"},
	{"download", "save off", "copy out", "print out"},
	{"stash away", "file away", "close out", "park"},
	{"condense", "boil down", "outline", "brief me on"},
	{"double-check", "review", "proofread", "vet"},
	{"reply to", "pass along", "hand over", "distribute"},
	{"undelete", "open again", "reopen", "bring back up"},
}

var multiJoins2 = []string{"%s and then %s", "%s, then %s", "%s and %s", "first %s, after that %s", "%s; also %s"}

var multiJoins3 = []string{"%s and then %s and %s", "%s, %s and then %s", "%s, then %s, then %s", "%s and %s and also %s"}

var multiFrames = []string{
	"please %s",
	"%s, thanks",
	"can you %s?",
	"today we need to %s",
	"%s when you get a chance",
}

// multiClause phrases one intent of a multi-intent query. With sameWhere
// the clause may leave out where (the previous clause named it).
func multiClause(g genTool, r *rand.Rand, sameWhere bool) string {
	verb := multiVerbs[g.action][r.IntN(len(multiVerbs[g.action]))]
	object := g.object
	if r.IntN(3) == 0 {
		object = plural(object)
	}
	if sameWhere && r.IntN(2) == 0 {
		return fmt.Sprintf("%s the %s there", verb, object)
	}
	where := g.domain
	if g.product != "" {
		where = g.product + " " + where
	}
	return fmt.Sprintf("%s the %s in %s", verb, object, where)
}

// genMultiQuery returns a query asking for two or three distinct tools of
// tools and their ids. Later intents share the first one's domain and
// product half of the time.
func genMultiQuery(tools []genTool, r *rand.Rand) (string, []UnitID) {
	n := 2
	if r.IntN(5) < 2 {
		n = 3
	}
	first := tools[r.IntN(len(tools))]
	picked := []genTool{first}
	same := make([]bool, n)
	for len(picked) < n {
		t := tools[r.IntN(len(tools))]
		s := false
		if r.IntN(2) == 0 {
			// Another tool of the first one's domain and product.
			for range 50 {
				c := tools[r.IntN(len(tools))]
				if c.domain == first.domain && c.product == first.product {
					t, s = c, true
					break
				}
			}
		}
		dup := false
		for _, p := range picked {
			dup = dup || p.schema.Name == t.schema.Name || (p.action == t.action && p.object == t.object)
		}
		if dup {
			continue
		}
		prev := picked[len(picked)-1]
		same[len(picked)] = s && prev.domain == t.domain && prev.product == t.product
		picked = append(picked, t)
	}
	clauses := make([]any, n)
	ids := make([]UnitID, n)
	for i, t := range picked {
		clauses[i] = multiClause(t, r, same[i])
		ids[i] = UnitID("tool:" + t.schema.Name)
	}
	joins := multiJoins2
	if n == 3 {
		joins = multiJoins3
	}
	core := fmt.Sprintf(joins[r.IntN(len(joins))], clauses...)
	return fmt.Sprintf(multiFrames[r.IntN(len(multiFrames))], strings.TrimSpace(core)), ids
}
