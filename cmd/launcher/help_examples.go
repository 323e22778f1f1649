package launcher

import (
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/prompt"
)

// This file holds two manners of the command line that are not any one
// command's business: the Example section of every command's help
// (addExamples) and the completion of flag values drawn from a fixed set
// (addCompletions). Both walk the finished command tree: newRootCmd calls
// addExamples after the last AddCommand, and Run calls addCompletions only
// when a shell asks for completions (cobra's __complete), so that no other
// command line pays for it at start. The commands themselves need no
// change when a flag moves from one to another.

// commandExamples is the Example section of each command's help, keyed by
// the command path ("rlm run", "rlm context search"). Every line that
// starts with "rlm " (or is piped into one) is a command line the tree
// parses: TestHelpExamples splits it like a shell and parses its flags and
// arguments, so an example cannot name a flag that does not exist.
// The map is built when a command tree is (not by rlm --version).
var commandExamples = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"rlm": {
			"# Answer a question over a large file (key from OPENAI_API_KEY)",
			`rlm run --context app.log "Which service failed first?"`,
			"# A recorded walkthrough: no key, no network",
			"rlm demo",
			"# Shell completion of commands, flags and flag values",
			"rlm completion bash > ~/.local/share/bash-completion/completions/rlm",
		},
		"rlm run": {
			`rlm run --context app.log "Which service failed first, and why?"`,
			"# The model writes Python in the sandboxed REPL; spend at most $0.50",
			`rlm run --mode code --max-cost 0.5 --context logs/ "Count the 5xx responses per endpoint"`,
			"# A local OpenAI-compatible server (Ollama), the trace written as JSON lines",
			`rlm run --base-url http://localhost:11434/v1 --model llama3.1 --trace run.jsonl --context notes.md "List the decisions"`,
			`cat app.log | rlm run --context - --json "How many requests timed out?"`,
			"# When gpt-4o fails past its retries (5xx, 429, a prompt over its context), gpt-4o-mini answers",
			`rlm run --model gpt-4o --fallback-model gpt-4o-mini --context app.log "Summarize the incidents"`,
			"# One direct call when the input takes at most 40% of the model's window, else the RLM in code mode",
			`rlm run --mode auto --auto-share 0.4 --context notes.md --json "List the decisions"`,
			"# A local model whose window the table does not know; grandchildren allowed (depth 2)",
			`rlm run --mode auto --model qwen2.5 --context-window 32768 --max-depth 2 --context logs/ "Which service failed first?"`,
			"# A long code-mode session on a 16k-token model: older turns are summarised once the conversation takes 70% of the window",
			`rlm run --mode code --model llama3.1 --context-window 16384 --compact-at 0.7 -v --context logs/ "Count the 5xx responses per endpoint"`,
			"# No compaction: a root prompt that cannot fit the window fails before it is sent (prompt_too_large)",
			`rlm run --mode code --no-compaction --context-window 16384 --context app.log --json "List the incidents"`,
			"# A sub-model with an 8k window: sub-calls over it are re-split into pieces that fit and merged",
			`rlm run --mode code --sub-model llama3.1:8b --model-window llama3.1=8192:2048 --context big.log "Summarize every error"`,
			"# Refuse oversized sub-calls (prompt_too_large) instead of re-splitting them",
			`rlm run --mode code --no-auto-split --context big.log "Summarize every error"`,
			"# A typed answer: JSON matching incident.schema.json (answer_json in --json), 3 repairs at most",
			`rlm run --mode code --answer-schema incident.schema.json --max-repairs 3 --json --context app.log "Which service failed first, and when?"`,
		},
		"rlm direct": {
			`rlm direct --allow tool:fs_read,tool:fs_list --workspace . "What does cmd/rlm/main.go do?"`,
			`rlm direct --context app.log --allow context:search,context:slice "Which request ids failed?"`,
			"# An effectful tool: the write runs once the tier allows it",
			`rlm direct --allow tool:fs_write --authority allow_once --json "Write a TODO.md listing the open questions"`,
			`rlm direct --resume RUN_ID --allow tool:fs_write "Write a TODO.md listing the open questions"`,
			"# The final text must be JSON matching the schema",
			`rlm direct --context app.log --allow context:search --answer-schema ids.schema.json --json "Which request ids failed?"`,
		},
		"rlm chat": {
			"# One question per line on stdin, one answer per line on stdout",
			"rlm chat --context app.log < questions.txt",
			"rlm chat --context app.log --save session.json --json < questions.txt",
			"rlm chat --context app.log --resume session.json",
			"# A long session on a 32k-token model, each answer a JSON object the schema allows",
			"rlm chat --context app.log --context-window 32768 --compact-at 0.7 --answer-schema answer.schema.json --json < questions.txt",
		},
		"rlm bench": {
			"rlm bench run --task niah --size 1m --runs 3",
			"# A published benchmark from its own file: 20 LongBench-v2 CodeQA questions",
			"rlm bench run --suite longbench-v2 --data data.json --subset CodeQA --sample 20 --methods rlm-code,direct",
			"rlm bench conformance",
		},
		"rlm bench run": {
			"rlm bench run --task niah --size 1m --runs 3",
			"rlm bench run --task aggregate --methods rlm,rlm-code,direct --max-cost 2 --json",
			"# auto (direct or code, by the input's tokens) next to the fixed methods",
			"rlm bench run --task niah --size 100k --methods auto,rlm-code,direct",
			"# The harness on recorded responses: no network, figures that prove nothing about a model",
			"rlm bench run --replay bench/testdata/bench_pairs.json --task pairs --size 3000 --runs 2 --seed 2",
			"# A published benchmark read from its own file, scored as its paper scores it",
			"rlm bench run --suite longbench-v2 --data data.json --subset CodeQA --sample 20 --methods rlm-code,direct",
			"rlm bench run --suite browsecomp-plus --data queries.parquet --corpus corpus.parquet --limit 10 --judge-prompt grader.txt",
			"# A run anyone can replay (one cassette per trial and a manifest in run1/), 4 trials at once under a rate limit",
			"rlm bench run --suite longbench-v2 --data data.json --record run1 --max-concurrent-trials 4 --rate-limit gpt-4o-mini=500",
			"# Continue it after an interruption: the finished trials send no request again",
			"rlm bench run --suite longbench-v2 --data data.json --record run1 --max-concurrent-trials 4 --rate-limit gpt-4o-mini=500 --resume",
		},
		"rlm bench replay": {
			"# Run a recorded benchmark again offline (no key) and check its scores and costs",
			"rlm bench replay run1",
			"rlm bench replay run1 --json --data /elsewhere/data.json",
		},
		"rlm bench conformance": {
			"rlm bench conformance",
			"rlm bench conformance --case answer_direct,step_context_search",
			"rlm bench conformance --json --report conformance.json",
		},
		"rlm bench report": {
			"# The paper's table beside your runs: score, published figure, difference, cost quartiles",
			"rlm bench run --suite oolong --data oolong.jsonl --subset trec_coarse,131k --json > oolong.json",
			"rlm bench report oolong.json",
			"rlm bench report oolong.json pairs.json --markdown --svg cost.svg",
			"rlm bench report oolong.json --csv > table.csv",
		},
		"rlm bench code-corpus": {
			"rlm bench code-corpus corpus.json",
			"rlm bench code-corpus corpus.json --python python3.12 --cells --json",
			"rlm bench code-corpus corpus.json --no-python --timeout 30s",
		},
		"rlm command": {
			"rlm command --kb kb.json --trigger unknown --context app.log",
			"rlm command --kb kb.json --trigger unknown --context app.log --child-model gpt-4o --json",
			"rlm command compile --kb kb.json --trigger unknown > cmd.json",
		},
		"rlm command compile": {
			"rlm command compile --kb kb.json --trigger unknown > cmd.json",
			"rlm command compile --kb kb.json --trigger unknown --json",
		},
		"rlm command exec": {
			"rlm command exec --compiled cmd.json --context app.log",
			"rlm command exec --compiled cmd.json --context app.log --allow tool:rlm_subagent,context:search --json",
		},
		"rlm compile": {
			`rlm compile --catalog catalog.json --text "review the diff in src/"`,
			"rlm compile --catalog catalog.json --input input.json --options options.json",
			"rlm compile --catalog catalog.json --queries queries.json > results.jsonl",
		},
		"rlm explain": {
			`rlm explain --catalog catalog.json --text "review the diff in src/" --unit tool:git_diff`,
			`rlm explain --skills skills.json --child-skill review --child-allow context:search --text "check the patch" --unit skill:review`,
		},
		"rlm search": {
			`rlm search --catalog catalog.json --query "git diff"`,
			`rlm search --catalog catalog.json --query "read files" --limit 3 --options options.json`,
		},
		"rlm context": {
			"rlm context metadata app.log",
			"rlm context search app.log ERROR --count",
		},
		"rlm context metadata": {
			"rlm context metadata app.log",
			"rlm context metadata logs/ --json",
			"cat app.log | rlm context metadata -",
		},
		"rlm context peek": {
			"rlm context peek app.log --head 2048",
			"rlm context peek app.log --tail 500",
		},
		"rlm context slice": {
			"# 4 KiB from the start, then everything from byte 1 MiB (at most 64 KiB)",
			"rlm context slice app.log 0 4096",
			"rlm context slice app.log 1048576 0 --max-bytes 65536",
		},
		"rlm context search": {
			"rlm context search app.log ERROR",
			`rlm context search app.log 'timeout after \d+ms' --regex --max-results 20`,
			"rlm context search app.log status=503 --count",
		},
		"rlm context partition": {
			"rlm context partition app.log --lines 1000",
			"rlm context partition app.log --bytes 65536 --with-text --max-bytes 200000",
		},
		"rlm context do": {
			`rlm context do app.log '{"type":"reduce","reducer":"count"}'`,
			`rlm context do app.log '{"type":"search","pattern":"ERROR","count_only":true}'`,
			`rlm context do app.log '{"type":"partition","strategy":"lines","size":1000}'`,
		},
		"rlm demo": {
			"rlm demo",
			"rlm demo --mode code",
			"rlm demo --json --trace demo.jsonl",
		},
		"rlm mcp": {
			"rlm mcp serve --root ~/data",
		},
		"rlm mcp serve": {
			"# Over stdio, for a client that starts rlm itself",
			"rlm mcp serve --root ~/data",
			"rlm mcp serve --http 127.0.0.1:8931 --root /srv/data --mode code --trace-dir traces/",
			"# Beyond loopback only with a bearer token",
			"rlm mcp serve --http 0.0.0.0:8931 --bearer-token-env RLM_MCP_TOKEN --root /srv/data",
			"rlm mcp serve --root . --allow tool:fs_read,tool:fs_list",
		},
		"rlm submit": {
			`rlm submit --db postgres://rlm@db/rlm --context /shared/app.log "Which service failed first?"`,
			`rlm submit --db "$RLM_DB" --queue batch --mode code --context /shared/logs/ --json "Count the errors per service"`,
		},
		"rlm worker": {
			"rlm worker --db postgres://rlm@db/rlm",
			`rlm worker --db "$RLM_DB" --queue batch --concurrency 16 --rate-limit 500`,
		},
		"rlm status": {
			"rlm status --db postgres://rlm@db/rlm RUN_ID",
			`rlm status --db "$RLM_DB" RUN_ID --json`,
		},
		"rlm result": {
			"rlm result --db postgres://rlm@db/rlm RUN_ID",
			`rlm result --db "$RLM_DB" RUN_ID --json`,
		},
		"rlm serve-cassette": {
			"rlm serve-cassette --cassette session.cassette.json",
			"# Any free port: the first line on stdout is the base URL",
			"rlm serve-cassette --cassette session.cassette.json --addr 127.0.0.1:0",
		},
		"rlm tools": {
			"rlm tools list --text",
			`rlm tools call fs_read --args '{"path":"README.md"}' --allow tool:fs_read`,
		},
		"rlm tools list": {
			"rlm tools list",
			"rlm tools list --text --mcp servers.json",
		},
		"rlm approve": {
			"# What the run waits for: id, state, tool, arguments, resolved details",
			"rlm approve RUN_ID",
			"# Approve one operation, then continue the run: it runs once",
			"rlm approve RUN_ID approval_1",
			`rlm tools call fs_write --args '{"path":"notes.txt","content":"hello"}' --allow tool:fs_write --resume RUN_ID`,
			`rlm approve RUN_ID approval_2 --deny --reason "wrong file" --json`,
		},
		"rlm tools call": {
			`rlm tools call fs_read --args '{"path":"README.md"}' --allow tool:fs_read`,
			`rlm tools call fs_write --args '{"path":"notes.txt","content":"hello"}' --allow tool:fs_write --authority allow_once`,
			"# Repeat a call of an earlier run: its recorded outcome is replayed",
			`rlm tools call fs_write --args '{"path":"notes.txt","content":"hello"}' --allow tool:fs_write --resume RUN_ID`,
		},
		"rlm trace": {
			"rlm trace view run.jsonl",
			"rlm trace serve run.jsonl",
		},
		"rlm trace view": {
			"rlm trace view run.jsonl",
			"rlm trace view run.json --json",
		},
		"rlm trace serve": {
			"rlm trace serve run.jsonl",
			"rlm trace serve --addr 127.0.0.1:8080 run.jsonl other.json",
		},
		"rlm trace export": {
			"rlm trace export --format rlm-jsonl run.jsonl -o official.jsonl",
			"rlm trace export run.json > official.jsonl",
		},
		"rlm trace import": {
			"rlm trace import official.jsonl -o run.jsonl",
			"rlm trace import official.jsonl -o run.json",
		},
		"rlm help": {
			"rlm help run",
			"rlm help context search",
		},
		"rlm completion": {
			"rlm completion bash > ~/.local/share/bash-completion/completions/rlm",
			"rlm completion zsh > \"${fpath[1]}/_rlm\"",
		},
		"rlm completion bash": {
			"rlm completion bash > ~/.local/share/bash-completion/completions/rlm",
			"source <(rlm completion bash)",
		},
		"rlm completion zsh": {
			"rlm completion zsh > \"${fpath[1]}/_rlm\"",
			"rlm completion zsh --no-descriptions > \"${fpath[1]}/_rlm\"",
		},
		"rlm completion fish": {
			"rlm completion fish > ~/.config/fish/completions/rlm.fish",
			"rlm completion fish | source",
		},
		"rlm completion powershell": {
			"rlm completion powershell | Out-String | Invoke-Expression",
			"rlm completion powershell >> $PROFILE",
		},
	}
})

