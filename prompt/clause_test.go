package prompt

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestTextClauses(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // clauses joined by " | "
	}{
		{"list the issues in github", "list the issues in github"},
		{"archive the roles in aws and then open up the queues there", "archive the roles in aws | open up the queues there"},
		{"list issues, then delete releases; also update labels", "list issues | delete releases | update labels"},
		{"first X, after that Y", "first x | that y"},
		{"a & b\nc: d! e? f", "a | b | c | d | e | f"},
		{"fetch example.com and v1.2 now. Then stop", "fetch example com | v1 2 now | stop"},
		{"and, then , also", ""},
		{"", ""},
		{"1 and 2 and 3 and 4 and 5 and 6 and 7 and 8 and 9 and 10", "1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 9 10"},
	} {
		var parts []string
		for _, c := range textClauses(tc.text) {
			parts = append(parts, strings.Join(c, " "))
		}
		if got := strings.Join(parts, " | "); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestClauseFrontier: with per-clause ranking, each intent of a
// multi-intent text is kept within a small candidate limit although the
// cross-clause combinations (a verb of one clause with the object of the
// other) score as well on the whole text; single-clause text keeps the
// ordinary frontier.
func TestClauseFrontier(t *testing.T) {
	c := lexCatalog(t, CatalogOptions{})
	for _, tc := range []struct {
		name, text string
		limit      int
		want       []UnitID
	}{
		{"two intents", "archive the issues and then update the releases in github", 2,
			[]UnitID{"tool:github_archive_issue", "tool:github_update_release"}},
		{"two intents, reversed", "update the releases in github, archive the issues", 2,
			[]UnitID{"tool:github_archive_issue", "tool:github_update_release"}},
		{"three intents", "list the issues in github, delete the releases and then archive the issues", 3,
			[]UnitID{"tool:github_archive_issue", "tool:github_delete_release", "tool:github_list_issue"}},
		{"one intent", "list the issues in github", 1, []UnitID{"tool:github_list_issue"}},
	} {
		r, err := c.Compile(context.Background(), Input{Text: tc.text}, Options{CandidateLimit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(r.ActiveUnits)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: active %v, want %v", tc.name, got, tc.want)
		}
	}
}
