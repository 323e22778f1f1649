package launcher

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm"
)

// exampleTree is the command tree as newRootCmd builds it, with the
// examples and completions added (again: both are idempotent).
func exampleTree() *cobra.Command {
	root := (&launcher{}).newRootCmd(nil)
	addExamples(root)
	addCompletions(root)
	return root
}

// Every runnable command shows an Example section, every entry of the
// table names a command of the tree, and every command line of every
// example parses: its subcommand exists, its flags exist (and are not
// deprecated), its arguments and required flags satisfy the command. No
// command runs.
func TestHelpExamples(t *testing.T) {
	root := exampleTree()
	paths := map[string]bool{}
	walkCommands(root, func(c *cobra.Command) {
		paths[c.CommandPath()] = true
		if c.Hidden || c.Deprecated != "" {
			return
		}
		if c.Runnable() && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no example: add it to commandExamples (help_examples.go)", c.CommandPath())
		}
		lines := 0
		for _, line := range strings.Split(c.Example, "\n") {
			for _, args := range invocations(line) {
				lines++
				if err := parseExample(args); err != nil {
					t.Errorf("%s: example %q: %v", c.CommandPath(), strings.TrimSpace(line), err)
				}
			}
		}
		if c.Example != "" && lines == 0 {
			t.Errorf("%s: no line of its example runs rlm", c.CommandPath())
		}
	})
	for path := range commandExamples() {
		if !paths[path] {
			t.Errorf("commandExamples has %q, which is no command of the tree", path)
		}
	}
}

// The built binary shows the examples in a command's help: newRootCmd
// calls addExamples.
func TestHelpShowsExamples(t *testing.T) {
	for _, args := range [][]string{{"run", "--help"}, {"help", "context", "search"}, {"completion", "bash", "--help"}} {
		res := runBinary(t, nil, nil, args...)
		path := "rlm " + strings.Join(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "help" || a == "--help" }), " ")
		want := "Examples:\n  " + commandExamples()[path][0]
		if res.code != 0 || !strings.Contains(res.stdout, want) {
			t.Errorf("rlm %s (exit %d) lacks %q: newRootCmd (main.go) must call addExamples(root) once the commands are added\n%s",
				strings.Join(args, " "), res.code, want, res.stdout)
		}
	}
}

// parseExample parses the command line args (args[0] is "rlm") as Execute
// would up to running it, on a tree of its own (parsing sets flags).
func parseExample(args []string) error {
	root := exampleTree()
	cmd, rest, err := root.Find(args[1:])
	if err != nil {
		return err
	}
	if !cmd.Runnable() {
		return fmt.Errorf("%s is not runnable", cmd.CommandPath())
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	var deprecated []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Deprecated != "" || len(f.Annotations[deprecatedAnnotation]) > 0 {
			deprecated = append(deprecated, "--"+f.Name)
		}
	})
	if len(deprecated) > 0 {
		return fmt.Errorf("uses deprecated flags %v", deprecated)
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return err
	}
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return err
	}
	return cmd.ValidateFlagGroups()
}

// invocations returns the rlm command lines of one example line: the
// pipeline segments (split at |, ||, &&, ;, &) whose first word, after
// VAR=value assignments, is rlm, without their redirections. A comment
// line has none.
func invocations(line string) [][]string {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	var out [][]string
	var seg []string
	redirect := false
	flush := func() {
		for len(seg) > 0 && strings.Contains(seg[0], "=") && !strings.HasPrefix(seg[0], "-") {
			seg = seg[1:]
		}
		if len(seg) > 0 && seg[0] == "rlm" {
			out = append(out, seg)
		}
		seg = nil
	}
	for _, tok := range shellWords(line) {
		switch {
		case tok.op && strings.ContainsAny(tok.text, "<>"):
			redirect = true
		case tok.op:
			flush()
		case redirect:
			redirect = false // the redirection's target
		default:
			seg = append(seg, tok.text)
		}
	}
	flush()
	return out
}

