package launcher

import (
	"strings"
	"sync"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file sorts every command's flags into a few groups and prints them
// under one heading per group in the command's help, in the fixed order of
// flagGroups. A flag's group is looked up when a help is printed
// (flagGroupOf), not when the tree is built: a command that prints no help
// pays nothing for it (issue 35 item 5, start-up). A command needs no
// change for its flags to be grouped, and TestFlagGroups fails on a flag
// that no rule places.

// flagGroupAnnotation is the pflag annotation a command may set on a flag
// (one value, an id of flagGroups) to place it against the table below.
const flagGroupAnnotation = "rlm.flag-group"

// The ids of the flag groups.
const (
	groupBasic         = "basic"
	groupModels        = "models"
	groupBudgets       = "budgets"
	groupTools         = "tools"
	groupObservability = "observability"
	groupDurability    = "durability"
)

// flagGroups is the order of the groups in a command's help and the
// heading of each. A command shows only the groups it has flags in.
var flagGroups = []struct {
	id, heading string
}{
	{groupBasic, "Basic Flags"},                 // what to do and on what: the command's own inputs
	{groupModels, "Model Flags"},                // which models, on which server, and how their calls are made, cached, recorded
	{groupBudgets, "Budget Flags"},              // limits on cost, tokens, calls, depth, time and concurrency
	{groupTools, "Tool and Authority Flags"},    // what the run may do: capabilities, tools, authority tier, delegation to children
	{groupObservability, "Observability Flags"}, // what the run shows: traces, OTLP, -v, streaming, JSON output
	{groupDurability, "Durability Flags"},       // what survives the process: journals, durable runs, resumption
}

// otherFlagsHeading heads the flags no rule places (none, as long as
// TestFlagGroups passes): a flag is never left out of the help.
const otherFlagsHeading = "Other Flags"

// flagGroupByName places a flag by its name. It holds every name that
// flagGroupByPrefix does not place, and a few that it would place
// otherwise. The map is built when a help first needs it, not at every
// start-up.
var flagGroupByName = sync.OnceValue(func() map[string]string {
	return map[string]string{
		// Basic: help, the command's inputs and the shape of its work.
		"help":          groupBasic,
		"version":       groupBasic,
		"context":       groupBasic,
		"mode":          groupBasic, // run --mode; direct's old spelling of --projection
		"python":        groupBasic,
		"auto-share":    groupBasic, // run --mode auto's threshold
		"answer-schema": groupBasic, // the shape of the answer
		"args":          groupBasic,
		// compile, explain, search, command
		"catalog":  groupBasic,
		"input":    groupBasic,
		"options":  groupBasic,
		"queries":  groupBasic,
		"text":     groupBasic,
		"unit":     groupBasic,
		"query":    groupBasic,
		"limit":    groupBasic,
		"kb":       groupBasic,
		"trigger":  groupBasic,
		"compiled": groupBasic,
		// context's operations
		"bytes":     groupBasic,
		"lines":     groupBasic,
		"pages":     groupBasic,
		"with-text": groupBasic,
		"head":      groupBasic,
		"tail":      groupBasic,
		"count":     groupBasic,
		"regex":     groupBasic,
		// bench
		"task":         groupBasic,
		"size":         groupBasic,
		"runs":         groupBasic,
		"seed":         groupBasic,
		"methods":      groupBasic,
		"case":         groupBasic,
		"report":       groupBasic,
		"cells":        groupBasic,
		"no-python":    groupBasic,
		"suite":        groupBasic,
		"data":         groupBasic,
		"subset":       groupBasic,
		"sample":       groupBasic,
		"corpus":       groupBasic,
		"judge-prompt": groupBasic,
		// servers and converters
		"addr":             groupBasic,
		"http":             groupBasic,
		"root":             groupBasic,
		"bearer-token-env": groupBasic,
		"allow-remote":     groupBasic,
		"poll":             groupBasic,
		"cassette":         groupBasic,
		"format":           groupBasic,
		"output":           groupBasic,
		// cobra's completion commands
		"no-descriptions": groupBasic,

		// Models.
		"provider":        groupModels,
		"model":           groupModels,
		"sub-model":       groupModels,
		"fallback-model":  groupModels,
		"context-window":  groupModels,
		"compact-at":      groupModels,
		"no-compaction":   groupModels,
		"model-window":    groupModels,
		"no-auto-split":   groupModels,
		"judge-model":     groupModels,
		"base-url":        groupModels,
		"api-key-env":     groupModels,
		"temperature":     groupModels,
		"request-timeout": groupModels,
		"no-cache":        groupModels,
		"record":          groupModels,
		"replay":          groupModels,

		// Budgets (besides max-*).
		"time-limit":                  groupBudgets,
		"timeout":                     groupBudgets,
		"synthesis-reserve":           groupBudgets,
		"strict-cost":                 groupBudgets,
		"experimental-deep-recursion": groupBudgets,
		"direct-max-bytes":            groupBudgets,
		"concurrency":                 groupBudgets,
		"global-concurrency":          groupBudgets,
		"rate-limit":                  groupBudgets,
		"rate-period":                 groupBudgets,

		// Tools and authority (besides child-* and subagent-*).
		"allow":      groupTools,
		"authority":  groupTools,
		"workspace":  groupTools,
		"mcp":        groupTools,
		"skills":     groupTools,
		"projection": groupTools,
		"deny":       groupTools,
		"reason":     groupTools,

		// Observability (besides otlp-* and trace*).
		"verbose":  groupObservability,
		"progress": groupObservability,
		"stream":   groupObservability,
		"raw":      groupObservability,
		"json":     groupObservability,
		// bench report's other output formats and its cost plot
		"csv":      groupObservability,
		"markdown": groupObservability,
		"svg":      groupObservability,

		// Durability.
		"db":         groupDurability,
		"queue":      groupDurability,
		"resume":     groupDurability,
		"save":       groupDurability,
		"state-dir":  groupDurability,
		"dead-after": groupDurability,
		"grace":      groupDurability,
	}
})

// flagGroupByPrefix places the flags of a family by the start of their
// name, the first match winning; flagGroupByName is consulted first.
var flagGroupByPrefix = []struct{ prefix, group string }{
	{"max-", groupBudgets},
	{"cache", groupModels},
	{"child-", groupTools},
	{"subagent-", groupTools},
	{"otlp-", groupObservability},
	{"trace", groupObservability},
}

// flagGroupFor is the group of a flag named name by the table and the
// prefix rules, or "" when none places it.
func flagGroupFor(name string) string {
	if g, ok := flagGroupByName()[name]; ok {
		return g
	}
	for _, p := range flagGroupByPrefix {
		if strings.HasPrefix(name, p.prefix) {
			return p.group
		}
	}
	return ""
}

// flagGroupOf is f's group: its annotation, else the table's (the help
// and version flags cobra adds only when a command runs carry none), else
// "" when none places it.
func flagGroupOf(f *pflag.Flag) string {
	if g := f.Annotations[flagGroupAnnotation]; len(g) == 1 {
		return g[0]
	}
	return flagGroupFor(f.Name)
}

// knownFlagGroup reports whether id is the id of one of flagGroups.
func knownFlagGroup(id string) bool {
	for _, g := range flagGroups {
		if g.id == id {
			return true
		}
	}
	return false
}

// addGroupedFlagsFunc registers groupedFlagsFunc with cobra.
var addGroupedFlagsFunc sync.Once

// groupedFlagsFunc is the name of the usage-template function that prints
// a command's local flags by group.
const groupedFlagsFunc = "rlmGroupedFlags"

// groupFlags makes the help of every command of root's tree print its
// local flags under the group headings (flagGroupOf). The rest of the help
// (usage line, aliases, examples, subcommands, the inherited flags under
// "Global Flags") stays as cobra prints it: the usage template is cobra's
// own with its local-flags section replaced.
func groupFlags(root *cobra.Command) {
	// cobra's template functions are one map for the process: registered
	// once, so that roots built concurrently (the tests) do not write it
	// while a help is printed from it.
	addGroupedFlagsFunc.Do(func() { cobra.AddTemplateFunc(groupedFlagsFunc, groupedFlagUsages) })
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(), cobraLocalFlags, "{{"+groupedFlagsFunc+" .}}", 1))
}