// addExamples sets the Example section of every command of root's tree
// that has an entry in commandExamples and no Example of its own. It adds
// cobra's help and completion commands first (as Execute would), so they
// get theirs too. Call it once the tree is complete.
func addExamples(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	walkCommands(root, func(c *cobra.Command) {
		if lines, ok := commandExamples()[c.CommandPath()]; ok && c.Example == "" {
			c.Example = "  " + strings.Join(lines, "\n  ")
		}
	})
}

// walkCommands calls f on c and every command below it, depth first.
func walkCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, f)
	}
}

// flagValues is the fixed set of values of one flag, for shell completion.
type flagValues struct {
	// flag is the flag's name.
	flag string
	// cmds are the command paths whose flag this is; empty: every command
	// with a flag of that name, except those of another entry for it and
	// those in except.
	cmds, except []string
	// list marks a flag that takes a comma-separated list (a string slice
	// flag): the value after the last comma is completed.
	list bool
	// values returns the values, with a short description each where one
	// helps (cobra.CompletionWithDesc).
	values func() []cobra.Completion
}

// flagCompletions lists the flags whose values are a fixed set. The
// values come from the packages that define them where those declare them
// (engine, authority, prompt, bench); a Spec check (rlm.Spec.Validate)
// accepts every one of them (TestFlagCompletion).
var flagCompletions = []flagValues{
	{flag: "mode", values: func() []cobra.Completion {
		return []cobra.Completion{
			cobra.CompletionWithDesc(engine.ModePlan, "the model writes validated JSON plans"),
			cobra.CompletionWithDesc(engine.ModeCode, "the model writes Python in the sandboxed REPL"),
		}
	}},
	// rlm run's --mode (and the commands sharing its flags) also takes auto.
	{flag: "mode", cmds: []string{"rlm run", "rlm submit", "rlm mcp serve"}, values: func() []cobra.Completion {
		return []cobra.Completion{
			cobra.CompletionWithDesc(engine.ModePlan, "the model writes validated JSON plans"),
			cobra.CompletionWithDesc(engine.ModeCode, "the model writes Python in the sandboxed REPL"),
			cobra.CompletionWithDesc(rlm.ModeAuto, "one direct call when the input fits in --auto-share of the window, else code"),
		}
	}},
	// rlm direct's --mode is the tool schema projection; listed under the
	// names it may go by, so a renamed flag keeps its completion.
	{flag: "mode", cmds: []string{"rlm direct"}, values: projections},
	{flag: "projection", cmds: []string{"rlm direct"}, values: projections},
	{flag: "python", except: []string{"rlm bench code-corpus"}, values: func() []cobra.Completion {
		return []cobra.Completion{
			cobra.CompletionWithDesc(engine.PythonEmbedded, "pure Go, in the binary"),
			cobra.CompletionWithDesc(engine.PythonPyodide, "CPython in WebAssembly (Node.js and pyodide)"),
		}
	}},
	{flag: "provider", values: func() []cobra.Completion {
		// The provider names have no constant; rlm.Spec.Validate holds
		// the same two.
		return []cobra.Completion{
			cobra.CompletionWithDesc("openai", "any OpenAI-compatible server"),
			cobra.CompletionWithDesc("anthropic", "the Anthropic Messages API"),
		}
	}},
	{flag: "authority", values: func() []cobra.Completion {
		out := make([]cobra.Completion, 0, len(authority.Tiers))
		for _, t := range authority.Tiers {
			out = append(out, cobra.Completion(t))
		}
		return out
	}},
	{flag: "task", cmds: []string{"rlm bench run"}, values: func() []cobra.Completion {
		var out []cobra.Completion
		for _, k := range append(bench.Kinds(), bench.DocumentKinds()...) {
			out = append(out, cobra.Completion(k))
		}
		return out
	}},
	{flag: "suite", cmds: []string{"rlm bench run"}, values: func() []cobra.Completion {
		var out []cobra.Completion
		for _, n := range suite.Names() {
			out = append(out, cobra.Completion(n))
		}
		return out
	}},
	{flag: "methods", cmds: []string{"rlm bench run"}, list: true, values: func() []cobra.Completion {
		return []cobra.Completion{
			cobra.CompletionWithDesc(string(bench.MethodRLM), "the RLM engine, plan mode"),
			cobra.CompletionWithDesc(string(bench.MethodRLMCode), "the RLM engine, code mode"),
			cobra.CompletionWithDesc(string(bench.MethodDirect), "one call holding the whole input"),
			cobra.CompletionWithDesc(string(bench.MethodAuto), "direct when the input fits in --auto-share of the window, else code mode"),
			cobra.CompletionWithDesc(string(bench.MethodSummary), "the paper's summary agent: notes over parts that fit the window"),
			cobra.CompletionWithDesc(string(bench.MethodRLMNoSubCalls), "code mode without sub-calls (llm_query refused)"),
			cobra.CompletionWithDesc(string(bench.MethodCodeAct), "the paper's CodeAct: the context in the prompt, a REPL, BM25 on BrowseComp-Plus"),
			cobra.CompletionWithDesc(string(bench.MethodCodeActSubcalls), "CodeAct with llm_query: the context in the prompt, a REPL"),
		}
	}},
	{flag: "case", cmds: []string{"rlm bench conformance"}, list: true, values: func() []cobra.Completion {
		return bench.ConformanceCaseNames()
	}},
	{flag: "format", cmds: []string{"rlm trace export"}, values: func() []cobra.Completion {
		return []cobra.Completion{formatRLMJSONL}
	}},
}

