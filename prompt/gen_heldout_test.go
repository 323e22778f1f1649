package prompt

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The held-out query generator. It was written, and its word lists fixed,
// before any ranking change was tuned, and nothing in the compiler was
// tuned on it: the ranking is tuned on genQuery (gen_test.go) only, and
// this generator measures how that generalizes to phrasings it never saw:
// other paraphrases and synonyms of the actions, inflections (plural
// objects, -ing and -ed verb forms), the domain's label instead of its
// name, and typos. Its random stream (seed) is separate too.

var heldOutVerbs = [][]string{ // per genActions entry, same order
	{"display", "show me every", "what are the"},
	{"retrieve", "pull up", "read"},
	{"set up a new", "open a new", "start a fresh"},
	{"edit", "alter", "tweak"},
	{"drop", "destroy", "get rid of"},
	{"query", "hunt for", "locate"},
	{"back up", "extract", "save out"},
	{"put away", "deactivate", "mothball"},
	{"sum up", "give a rundown of", "digest"},
	{"lint", "sanity check", "audit"},
	{"give access to", "forward", "collaborate on"},
	{"undelete", "revive", "roll back"},
}

// heldOutInflected are -ing and -ed forms of the action verbs.
var heldOutInflected = [][]string{
	{"listing", "listed"}, {"getting", "got"}, {"creating", "created"}, {"updating", "updated"},
	{"deleting", "deleted"}, {"searching", "searched"}, {"exporting", "exported"}, {"archiving", "archived"},
	{"summarizing", "summarized"}, {"validating", "validated"}, {"sharing", "shared"}, {"restoring", "restored"},
}

var heldOutFrames = []string{
	"hey, %s",
	"%s asap",
	"would you mind to %s?",
	"we have to %s today",
	"i want you to %s",
	"next step: %s",
}

func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "y") && !strings.HasSuffix(w, "ey"):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// typo applies one random edit (drop, double or swap adjacent letters) to
// a word of at least five letters.
func typo(w string, r *rand.Rand) string {
	if len(w) < 5 {
		return w
	}
	i := 1 + r.IntN(len(w)-2)
	switch r.IntN(3) {
	case 0:
		return w[:i] + w[i+1:]
	case 1:
		return w[:i] + w[i:i+1] + w[i:]
	default:
		return w[:i] + w[i+1:i+2] + w[i:i+1] + w[i+2:]
	}
}

// genHeldOutQuery phrases a request for tool g the way genQuery never
// does.
func genHeldOutQuery(g genTool, r *rand.Rand) string {
	var verb, object string
	switch r.IntN(3) {
	case 0, 1:
		verb = heldOutVerbs[g.action][r.IntN(3)]
		object = g.object
	default:
		verb = heldOutInflected[g.action][r.IntN(2)]
		object = g.object
	}
	if r.IntN(2) == 1 {
		object = plural(object)
	}
	where := g.domain
	if r.IntN(3) == 0 {
		for _, d := range genDomains {
			if d.name == g.domain {
				where = strings.ToLower(strings.TrimPrefix(d.label, "the "))
			}
		}
	}
	if g.product != "" {
		where = g.product + " " + where
	}
	words := strings.Fields(fmt.Sprintf("%s the %s in %s", verb, object, where))
	if r.IntN(10) < 3 {
		i := r.IntN(len(words))
		words[i] = typo(words[i], r)
	}
	return fmt.Sprintf(heldOutFrames[r.IntN(len(heldOutFrames))], strings.Join(words, " "))
}
