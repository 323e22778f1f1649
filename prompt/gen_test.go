package prompt

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rlm-go/rlm/capability"
)

// A generator of realistic tool catalogs and of queries whose intended tool
// is known, for benchmarks and the selection-quality measurement.

var genDomains = []struct {
	name, label string
	objects     []string
}{
	{"git", "the local git repository", []string{"branch", "commit", "diff", "tag", "remote", "stash"}},
	{"github", "GitHub", []string{"issue", "pull_request", "release", "workflow", "gist", "label"}},
	{"docker", "Docker", []string{"container", "image", "volume", "network"}},
	{"kubernetes", "the Kubernetes cluster", []string{"pod", "deployment", "service", "namespace", "secret", "node"}},
	{"postgres", "PostgreSQL", []string{"table", "query", "index", "schema", "role"}},
	{"redis", "Redis", []string{"key", "stream", "channel"}},
	{"s3", "Amazon S3", []string{"bucket", "object", "policy"}},
	{"slack", "Slack", []string{"message", "channel", "reaction", "thread", "user"}},
	{"email", "the mailbox", []string{"message", "draft", "attachment", "folder"}},
	{"calendar", "the calendar", []string{"event", "invite", "reminder", "availability"}},
	{"jira", "Jira", []string{"ticket", "sprint", "board", "epic", "comment"}},
	{"confluence", "Confluence", []string{"page", "space", "comment"}},
	{"files", "the workspace", []string{"file", "directory", "symlink", "permission"}},
	{"shell", "the shell", []string{"command", "process", "environment"}},
	{"browser", "the headless browser", []string{"page", "screenshot", "cookie", "tab"}},
	{"weather", "the weather service", []string{"forecast", "alert", "observation"}},
	{"maps", "the maps service", []string{"route", "place", "geocode"}},
	{"stripe", "Stripe", []string{"payment", "customer", "refund", "subscription", "invoice"}},
	{"crm", "the CRM", []string{"contact", "lead", "opportunity", "account"}},
	{"analytics", "the analytics warehouse", []string{"report", "dashboard", "metric", "funnel"}},
	{"logs", "the log store", []string{"entry", "stream", "query"}},
	{"alerts", "the alerting system", []string{"alert", "silence", "incident", "rule"}},
	{"dns", "DNS", []string{"record", "zone"}},
	{"npm", "the npm registry", []string{"package", "version", "dependency"}},
	{"terraform", "Terraform", []string{"plan", "state", "workspace", "module"}},
	{"aws", "AWS", []string{"instance", "lambda", "queue", "role"}},
	{"pdf", "PDF documents", []string{"document", "page", "form"}},
	{"images", "the image library", []string{"image", "thumbnail", "album"}},
	{"translate", "the translation service", []string{"text", "glossary", "language"}},
	{"notes", "the notebook", []string{"note", "tag", "notebook"}},
	{"todo", "the task list", []string{"task", "project", "label"}},
	{"spreadsheet", "spreadsheets", []string{"sheet", "cell", "range", "chart"}},
	{"figma", "Figma", []string{"file", "frame", "component", "comment"}},
	{"zoom", "Zoom", []string{"meeting", "recording", "participant"}},
	{"sms", "the SMS gateway", []string{"message", "number"}},
	{"vault", "the secrets vault", []string{"secret", "lease", "token"}},
}

var genActions = []struct {
	verb     string
	synonyms []string
	template string
}{
	{"list", []string{"show all", "enumerate"}, "List %ss in %s, with filters and pagination."},
	{"get", []string{"fetch", "look up"}, "Get one %s from %s by id and return its fields."},
	{"create", []string{"make a new", "add a"}, "Create a new %s in %s from the given fields."},
	{"update", []string{"modify", "change"}, "Update an existing %s in %s; only given fields change."},
	{"delete", []string{"remove", "erase"}, "Delete a %s from %s permanently after confirmation."},
	{"search", []string{"find", "look for"}, "Search %ss in %s by free text and return the best matches."},
	{"export", []string{"dump", "download a copy of"}, "Export %ss from %s as CSV or JSON."},
	{"archive", []string{"shelve", "retire"}, "Archive a %s in %s so it no longer shows by default."},
	{"summarize", []string{"give an overview of", "recap"}, "Summarize recent %s activity in %s."},
	{"validate", []string{"check", "verify"}, "Validate a %s in %s against its rules and report problems."},
	{"share", []string{"send", "grant access to"}, "Share a %s in %s with other people or teams."},
	{"restore", []string{"recover", "bring back"}, "Restore a deleted or archived %s in %s."},
}

