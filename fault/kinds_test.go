package fault_test

// The tests in this file read the module's Go source (go/parser, no type
// checker) and check the rule "each error kind is declared once, in the
// package that produces it, and listed in docs/errors.md":
//
//   - a kind is declared as a constant of type fault.Kind with a string
//     literal value; any other spelling in non-test code (a string literal
//     passed to fault.New, Newf or Wrap, a fault.Kind("...") conversion, a
//     fault.Error{Kind: "..."} literal) fails TestKindSpelling;
//   - a spelling declared twice fails TestKindDeclaredOnce;
//   - a declared kind no non-test code refers to fails TestKindProduced;
//   - docs/errors.md is generated from the declarations (kind, declaring
//     constant, the phases it is produced in, its comment): a stale page fails
//     TestKindIndex. Regenerate it with
//     UPDATE_GOLDEN=1 go test ./fault -run TestKindIndex.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/internal/golden"
)

// kindDecl is one constant of type fault.Kind.
type kindDecl struct {
	Kind string // the spelling
	Pkg  string // import path relative to the module ("tool", "model/openai")
	Name string // constant name
	Pos  string // file:line relative to the module root
	Doc  string // first sentence of its comment
}

// srcPkg is one package of the module.
type srcPkg struct {
	rel   string // import path relative to the module ("" for the root)
	fset  *token.FileSet
	files []*ast.File
	paths []string
}

type moduleSrc struct {
	module string
	root   string
	pkgs   map[string]*srcPkg // by relative import path
	kinds  []kindDecl
	phases map[string]string // "pkg.Name" -> phase spelling
	bad    []string          // kind spellings other than a typed constant
	used   map[string]bool   // "pkg.Name" of kind constants referred to outside their declaration
	prod   map[string]map[string]bool
	msg    map[string]string // kind -> message of a site producing it
}

var loadModule = sync.OnceValues(func() (*moduleSrc, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	m := &moduleSrc{root: root, pkgs: map[string]*srcPkg{}, phases: map[string]string{}, used: map[string]bool{}, prod: map[string]map[string]bool{}, msg: map[string]string{}}
	for _, line := range strings.Split(string(gomod), "\n") {
		if s, ok := strings.CutPrefix(line, "module "); ok {
			m.module = strings.TrimSpace(s)
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		p := m.pkgs[rel]
		if p == nil {
			p = &srcPkg{rel: rel, fset: fset}
			m.pkgs[rel] = p
		}
		p.files = append(p.files, f)
		fr, _ := filepath.Rel(root, path)
		p.paths = append(p.paths, filepath.ToSlash(fr))
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.scan()
	return m, nil
})

// imports maps a file's import names to module-relative package paths
// (only packages of the module).
func (m *moduleSrc) imports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		rel, ok := strings.CutPrefix(path, m.module+"/")
		if !ok {
			continue
		}
		name := rel[strings.LastIndex(rel, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		out[name] = rel
	}
	return out
}

// isFaultType reports whether e names fault.<typ> in a file of package pkg.
func isFaultType(e ast.Expr, pkg string, imps map[string]string, typ string) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return pkg == "fault" && x.Name == typ
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && imps[id.Name] == "fault" && x.Sel.Name == typ
	}
	return false
}

// ref resolves an identifier or pkg.Name selector to "pkg.Name".
func ref(e ast.Expr, pkg string, imps map[string]string) string {
	switch x := e.(type) {
	case *ast.Ident:
		return pkg + "." + x.Name
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if rel, ok := imps[id.Name]; ok {
				return rel + "." + x.Sel.Name
			}
		}
	}
	return ""
}

func firstSentence(cg *ast.CommentGroup, name string) string {
	if cg == nil {
		return ""
	}
	s := strings.Join(strings.Fields(cg.Text()), " ")
	s = strings.TrimPrefix(s, name+": ")
	s = strings.TrimPrefix(s, name+" ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// site is a call that builds a *fault.Error: its phase and kind expressions.
type site struct {
	phase, kind ast.Expr
}

// faultSite returns the phase and kind expressions of a fault.New, Newf,
// Wrap call or of a fault.Error composite literal.
func faultSite(n ast.Node, pkg string, imps map[string]string) (site, bool) {
	switch x := n.(type) {
	case *ast.CallExpr:
		var fn string
		switch f := x.Fun.(type) {
		case *ast.SelectorExpr:
			if id, ok := f.X.(*ast.Ident); ok && imps[id.Name] == "fault" {
				fn = f.Sel.Name
			}
		case *ast.Ident:
			if pkg == "fault" {
				fn = f.Name
			}
		}
		switch fn {
		case "New", "Newf":
			if len(x.Args) >= 2 {
				return site{x.Args[0], x.Args[1]}, true
			}
		case "Wrap":
			if len(x.Args) >= 3 {
				return site{x.Args[1], x.Args[2]}, true
			}
		}
	case *ast.CompositeLit:
		if x.Type != nil && isFaultType(x.Type, pkg, imps, "Error") {
			var s site
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					switch k, _ := kv.Key.(*ast.Ident); {
					case k == nil:
					case k.Name == "Phase":
						s.phase = kv.Value
					case k.Name == "Kind":
						s.kind = kv.Value
					}
				}
			}
			return s, s.kind != nil
		}
	}
	return site{}, false
}

