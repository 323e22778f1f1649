package translate

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// codeModeNames are the names repl predeclares in code mode (REPL_API.md and
// HELPERS.md), used to resolve translated cells.
var codeModeNames = strings.Fields(`context history llm_query llm_query_batched rlm_query rlm_query_batched
	call_tool SHOW_VARS FINAL FINAL_VAR print re json math collections
	_rlm_fmt _rlm_format _rlm_import _rlm_try _rlm_raise _rlm_unbound _rlm_method _rlm_percent _rlm_need
	sum round isinstance abs map filter next divmod pow chr ord
	Exception ValueError KeyError IndexError TypeError ZeroDivisionError RuntimeError
	AttributeError NameError StopIteration AssertionError NotImplementedError`)

// TestCorpus measures how many model-written cells of an external corpus
// parse and resolve after translation. It runs only when RLM_CODE_CORPUS
// names the corpus file (never part of the normal suite).
//
//	RLM_CODE_CORPUS=/path/corpus.json go test -run TestCorpus -v ./repl/internal/translate/
func TestCorpus(t *testing.T) {
	path := os.Getenv("RLM_CODE_CORPUS")
	if path == "" {
		t.Skip("set RLM_CODE_CORPUS to the corpus.json file to measure")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cells []struct {
		ID       string `json:"id"`
		Code     string `json:"code"`
		Traj     string `json:"traj"`
		Step     int    `json:"step"`
		PyParses bool   `json:"py_parses"`
	}
	if err := json.Unmarshal(b, &cells); err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].Traj != cells[j].Traj {
			return cells[i].Traj < cells[j].Traj
		}
		return cells[i].Step < cells[j].Step
	})
	pre := map[string]bool{}
	for _, n := range codeModeNames {
		pre[n] = true
	}
	universal := func(n string) bool { _, ok := starlark.Universe[n]; return ok }
	lineNum := regexp.MustCompile(`^line \d+: `)
	causes := map[string]int{}
	uses := map[string]int{}
	badImports := map[string]int{}
	importRe := regexp.MustCompile(`_rlm_import\("([^".]+)`)
	supportedModules := map[string]bool{"re": true, "json": true, "math": true, "collections": true}
	undefinedNames := map[string]int{}
	total, plain, ok, okLenient := 0, 0, 0, 0
	defined := map[string]map[string]bool{} // per trajectory: globals of earlier cells
	for _, c := range cells {
		if !c.PyParses {
			continue
		}
		total++
		earlier := defined[c.Traj]
		if earlier == nil {
			earlier = map[string]bool{}
			defined[c.Traj] = earlier
		}
		if f, err := FileOptions().Parse("cell.py", c.Code, 0); err == nil {
			if resolve.File(f, func(n string) bool { return pre[n] || earlier[n] || !pyBuiltins[n] }, universal) == nil {
				plain++
			}
		}
		res, err := Translate(c.Code)
		if err != nil {
			msg := lineNum.ReplaceAllString(err.Error(), "")
			if i := strings.Index(msg, " ("); i > 0 {
				msg = msg[:i]
			}
			causes["translate/parse: "+msg]++
			if testing.Verbose() && os.Getenv("RLM_CODE_CORPUS_SHOW") != "" {
				t.Logf("%s: %v", c.ID, err)
			}
			continue
		}
		for _, h := range helperNames {
			if strings.Contains(res.Source, h+"(") {
				uses[h]++
			}
		}
		for _, mm := range importRe.FindAllStringSubmatch(res.Source, -1) {
			if !supportedModules[mm[1]] {
				badImports[mm[1]]++
			}
		}
		f, err := FileOptions().Parse("cell.py", res.Source, 0)
		if err != nil {
			t.Errorf("%s: translated output does not parse: %v", c.ID, err)
			continue
		}
		for _, st := range f.Stmts {
			topNames(st, earlier)
		}
		strictErr := resolve.File(f, func(n string) bool { return pre[n] }, universal)
		if strictErr == nil {
			ok++
			okLenient++
			continue
		}
		f2, _ := FileOptions().Parse("cell.py", res.Source, 0)
		var undef []string
		lenErr := resolve.File(f2, func(n string) bool { return pre[n] || earlier[n] || !pyBuiltins[n] }, universal)
		if lenErr == nil {
			okLenient++
			continue
		}
		for _, e := range lenErr.(resolve.ErrorList) {
			if strings.HasPrefix(e.Msg, "undefined: ") {
				undef = append(undef, strings.TrimPrefix(e.Msg, "undefined: "))
			} else {
				causes["resolve: "+e.Msg]++
			}
		}
		seen := map[string]bool{}
		for _, n := range undef {
			if !seen[n] {
				seen[n] = true
				undefinedNames[n]++
			}
		}
		if len(undef) > 0 {
			causes["resolve: Python builtin missing: "+strings.Join(undef, ", ")]++
		}
	}
	t.Logf("cells with py_parses: %d", total)
	t.Logf("plain Starlark parse+resolve (no translation): %d (%.1f%%)", plain, pct(plain, total))
	t.Logf("translated parse+resolve, code-mode names only: %d (%.1f%%)", ok, pct(ok, total))
	t.Logf("translated parse+resolve, other undefined names taken as stubbed scaffold tools / earlier-cell variables: %d (%.1f%%)", okLenient, pct(okLenient, total))
	t.Logf("residual causes (cells not resolving even leniently):")
	for _, kv := range ranked(causes) {
		t.Logf("  %4d  %s", kv.n, kv.k)
	}
	t.Logf("cells using each helper after translation:")
	for _, kv := range ranked(uses) {
		t.Logf("  %4d  %s", kv.n, kv.k)
	}
	t.Logf("imports of modules code mode lacks (occurrences; fail at run time):")
	for _, kv := range ranked(badImports) {
		t.Logf("  %4d  %s", kv.n, kv.k)
	}
	t.Logf("undefined names (cells):")
	for i, kv := range ranked(undefinedNames) {
		if i >= 40 {
			break
		}
		t.Logf("  %4d  %s", kv.n, kv.k)
	}
}