var genExtras = []string{
	"Returns JSON with ids, timestamps and status fields.",
	"Requires an authenticated account with the right scope.",
	"Results are cached for a minute.",
	"Large results are truncated; use pagination.",
	"Respects the workspace's rate limits.",
	"Times are reported in UTC.",
	"Fails if the caller lacks permission.",
	"Safe to retry.",
}

var genQueryFrames = []string{
	"could you %s for me",
	"please %s",
	"I need to %s before the standup",
	"%s, thanks",
	"can we %s right now",
	"help me %s quickly",
}

// genTool is one generated tool and its query ingredients.
type genTool struct {
	schema  ToolSchema
	domain  string
	product string // rare word naming a variant integration, "" for the base
	object  string
	action  int
}

func pseudoWord(r *rand.Rand) string {
	cons, vows := "bcdfghklmnprstvz", "aeiou"
	var b strings.Builder
	for range 3 {
		b.WriteByte(cons[r.IntN(len(cons))])
		b.WriteByte(vows[r.IntN(len(vows))])
	}
	return b.String()
}

// genCatalog returns n tools. The first combinations are base tools
// (domain_action_object); beyond them, variant integrations repeat the
// combinations under a rare product word (zorvex_github_list_issue).
func genCatalog(n int, seed uint64) []genTool {
	r := rand.New(rand.NewPCG(seed, 7))
	var combos [][3]int
	for d, dom := range genDomains {
		for a := range genActions {
			for o := range dom.objects {
				combos = append(combos, [3]int{d, a, o})
			}
		}
	}
	r.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
	out := make([]genTool, 0, n)
	products := map[string]bool{}
	var product string
	for i := 0; len(out) < n; i++ {
		k := i % len(combos)
		if k == 0 && i > 0 {
			for product = pseudoWord(r); products[product]; product = pseudoWord(r) {
			}
			products[product] = true
		}
		cb := combos[k]
		dom, act := genDomains[cb[0]], genActions[cb[1]]
		obj := dom.objects[cb[2]]
		objText := strings.ReplaceAll(obj, "_", " ")
		name := dom.name + "_" + act.verb + "_" + obj
		label := dom.label
		if product != "" {
			name = product + "_" + name
			label = dom.label + " (" + product + " edition)"
		}
		desc := fmt.Sprintf(act.template, objText, label) + " " + genExtras[r.IntN(len(genExtras))]
		out = append(out, genTool{
			schema: ToolSchema{
				Name: name, Description: desc, Capability: "tool:" + dom.name, Effect: "read",
				Parameters: []byte(`{"type":"object","properties":{"id":{"type":"string","description":"identifier"},"limit":{"type":"integer"}},"required":["id"]}`),
			},
			domain: dom.name, product: product, object: objText, action: cb[1],
		})
	}
	return out
}

// genQuery phrases a request for tool g: half the time with the action's
// verb, otherwise with a synonym, and with the product word for variants.
func genQuery(g genTool, r *rand.Rand) string {
	act := genActions[g.action]
	verb := act.verb
	if r.IntN(2) == 1 {
		verb = act.synonyms[r.IntN(len(act.synonyms))]
	}
	where := g.domain
	if g.product != "" {
		where = g.product + " " + g.domain
	}
	core := fmt.Sprintf("%s the %s in %s", verb, g.object, where)
	return fmt.Sprintf(genQueryFrames[r.IntN(len(genQueryFrames))], core)
}

func genSpecs(tools []genTool) ([]Spec, capability.Set) {
	schemas := make([]ToolSchema, len(tools))
	caps := map[string]bool{}
	for i, g := range tools {
		schemas[i] = g.schema
		caps[g.schema.Capability] = true
	}
	specs, err := ImportTools(schemas, ImportOptions{AlwaysVisibleTools: []string{schemas[0].Name}})
	if err != nil {
		panic(err)
	}
	var capList []string
	for c := range caps {
		capList = append(capList, c)
	}
	return specs, capability.MustSet(capList...)
}