// shellToken is a word or an unquoted operator (a run of |&;<>).
type shellToken struct {
	text string
	op   bool
}

// shellWords splits a line as a POSIX shell does, simply: single quotes
// keep everything, double quotes keep everything but a backslash before
// " \ $ `, a backslash outside quotes keeps the next character, and a run
// of the operator characters |&;<> outside quotes is a token of its own
// (with a file descriptor number before it: 2>&1).
func shellWords(line string) []shellToken {
	var out []shellToken
	var word strings.Builder
	inWord := false
	emit := func() {
		if inWord {
			out = append(out, shellToken{text: word.String()})
		}
		word.Reset()
		inWord = false
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t':
			emit()
		case r == '\'':
			inWord = true
			for i++; i < len(rs) && rs[i] != '\''; i++ {
				word.WriteRune(rs[i])
			}
		case r == '"':
			inWord = true
			for i++; i < len(rs) && rs[i] != '"'; i++ {
				if rs[i] == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[i+1]) {
					i++
				}
				word.WriteRune(rs[i])
			}
		case r == '\\' && i+1 < len(rs):
			inWord = true
			i++
			word.WriteRune(rs[i])
		case strings.ContainsRune("|&;<>", r):
			op := ""
			if inWord && strings.Trim(word.String(), "0123456789") == "" {
				op = word.String() // a file descriptor: 2>
				word.Reset()
				inWord = false
			}
			emit()
			for ; i < len(rs) && strings.ContainsRune("|&;<>", rs[i]); i++ {
				op += string(rs[i])
			}
			i--
			out = append(out, shellToken{text: op, op: true})
		default:
			inWord = true
			word.WriteRune(r)
		}
	}
	emit()
	return out
}

func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want [][]string
	}{
		{`rlm run --context app.log "Which service failed first?"`, [][]string{{"rlm", "run", "--context", "app.log", "Which service failed first?"}}},
		{`cat app.log | rlm run --context - 'a "quoted" q' > out.txt 2>&1`, [][]string{{"rlm", "run", "--context", "-", `a "quoted" q`}}},
		{`RLM_MODEL=gpt-4o rlm demo && rlm trace view x\ y.jsonl`, [][]string{{"rlm", "demo"}, {"rlm", "trace", "view", "x y.jsonl"}}},
		{`rlm chat --context a.log < questions.txt`, [][]string{{"rlm", "chat", "--context", "a.log"}}},
		{`"rlm" search --query "a \"b\" \$c"`, [][]string{{"rlm", "search", "--query", `a "b" $c`}}},
		{`# rlm run --nope`, nil},
		{`source <(rlm completion bash)`, nil},
	} {
		if got := invocations(tc.line); !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("invocations(%s) = %q, want %q", tc.line, got, tc.want)
		}
	}
	// The test catches what it is for.
	for _, bad := range []string{"rlm run --no-such-flag x", "rlm run", "rlm no-such-command", "rlm context slice f 0"} {
		if err := parseExample(invocations(bad)[0]); err == nil {
			t.Errorf("parseExample(%q) accepted it", bad)
		}
	}
}