type kv struct {
	k string
	n int
}

func ranked(m map[string]int) []kv {
	var out []kv
	for k, n := range m {
		out = append(out, kv{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].k < out[j].k
	})
	return out
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// topNames adds the global names a top-level statement binds.
func topNames(st syntax.Stmt, into map[string]bool) {
	var bind func(e syntax.Expr)
	bind = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			into[e.Name] = true
		case *syntax.TupleExpr:
			for _, x := range e.List {
				bind(x)
			}
		case *syntax.ListExpr:
			for _, x := range e.List {
				bind(x)
			}
		case *syntax.ParenExpr:
			bind(e.X)
		}
	}
	switch st := st.(type) {
	case *syntax.AssignStmt:
		bind(st.LHS)
	case *syntax.DefStmt:
		into[st.Name.Name] = true
	case *syntax.ForStmt:
		bind(st.Vars)
		for _, s := range st.Body {
			topNames(s, into)
		}
	case *syntax.WhileStmt:
		for _, s := range st.Body {
			topNames(s, into)
		}
	case *syntax.IfStmt:
		for _, s := range st.True {
			topNames(s, into)
		}
		for _, s := range st.False {
			topNames(s, into)
		}
	}
}

var _ = fmt.Sprintf

var helperNames = strings.Fields("_rlm_fmt _rlm_format _rlm_import _rlm_try _rlm_raise _rlm_method _rlm_percent pow set sum isinstance next")

// pyBuiltins are Python builtin names; a cell using one that code mode lacks
// fails, while any other undefined name is taken as a scaffold tool or a
// variable of an earlier cell (stubbed by the corpus command).
var pyBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
		classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset
		getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max
		memoryview min next object oct open ord pow print property range repr reversed round set setattr slice
		sorted staticmethod str sum super tuple type vars zip __import__ __name__ __file__
		Exception BaseException ValueError KeyError IndexError TypeError ZeroDivisionError RuntimeError
		AttributeError NameError StopIteration AssertionError NotImplementedError ImportError LookupError
		ArithmeticError OSError IOError FileNotFoundError UnicodeDecodeError`) {
		pyBuiltins[n] = true
	}
}