// helper is a function that passes one of its parameters on as the kind
// (and maybe another as the phase) of a fault it builds.
type helper struct {
	kindArg, phaseArg int    // parameter indexes; phaseArg -1 when phase is fixed
	phase             string // the fixed phase
}

func (m *moduleSrc) scan() {
	kindByRef := map[string]*kindDecl{}
	pkgNames := slices.Sorted(func(yield func(string) bool) {
		for k := range m.pkgs {
			if !yield(k) {
				return
			}
		}
	})
	// Pass 1: declarations of kinds and phases.
	var phaseAlias = map[string]string{} // "pkg.Name" -> "pkg.Name" it is set to
	for _, rel := range pkgNames {
		p := m.pkgs[rel]
		pkg := rel[strings.LastIndex(rel, "/")+1:]
		if rel == "" {
			pkg = ""
		}
		for i, f := range p.files {
			imps := m.imports(f)
			if pkg == "fault" {
				imps = map[string]string{}
			}
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					if vs.Type == nil {
						continue
					}
					isKind := isFaultType(vs.Type, pkg, imps, "Kind")
					isPhase := isFaultType(vs.Type, pkg, imps, "Phase")
					for j, name := range vs.Names {
						if j >= len(vs.Values) {
							continue
						}
						key := rel + "." + name.Name
						lit, ok := vs.Values[j].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							if isPhase {
								phaseAlias[key] = ref(vs.Values[j], rel, imps)
							}
							continue
						}
						val, _ := strconv.Unquote(lit.Value)
						switch {
						case isPhase:
							m.phases[key] = val
						case isKind:
							doc := vs.Doc
							if doc == nil {
								doc = vs.Comment
							}
							if doc == nil && len(gd.Specs) == 1 {
								doc = gd.Doc
							}
							line := p.fset.Position(name.Pos()).Line
							m.kinds = append(m.kinds, kindDecl{Kind: val, Pkg: rel, Name: name.Name,
								Pos: fmt.Sprintf("%s:%d", p.paths[i], line), Doc: firstSentence(doc, name.Name)})
						}
					}
				}
			}
		}
	}
	for k, v := range phaseAlias {
		if ph, ok := m.phases[v]; ok {
			m.phases[k] = ph
		}
	}
	for i := range m.kinds {
		k := &m.kinds[i]
		kindByRef[k.Pkg+"."+k.Name] = k
	}
	message := func(kind string, args []ast.Expr, after int) {
		for _, a := range args[min(after+1, len(args)):] {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING && m.msg[kind] == "" {
				m.msg[kind], _ = strconv.Unquote(lit.Value)
				return
			}
		}
	}
	produce := func(kind, phase string) {
		if m.prod[kind] == nil {
			m.prod[kind] = map[string]bool{}
		}
		m.prod[kind][phase] = true
	}
	// Pass 2: references, bad spellings, production sites and helpers.
	helpers := map[string]helper{} // "pkg.Func", "pkg.*.Method" or "pkg.Func.closure"
	// A call made inside a function: who is called, with which arguments,
	// and what the caller's parameters and local kind variables are, so
	// that pass 3 can follow kinds through helpers of helpers.
	type call struct {
		fn     []string // keys the callee may have, most specific first
		args   []ast.Expr
		rel    string
		imps   map[string]string
		caller string         // key of the calling function
		params map[string]int // the caller's parameters by name
		locals map[string][]string
		funcs  []string // per argument: the key of a function passed as it, or ""
	}
	var calls []call
	for _, rel := range pkgNames {
		p := m.pkgs[rel]
		pkg := rel[strings.LastIndex(rel, "/")+1:]
		for i, f := range p.files {
			imps := m.imports(f)
			if pkg == "fault" {
				imps = map[string]string{}
			}
			declared := map[*ast.Ident]bool{}
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
					for _, spec := range gd.Specs {
						vs := spec.(*ast.ValueSpec)
						for j, n := range vs.Names {
							declared[n] = true
							if j < len(vs.Values) {
								if r := ref(vs.Values[j], rel, imps); kindByRef[r] != nil {
									m.bad = append(m.bad, fmt.Sprintf("%s:%d: %s is a second name for kind %s (%q)", p.paths[i], p.fset.Position(n.Pos()).Line, n.Name, r, kindByRef[r].Kind))
								}
							}
						}
					}
				}
			}
			where := func(n ast.Node) string {
				return fmt.Sprintf("%s:%d", p.paths[i], p.fset.Position(n.Pos()).Line)
			}
			// Kind references.
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && imps[id.Name] != "" {
						if r := ref(x, rel, imps); kindByRef[r] != nil {
							m.used[r] = true
						}
						return false
					}
				case *ast.Ident:
					if r := rel + "." + x.Name; kindByRef[r] != nil && !declared[x] {
						m.used[r] = true
					}
				case *ast.CallExpr:
					if len(x.Args) == 1 && isFaultType(x.Fun, pkg, imps, "Kind") {
						if lit, ok := x.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							m.bad = append(m.bad, where(x)+": fault.Kind("+lit.Value+")")
						}
					}
				}
				return true
			})
			// visit walks one function body (a declared function, or a
			// function literal bound to a local name, which is walked as
			// a function of its own keyed fnKey.name).
			var visit func(fnKey string, ft *ast.FuncType, body *ast.BlockStmt)
			visit = func(fnKey string, ft *ast.FuncType, body *ast.BlockStmt) {
				params := map[string]int{}
				n := 0
				for _, fl := range ft.Params.List {
					for _, nm := range fl.Names {
						params[nm.Name] = n
						n++
					}
					if len(fl.Names) == 0 {
						n++
					}
				}
				locals := map[string][]string{} // local variable -> kind constants assigned to it
				closures := map[string]string{} // local function name -> its key
				ast.Inspect(body, func(n ast.Node) bool {
					if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
						for j, l := range as.Lhs {
							id, ok := l.(*ast.Ident)
							if !ok {
								continue
							}
							if fl, ok := as.Rhs[j].(*ast.FuncLit); ok {
								closures[id.Name] = fnKey + "." + id.Name
								visit(fnKey+"."+id.Name, fl.Type, fl.Body)
								return false
							}
							if r := ref(as.Rhs[j], rel, imps); kindByRef[r] != nil {
								locals[id.Name] = append(locals[id.Name], r)
							}
						}
					}
					if c, ok := n.(*ast.CallExpr); ok {
						var keys []string
						switch f := c.Fun.(type) {
						case *ast.Ident:
							if k, ok := closures[f.Name]; ok {
								keys = append(keys, k)
							}
							if i, ok := params[f.Name]; ok {
								keys = append(keys, fmt.Sprintf("%s#%d", fnKey, i)) // a function passed in
							}
							keys = append(keys, rel+"."+f.Name)
						case *ast.SelectorExpr:
							if id, ok := f.X.(*ast.Ident); ok && imps[id.Name] != "" {
								keys = append(keys, imps[id.Name]+"."+f.Sel.Name)
							} else {
								keys = append(keys, rel+".*."+f.Sel.Name)
								// A method of a value of an imported
								// package (p.call.Fail: a helper of
								// model/internal/httpcall).
								for _, ip := range slices.Sorted(maps.Values(imps)) {
									if ip != rel {
										keys = append(keys, ip+".*."+f.Sel.Name)
									}
								}
							}
						}
						if keys != nil {
							funcs := make([]string, len(c.Args))
							for j, a := range c.Args {
								if id, ok := a.(*ast.Ident); ok {
									if k, ok := closures[id.Name]; ok {
										funcs[j] = k
									} else if _, ok := params[id.Name]; !ok {
										funcs[j] = rel + "." + id.Name
									}
								}
							}
							calls = append(calls, call{keys, c.Args, rel, imps, fnKey, params, locals, funcs})
						}
					}
					s, ok := faultSite(n, pkg, imps)
					if !ok {
						return true
					}
					if lit, ok := s.kind.(*ast.BasicLit); ok && lit.Kind == token.STRING && lit.Value != `""` {
						m.bad = append(m.bad, where(n)+": kind "+lit.Value+" spelled as a literal")
						return true
					}
					phase := ""
					phaseArg := -1
					if s.phase != nil {
						phase = m.phases[ref(s.phase, rel, imps)]
						if id, ok := s.phase.(*ast.Ident); ok && phase == "" {
							if i, ok := params[id.Name]; ok {
								phaseArg = i
							}
						}
					}
					kinds := []*kindDecl{kindByRef[ref(s.kind, rel, imps)]}
					if id, ok := s.kind.(*ast.Ident); ok && kinds[0] == nil {
						if i, ok := params[id.Name]; ok && (phase != "" || phaseArg >= 0) {
							helpers[fnKey] = helper{kindArg: i, phaseArg: phaseArg, phase: phase}
						}
						kinds = kinds[:0]
						for _, r := range locals[id.Name] {
							kinds = append(kinds, kindByRef[r])
						}
					}
					for _, k := range kinds {
						if k == nil {
							continue
						}
						if c, ok := n.(*ast.CallExpr); ok {
							message(k.Kind, c.Args, slices.Index(c.Args, s.kind))
						}
						if phase != "" {
							produce(k.Kind, phase)
						}
					}
					return true
				})
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fnKey := rel + "." + fd.Name.Name
				if fd.Recv != nil {
					fnKey = rel + ".*." + fd.Name.Name
				}
				visit(fnKey, fd.Type, fd.Body)
			}
		}
	}
	// Pass 3: kinds passed to helpers, and helpers of helpers (a function
	// that passes its kind parameter on to a helper is one), to a fixed
	// point.
	hasHelper := func(k string) bool { _, ok := helpers[k]; return ok }
	callee := func(c call) (helper, bool) {
		for _, k := range c.fn {
			if h, ok := helpers[k]; ok {
				return h, true
			}
		}
		return helper{}, false
	}
	for changed := true; changed; {
		changed = false
		for _, c := range calls {
			// A helper passed as an argument makes calls of that
			// parameter inside the callee calls of the helper.
			for j, fk := range c.funcs {
				if h, ok := helpers[fk]; ok && fk != "" {
					for _, k := range c.fn {
						if pk := fmt.Sprintf("%s#%d", k, j); !hasHelper(pk) {
							helpers[pk] = h
							changed = true
						}
					}
				}
			}
			h, ok := callee(c)
			if _, known := helpers[c.caller]; !ok || known || h.kindArg >= len(c.args) {
				continue
			}
			id, ok := c.args[h.kindArg].(*ast.Ident)
			if !ok {
				continue
			}
			ki, ok := c.params[id.Name]
			if !ok {
				continue
			}
			nh := helper{kindArg: ki, phaseArg: -1, phase: h.phase}
			if h.phaseArg >= 0 && h.phaseArg < len(c.args) {
				nh.phase = m.phases[ref(c.args[h.phaseArg], c.rel, c.imps)]
				if pid, ok := c.args[h.phaseArg].(*ast.Ident); ok && nh.phase == "" {
					if pi, ok := c.params[pid.Name]; ok {
						nh.phaseArg = pi
					}
				}
			}
			if nh.phase != "" || nh.phaseArg >= 0 {
				helpers[c.caller] = nh
				changed = true
			}
		}
	}
	for _, c := range calls {
		h, ok := callee(c)
		if !ok || h.kindArg >= len(c.args) {
			continue
		}
		arg := c.args[h.kindArg]
		refs := []string{ref(arg, c.rel, c.imps)}
		if id, ok := arg.(*ast.Ident); ok {
			refs = append(refs, c.locals[id.Name]...)
		}
		phase := h.phase
		if h.phaseArg >= 0 && h.phaseArg < len(c.args) {
			phase = m.phases[ref(c.args[h.phaseArg], c.rel, c.imps)]
		}
		for _, r := range refs {
			k := kindByRef[r]
			if k == nil {
				continue
			}
			message(k.Kind, c.args, h.kindArg)
			if phase != "" {
				produce(k.Kind, phase)
			}
		}
	}
	sort.Slice(m.kinds, func(i, j int) bool {
		a, b := m.kinds[i], m.kinds[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Pos < b.Pos
	})
}

