package prompt

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

func lexCatalog(t *testing.T, opts CatalogOptions) *Catalog {
	t.Helper()
	var tools []ToolSchema
	for _, verb := range []string{"list", "delete", "archive", "update"} {
		for _, obj := range []string{"issue", "release"} {
			tools = append(tools, ToolSchema{Name: "github_" + verb + "_" + obj, Description: "Does " + verb + " on " + obj + "s in GitHub."})
		}
	}
	tools = append(tools, ToolSchema{Name: "zorvex_github_list_issue", Description: "Lists issues in GitHub (zorvex edition)."})
	specs, err := ImportTools(tools, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalogWith(specs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLexicalMatching: inflections, built-in and host synonyms and typos
// reach the intended tool first; short unknown words never match as typos.
func TestLexicalMatching(t *testing.T) {
	plain := lexCatalog(t, CatalogOptions{})
	host := lexCatalog(t, CatalogOptions{Synonyms: [][]string{{"archive", "mothball", "put on ice"}}})
	cases := []struct {
		name, text string
		cat        *Catalog
		want       UnitID // first selected unit; "" means none
	}{
		{"inflections", "listing the issues in github", plain, "tool:github_list_issue"},
		{"past tense", "the releases we deleted on github", plain, "tool:github_delete_release"},
		{"built-in synonym", "enumerate github issues", plain, "tool:github_list_issue"},
		{"built-in synonym phrase", "show all github releases", plain, "tool:github_list_release"},
		{"typo", "delte github issue", plain, "tool:github_delete_issue"},
		{"typo swap", "upadte github release", plain, "tool:github_update_release"},
		{"host synonym unknown without the table", "mothball", plain, ""},
		{"host synonym", "mothball the github issue", host, "tool:github_archive_issue"},
		{"host synonym phrase", "put on ice the github release", host, "tool:github_archive_release"},
		{"short unknown word", "lst", plain, ""},
		{"base before variant", "list github issues", plain, "tool:github_list_issue"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.cat.Compile(context.Background(), Input{Text: tc.text}, Options{CandidateLimit: 1})
			if err != nil {
				t.Fatal(err)
			}
			var got UnitID
			if len(r.Selected) > 0 {
				got = r.Selected[0].Unit
			}
			if got != tc.want {
				t.Fatalf("%q: first %q, want %q (%+v)", tc.text, got, tc.want, r.Selected)
			}
		})
	}
}

func TestCatalogSynonyms(t *testing.T) {
	plain := lexCatalog(t, CatalogOptions{})
	syn := [][]string{{"Mothball", "archive", "archive"}}
	host := lexCatalog(t, CatalogOptions{Synonyms: syn})
	if plain.Fingerprint() == host.Fingerprint() {
		t.Fatal("synonyms are not material to the fingerprint")
	}
	want := fingerprint.MustOf(map[string]any{"synonyms": [][]string{{"archive", "mothball"}}, "units": host.Units()})
	if host.Fingerprint() != want {
		t.Fatalf("fingerprint %s, want %s", host.Fingerprint(), want)
	}
	if plain.Fingerprint() != fingerprint.MustOf(plain.Units()) {
		t.Fatal("a catalog without synonyms changed its fingerprint")
	}
	for _, bad := range [][][]string{{{"one"}}, {{"a", "!!"}}, {{"a", ""}}} {
		_, err := NewCatalogWith(nil, CatalogOptions{Synonyms: bad})
		if fe := fault.As(err); fe == nil || fe.Kind != KindInvalidSynonyms {
			t.Fatalf("%q: err %v", bad, err)
		}
	}
	f, err := DecodeCatalogFile([]byte(`{"tools":[{"name":"github_archive_issue","description":"Archive an issue."}],"synonyms":[["archive","mothball"]]}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Compile(context.Background(), Input{Text: "mothball it"}, Options{})
	if err != nil || len(r.Selected) != 1 || r.Selected[0].Unit != "tool:github_archive_issue" {
		t.Fatalf("catalog file synonyms: %+v %v", r, err)
	}
}

// TestBuiltinSynonymsHeldOut keeps the first held-out generator's
// synonyms unseen: none of its verb phrases, nor a word or run of words
// in them, is a member of the built-in synonym table, except "undelete"
// (named by issue 35) and the words "new", "get" and "check", members
// since the table's first version (the generator's "open a new", "get
// rid of" and "sanity check" were measured with them).
func TestBuiltinSynonymsHeldOut(t *testing.T) {
	allowed := map[string]bool{}
	for _, w := range []string{"undelete", "new", "get", "check"} {
		allowed[phraseKey(w)] = true
	}
	members := map[string]bool{}
	for _, g := range builtinSynonyms {
		for _, w := range g {
			members[phraseKey(w)] = true
		}
	}
	for _, vs := range heldOutVerbs {
		for _, v := range vs {
			var toks []string
			tokenize(v, func(tok string) { toks = append(toks, stem(tok)) })
			// Every contiguous run of the phrase's tokens that is a member.
			for i := range toks {
				for j := i + 1; j <= len(toks); j++ {
					k := strings.Join(toks[i:j], " ")
					if members[k] && !allowed[k] && !(j == i+1 && stopTokens[toks[i]]) {
						t.Errorf("held-out verb %q: %q is in builtinSynonyms", v, k)
					}
				}
			}
		}
	}
}