// cobraLocalFlags is the section of cobra's usage template that prints a
// command's local flags under one heading (TestFlagGroupsHelp fails when a
// cobra release changes it).
const cobraLocalFlags = "\n\nFlags:\n{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}"

// groupedFlagUsages prints c's local flags as cobra does, in one section
// per group, in the order of flagGroups, each section's flags ordered as
// cobra orders them.
func groupedFlagUsages(c *cobra.Command) string {
	local := c.LocalFlags()
	sets := map[string]*pflag.FlagSet{}
	local.VisitAll(func(f *pflag.Flag) {
		g := flagGroupOf(f)
		if !knownFlagGroup(g) {
			g = ""
		}
		fs := sets[g]
		if fs == nil {
			fs = pflag.NewFlagSet(g, pflag.ContinueOnError)
			fs.SortFlags = local.SortFlags
			sets[g] = fs
		}
		fs.AddFlag(f)
	})
	var b strings.Builder
	section := func(heading string, fs *pflag.FlagSet) {
		if fs == nil {
			return
		}
		// FlagUsages leaves hidden flags out: a group of hidden flags
		// only has no section.
		if u := strings.TrimRightFunc(fs.FlagUsages(), unicode.IsSpace); u != "" {
			b.WriteString("\n\n" + heading + ":\n" + u)
		}
	}
	for _, g := range flagGroups {
		section(g.heading, sets[g.id])
	}
	section(otherFlagsHeading, sets[""])
	return b.String()
}