// projections are the values of rlm direct's tool schema projection.
func projections() []cobra.Completion {
	return []cobra.Completion{
		cobra.CompletionWithDesc(string(prompt.ModeCompiled), "the tools relevant to the query"),
		cobra.CompletionWithDesc(string(prompt.ModeAllTools), "every tool, a stable prompt prefix"),
	}
}

// completionFor returns the entry of flagCompletions for the flag name on
// the command at path, or nil: the entry naming the command, else the
// general one unless it excepts the command.
func completionFor(path, name string) *flagValues {
	var general *flagValues
	for i := range flagCompletions {
		fv := &flagCompletions[i]
		if fv.flag != name {
			continue
		}
		if slices.Contains(fv.cmds, path) {
			return fv
		}
		if len(fv.cmds) == 0 && !slices.Contains(fv.except, path) {
			general = fv
		}
	}
	return general
}

// addCompletions registers the completion of the values of every flag in
// flagCompletions on each command of root's tree that defines it (a
// persistent flag on the command that declares it). A flag that already
// has a completion function keeps it. Call it once the tree is complete.
func addCompletions(root *cobra.Command) {
	walkCommands(root, func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			fv := completionFor(c.CommandPath(), f.Name)
			if fv == nil {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok {
				return
			}
			_ = c.RegisterFlagCompletionFunc(f.Name, fv.complete)
		})
	})
}

// complete is the cobra.CompletionFunc of fv: the values that start with
// what was typed, no file names; for a list flag, the typed list with each
// value not in it yet appended (and no space after, for the next comma).
func (fv *flagValues) complete(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	head, last := "", toComplete
	directive := cobra.ShellCompDirectiveNoFileComp
	if fv.list {
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		directive |= cobra.ShellCompDirectiveNoSpace
	}
	have := strings.Split(strings.TrimSuffix(head, ","), ",")
	var out []cobra.Completion
	for _, v := range fv.values() {
		name, _, _ := strings.Cut(v, "\t")
		if strings.HasPrefix(name, last) && !slices.Contains(have, name) {
			out = append(out, head+v)
		}
	}
	return out, directive
}