// The values of every enumerated flag complete, through the built binary
// (cobra's hidden __complete command, as the shell scripts call it), and
// each completed value is one a run Spec accepts.
func TestFlagCompletion(t *testing.T) {
	t.Parallel()
	if got, _ := completeBinary(t, []string{"run", "--mode", ""}); got == nil {
		t.Fatal("the binary completes no flag value: Run (launcher.go) must call addCompletions(root) for cobra's __complete")
	}
	for _, tc := range []struct {
		args []string // the command line up to the flag; its value is completed from ""
		want []string // nil: no fixed values (the shell completes file names)
	}{
		{[]string{"run", "--mode"}, []string{"plan", "code", "auto"}},
		{[]string{"submit", "--mode"}, []string{"plan", "code", "auto"}},
		{[]string{"mcp", "serve", "--mode"}, []string{"plan", "code", "auto"}},
		{[]string{"demo", "--mode"}, []string{"plan", "code"}},
		{[]string{"direct", "--mode"}, []string{"compiled", "all_tools"}},
		{[]string{"run", "--python"}, []string{"embedded", "pyodide"}},
		{[]string{"mcp", "serve", "--python"}, []string{"embedded", "pyodide"}},
		{[]string{"bench", "code-corpus", "--python"}, nil}, // an interpreter's path, not a choice
		{[]string{"run", "--provider"}, []string{"openai", "anthropic"}},
		{[]string{"worker", "--provider"}, []string{"openai", "anthropic"}},
		{[]string{"run", "--authority"}, []string{"approve_diff", "allow_once", "allow_session", "dangerous"}},
		{[]string{"tools", "call", "fs_read", "--authority"}, []string{"approve_diff", "allow_once", "allow_session", "dangerous"}},
		{[]string{"bench", "run", "--task"}, []string{"niah", "aggregate", "pairs", "chart-pdf"}},
		{[]string{"bench", "run", "--methods"}, []string{"rlm", "rlm-code", "direct", "auto", "summary", "rlm-no-subcalls", "codeact", "codeact-subcalls"}},
		{[]string{"trace", "export", "--format"}, []string{"rlm-jsonl"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			got, directive := completeBinary(t, append(tc.args, ""))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("rlm __complete %s '' = %q (directive %d), want %q", strings.Join(tc.args, " "), got, directive, tc.want)
			}
			if tc.want != nil && directive&cobra.ShellCompDirectiveNoFileComp == 0 {
				t.Errorf("directive %d lets the shell complete file names", directive)
			}
			for _, v := range got {
				if err := specAccepts(tc.args, v); err != nil {
					t.Errorf("completed %s, which a Spec refuses: %v", v, err)
				}
			}
		})
	}
	// A prefix narrows; a list flag completes the value after the last
	// comma, offers no value twice and leaves no space for the next one.
	t.Run("prefix and lists", func(t *testing.T) {
		if got, _ := completeBinary(t, []string{"run", "--mode", "c"}); !slices.Equal(got, []string{"code"}) {
			t.Errorf("--mode c: %q", got)
		}
		got, directive := completeBinary(t, []string{"bench", "run", "--methods", "rlm,"})
		if !slices.Equal(got, []string{"rlm,rlm-code", "rlm,direct", "rlm,auto", "rlm,summary", "rlm,rlm-no-subcalls", "rlm,codeact", "rlm,codeact-subcalls"}) || directive&cobra.ShellCompDirectiveNoSpace == 0 {
			t.Errorf("--methods rlm,: %q (directive %d)", got, directive)
		}
		cases, _ := completeBinary(t, []string{"bench", "conformance", "--case", "answer_d"})
		if !slices.Equal(cases, []string{"answer_direct"}) {
			t.Errorf("--case answer_d: %q", cases)
		}
	})
}

// completeBinary runs rlm __complete ARGS... and returns the completed
// values (without their descriptions) and the directive.
func completeBinary(t *testing.T, args []string) ([]string, cobra.ShellCompDirective) {
	t.Helper()
	res := runBinary(t, nil, nil, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if res.code != 0 {
		t.Fatalf("rlm __complete %q exited %d: %s", args, res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	last := lines[len(lines)-1]
	var directive cobra.ShellCompDirective
	if _, err := fmt.Sscanf(last, ":%d", &directive); err != nil {
		t.Fatalf("no directive line in %q", res.stdout)
	}
	var values []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, directive
}

// specAccepts checks a completed value of the flag args ends with against
// the run Spec's own validation, where the flag is a Spec field.
func specAccepts(args []string, v string) error {
	var sp rlm.Spec
	switch flag := args[len(args)-1]; {
	case flag == "--mode" && args[0] == "direct":
		sp.Direct.Projection = v
	case flag == "--mode":
		sp.Mode = v
	case flag == "--python":
		sp.Python = v
	case flag == "--provider":
		sp.Provider = v
	case flag == "--authority":
		sp.Authority = v
	default:
		return nil
	}
	return sp.Validate()
}
