package launcher

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm/internal/golden"
)

// groupedTree is the command tree as the binary shows it: newRootCmd with
// groupFlags, plus what cobra adds only when a command runs (the help and
// completion commands, the help and version flags).
func groupedTree() *cobra.Command {
	root := (&launcher{}).newRootCmd(nil)
	groupFlags(root)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	walkTree(root, func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.InitDefaultVersionFlag()
	})
	return root
}

// walkTree calls f on c and every command below it.
func walkTree(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walkTree(sub, f)
	}
}

// headingOf is the help heading of the group id.
func headingOf(t *testing.T, id string) string {
	t.Helper()
	for _, g := range flagGroups {
		if g.id == id {
			return g.heading
		}
	}
	t.Fatalf("no flag group %q", id)
	return ""
}

// TestFlagGroups: every flag of every command belongs to one of the
// groups.
func TestFlagGroups(t *testing.T) {
	walkTree((&launcher{}).newRootCmd(nil), func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if g := flagGroupOf(f); !knownFlagGroup(g) {
					t.Errorf("%s --%s: group %q, want one group id; place the flag in flagGroupByName (flag_groups.go)",
						c.CommandPath(), f.Name, g)
				}
			})
		}
	})
	walkTree(groupedTree(), func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !knownFlagGroup(flagGroupOf(f)) {
				t.Errorf("%s --%s has no flag group; place it in flagGroupByName (flag_groups.go)", c.CommandPath(), f.Name)
			}
		})
	})
	for name, g := range flagGroupByName() {
		if !knownFlagGroup(g) {
			t.Errorf("flagGroupByName[%q] = %q, not a group", name, g)
		}
	}
	for _, p := range flagGroupByPrefix {
		if !knownFlagGroup(p.group) {
			t.Errorf("flagGroupByPrefix %q: %q, not a group", p.prefix, p.group)
		}
	}
}

// TestFlagGroupAnnotationKept: a group a command sets itself wins over the
// table.
func TestFlagGroupAnnotationKept(t *testing.T) {
	root := &cobra.Command{Use: "x"}
	root.Flags().String("model", "", "")
	if err := root.Flags().SetAnnotation("model", flagGroupAnnotation, []string{groupBasic}); err != nil {
		t.Fatal(err)
	}
	groupFlags(root)
	if g := flagGroupOf(root.Flags().Lookup("model")); g != groupBasic {
		t.Fatalf("group of --model = %q, want %q", g, groupBasic)
	}
}

// helpSection is one section of a help text: its heading and the flags
// listed under it.
type helpSection struct {
	heading string
	flags   []string
}

// helpSections splits a help text at its headings (a line that ends with
// a colon and does not start with a space) and lists the long flag names
// under each.
func helpSections(help string) []helpSection {
	var out []helpSection
	for _, line := range strings.Split(help, "\n") {
		if strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " ") {
			out = append(out, helpSection{heading: strings.TrimSuffix(line, ":")})
			continue
		}
		if len(out) == 0 {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		name := f[0]
		if strings.HasPrefix(name, "-") && !strings.HasPrefix(name, "--") && len(f) > 1 { // "-h, --help"
			name = f[1]
		}
		if long, ok := strings.CutPrefix(name, "--"); ok {
			long, _, _ = strings.Cut(long, "[")
			cur := &out[len(out)-1]
			cur.flags = append(cur.flags, long)
		}
	}
	return out
}

// checkGroupedHelp checks the help of c: each visible local flag is listed
// once, under the heading of its group; the group headings come in the
// order of flagGroups; cobra's single "Flags" heading and the heading of
// unplaced flags are gone; the inherited flags stay under "Global Flags".
func checkGroupedHelp(t *testing.T, c *cobra.Command, help string) {
	t.Helper()
	sections := helpSections(help)
	where := map[string]string{}
	var order []int
	for _, s := range sections {
		if s.heading == "Flags" || s.heading == otherFlagsHeading {
			t.Errorf("%s: help has a %q section:\n%s", c.CommandPath(), s.heading, help)
		}
		if i := slices.IndexFunc(flagGroups, func(g struct{ id, heading string }) bool { return g.heading == s.heading }); i >= 0 {
			order = append(order, i)
		}
		for _, f := range s.flags {
			if s.heading == "Global Flags" {
				continue
			}
			if prev, dup := where[f]; dup {
				t.Errorf("%s: --%s under %q and %q", c.CommandPath(), f, prev, s.heading)
			}
			where[f] = s.heading
		}
	}
	if !slices.IsSorted(order) || len(slices.Compact(slices.Clone(order))) != len(order) {
		t.Errorf("%s: group headings out of order: %v", c.CommandPath(), order)
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if want := headingOf(t, flagGroupOf(f)); where[f.Name] != want {
			t.Errorf("%s: --%s under %q, want %q", c.CommandPath(), f.Name, where[f.Name], want)
		}
	})
	inherited := map[string]bool{}
	for _, s := range sections {
		if s.heading == "Global Flags" {
			for _, f := range s.flags {
				inherited[f] = true
			}
		}
	}
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && !inherited[f.Name] {
			t.Errorf("%s: inherited --%s not under Global Flags", c.CommandPath(), f.Name)
		}
	})
}

// TestFlagGroupsHelp checks the help of every command of the tree.
func TestFlagGroupsHelp(t *testing.T) {
	walkTree(groupedTree(), func(c *cobra.Command) {
		var out bytes.Buffer
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		c.SetOut(nil)
		checkGroupedHelp(t, c, out.String())
	})
}

// TestFlagGroupsRunHelp runs rlm run --help through the built binary:
// its flags are grouped, a few well-known ones under their headings, and
// the whole help is testdata/help_run.golden.txt (UPDATE_GOLDEN=1 rewrites
// it).
func TestFlagGroupsRunHelp(t *testing.T) {
	// Flag defaults come from the environment (RLM_MODEL, OPENAI_BASE_URL):
	// the help is the one of an environment without them.
	env := slices.DeleteFunc(binaryEnv(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return strings.HasSuffix(k, "_BASE_URL")
	})
	r := execBinary(t, builtBinary(t), nil, env, "run", "--help")
	if r.code != 0 {
		t.Fatalf("rlm run --help exited %d: %s", r.code, r.stderr)
	}
	root := groupedTree()
	run, _, err := root.Find([]string{"run"})
	if err != nil {
		t.Fatal(err)
	}
	checkGroupedHelp(t, run, r.stdout)
	sections := helpSections(r.stdout)
	for _, tt := range []struct{ flag, group string }{
		{"context", groupBasic},
		{"model", groupModels},
		{"max-cost", groupBudgets},
		{"allow", groupTools},
		{"verbose", groupObservability},
		{"db", groupDurability},
	} {
		heading := headingOf(t, tt.group)
		i := slices.IndexFunc(sections, func(s helpSection) bool { return s.heading == heading })
		if i < 0 || !slices.Contains(sections[i].flags, tt.flag) {
			t.Errorf("rlm run --help: --%s not under %q", tt.flag, heading)
		}
	}
	var headings []string
	for _, s := range sections {
		headings = append(headings, s.heading)
	}
	want := []string{"Usage"}
	for _, g := range flagGroups {
		want = append(want, g.heading)
	}
	if got := slices.DeleteFunc(slices.Clone(headings), func(h string) bool { return h == "Examples" }); !slices.Equal(got, want) {
		t.Errorf("rlm run --help headings %q, want %q (Examples aside)", headings, want)
	}
	golden.Check(t, "help_run.golden.txt", []byte(r.stdout))
}