func module(t *testing.T) *moduleSrc {
	t.Helper()
	m, err := loadModule()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.kinds) < 100 {
		t.Fatalf("found only %d kind declarations: is the scanner broken?", len(m.kinds))
	}
	return m
}

func TestKindDeclaredOnce(t *testing.T) {
	m := module(t)
	by := map[string][]kindDecl{}
	for _, k := range m.kinds {
		by[k.Kind] = append(by[k.Kind], k)
	}
	for _, kind := range slices.Sorted(func(yield func(string) bool) {
		for k := range by {
			if !yield(k) {
				return
			}
		}
	}) {
		if ds := by[kind]; len(ds) > 1 {
			var at []string
			for _, d := range ds {
				at = append(at, d.Pkg+"."+d.Name+" ("+d.Pos+")")
			}
			t.Errorf("kind %q is declared %d times: %s; declare it once, in the lowest package that produces it, and refer to that constant", kind, len(ds), strings.Join(at, ", "))
		}
	}
}

func TestKindSpelling(t *testing.T) {
	for _, b := range module(t).bad {
		t.Errorf("%s: declare each kind once, as a fault.Kind constant where it is produced, and use that constant", b)
	}
}

func TestKindProduced(t *testing.T) {
	m := module(t)
	for _, k := range m.kinds {
		if !m.used[k.Pkg+"."+k.Name] {
			t.Errorf("kind %q (%s.%s, %s) is declared but no non-test code refers to it: produce it or delete it", k.Kind, k.Pkg, k.Name, k.Pos)
		}
	}
}

// TestKindIndex checks docs/errors.md, the one list of error kinds,
// against the declarations.
func TestKindIndex(t *testing.T) {
	m := module(t)
	var b bytes.Buffer
	b.WriteString(indexHead)
	for _, k := range m.kinds {
		phases := slices.Sorted(func(yield func(string) bool) {
			for p := range m.prod[k.Kind] {
				if !yield(p) {
					return
				}
			}
		})
		ph := "—"
		if len(phases) > 0 {
			ph = strings.Join(phases, ", ")
		}
		pkg := k.Pkg
		if pkg == "" {
			pkg = "(root)"
		}
		doc := k.Doc
		if doc == "" && m.msg[k.Kind] != "" {
			doc = "\"" + strings.ReplaceAll(m.msg[k.Kind], "|", `\|`) + "\""
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s.%s` | %s |\n", k.Kind, ph, pkg[strings.LastIndex(pkg, "/")+1:], k.Name, doc)
	}
	path := filepath.Join(m.root, "docs", "errors.md")
	if golden.Update() {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		hl, wl := strings.Split(string(have), "\n"), strings.Split(b.String(), "\n")
		for _, l := range wl {
			if !slices.Contains(hl, l) {
				t.Errorf("docs/errors.md lacks %s", l)
			}
		}
		for _, l := range hl {
			if !slices.Contains(wl, l) {
				t.Errorf("docs/errors.md has stale %s", l)
			}
		}
		t.Error("docs/errors.md is stale: run UPDATE_GOLDEN=1 go test ./fault -run TestKindIndex")
	}
}

const indexHead = `# Error kinds

Every failure rlm reports is a ` + "`fault.Error`" + ` with a phase, a kind, a message,
detail fields and an optional hint; its JSON form is
` + "`" + `{"phase","kind","message","detail","hint"}` + "`" + ` (see the fault package). Tests and
scripts branch on **kind** (and phase), never on message text. This page is the
one list of kinds: one row per kind, in the package that declares it.

Rules (checked by the tests in fault/kinds_test.go, which read the source):

- Each kind spelling is declared once, as a ` + "`fault.Kind`" + ` constant, in the package that
  produces it; a kind produced by several packages lives in the lowest of them
  (or in package fault when it is cross-cutting: ` + "`cancelled`, `timeout`, `io_error`, ..." + `),
  and the others refer to that constant. Kinds are never spelled as literals.
- A kind no code produces is deleted.
- A kind is a sentinel: ` + "`errors.Is(err, capability.KindDenied)`" + ` reports whether any
  ` + "`fault.Error`" + ` in err's chain has that kind (` + "`errors.Is(err, &fault.Error{Phase: p, Kind: k})`" + `
  also checks the phase).
- This page is generated from the declarations; after adding, removing or
  re-documenting a kind run ` + "`UPDATE_GOLDEN=1 go test ./fault -run TestKindIndex`" + `.

The phase column lists the phases the kind is produced in, as far as the
source shows it: a fault built with a constant phase directly, through a
helper that takes the kind as a parameter (or a helper of such a helper, a
local function, or a function passed as an argument), or from a local
variable the kind was assigned to; "—" means the phase is chosen at run time
(for example a provider's kind that its shared HTTP code reports in the
provider's phase). The meaning
is the constant's comment or, for an undocumented constant, the message of
a site that produces it (in quotes). Packages' own pages describe when each
kind happens.

| kind | phase | declared as | meaning |
|---|---|---|---|
`
