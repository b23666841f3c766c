package determinism

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Config configures an analyzer made by New.
type Config struct {
	// Trusted lists import paths whose functions are taken as deterministic
	// without looking inside them. An entry ending in "/..." covers the
	// packages below it too.
	Trusted []string
}

// Result is what the analyzer returns for a package: the workflow functions
// it found and checked, by the names its findings use.
type Result struct {
	Workflows []string
}

// Analyzer is the analyzer with its command-line flags: -trust takes a
// comma-separated list of Config.Trusted entries.
var Analyzer = newFlagged()

func newFlagged() *analysis.Analyzer {
	trusted := new(listFlag)
	a := newAnalyzer(func() []string { return *trusted })
	a.Flags.Var(trusted, "trust", "comma-separated import paths (a trailing /... includes subpackages) whose functions are taken as deterministic")
	return a
}

// New returns an analyzer with the given configuration; golangci-lint's
// plugin uses it to pass its settings.
func New(cfg Config) *analysis.Analyzer {
	trusted := append([]string(nil), cfg.Trusted...)
	return newAnalyzer(func() []string { return trusted })
}

func newAnalyzer(trusted func() []string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: "workflowcheck",
		Doc: "report code that breaks determinism in Temporal workflow functions\n\n" +
			"It finds the workflow functions (a first parameter of type workflow.Context, or registered with " +
			"RegisterWorkflow) and follows their calls into helpers, in this package and others, reporting " +
			"time.Now and timers, native goroutines, channels and select, map iteration, math/rand and " +
			"crypto/rand, package-level mutable variables, I/O and sync primitives, each with the call path " +
			"that reaches it; and ExecuteActivity and ExecuteLocalActivity calls whose arguments do not fit the " +
			"activity function. //workflowcheck:ignore <reason> silences one statement or function.",
		URL: "https://pkg.go.dev/github.com/durable-go/sdk/contrib/tools/workflowcheck/determinism",
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, trustList(append(append([]string(nil), defaultTrusted...), trusted()...)))
		},
		FactTypes:  []analysis.Fact{new(nondeterministicFact), new(mutableGlobalFact)},
		ResultType: reflect.TypeFor[*Result](),
	}
}

// listFlag is a comma-separated flag value.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}

var _ flag.Value = (*listFlag)(nil)

// pkgAnalysis is the state of the analysis of one package.
type pkgAnalysis struct {
	pass    *analysis.Pass
	trusted trustList
	ignores *ignoreIndex
	// sdkAPI is set for the SDKs' own API packages: they are not workflow
	// code, so only functions in their _test.go files are looked at.
	sdkAPI bool

	nodes    []*funcNode // in source order
	byFunc   map[*types.Func]*funcNode
	byLit    map[*ast.FuncLit]*funcNode
	funcVars map[*types.Var]funcTarget // package variables that hold a known function

	mutated map[*types.Var]token.Pos // package variables written after initialisation
}

// funcTarget is the function a package-level variable holds: a function
// literal, or a declared function of any package.
type funcTarget struct {
	node *funcNode
	fn   *types.Func
}

func run(pass *analysis.Pass, trusted trustList) (any, error) {
	path := pass.Pkg.Path()
	if isStdlib(path) || trusted.matches(path) {
		return &Result{}, nil
	}
	a := &pkgAnalysis{
		pass:     pass,
		trusted:  trusted,
		sdkAPI:   sdkKind(path) != notSDKAPI,
		byFunc:   map[*types.Func]*funcNode{},
		byLit:    map[*ast.FuncLit]*funcNode{},
		funcVars: map[*types.Var]funcTarget{},
	}
	a.ignores = buildIgnoreIndex(pass)
	a.mutated = findMutatedGlobals(pass)
	if !a.sdkAPI {
		for v, pos := range a.mutated {
			pass.ExportObjectFact(v, &mutableGlobalFact{WrittenAt: a.location(pos)})
		}
	}
	a.buildNodes()
	for i := 0; i < len(a.nodes); i++ { // scanning appends the literals it meets
		a.scan(a.nodes[i])
	}
	a.checkActivityArgs()
	result := a.report()
	if !a.sdkAPI {
		a.exportFacts()
	}
	return result, nil
}

// A funcNode is a function body: a declared function or method, or a
// function literal.
type funcNode struct {
	name  string      // in paths within this package: "helper", "(*T).M", "Outer.func1"
	qname string      // in paths from other packages: "pkg.helper", "(*pkg.T).M"
	fn    *types.Func // nil for function literals
	sig   *types.Signature
	body  *ast.BlockStmt
	// literals counts the function literals written directly inside, to
	// name them as the Go toolchain does.
	literals int

	findings []localFinding
	edges    []edge
}

// A localFinding is an operation in a function's own body that breaks
// determinism.
type localFinding struct {
	pos        token.Pos
	what, hint string
}

// An edge is a call from a function: to a function of this package, to a
// function literal written inside it (inline: no step in the path), or to
// a function of another package that its fact says is not deterministic.
type edge struct {
	pos    token.Pos
	to     *funcNode
	inline bool
	remote *types.Func
	fact   *nondeterministicFact
}

func (a *pkgAnalysis) isTestFile(pos token.Pos) bool {
	return strings.HasSuffix(a.pass.Fset.File(pos).Name(), "_test.go")
}

// buildNodes makes a node for every function declaration and for every
// function literal that initialises a package-level variable.
func (a *pkgAnalysis) buildNodes() {
	info := a.pass.TypesInfo
	for _, file := range a.pass.Files {
		if a.sdkAPI && !a.isTestFile(file.Pos()) {
			continue
		}
		for _, decl := range file.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				fn, _ := info.Defs[decl.Name].(*types.Func)
				if decl.Body == nil || fn == nil || a.ignores.coversFunc(decl) {
					continue
				}
				name, qname := funcNames(fn)
				n := &funcNode{name: name, qname: qname, fn: fn, sig: fn.Type().(*types.Signature), body: decl.Body}
				a.nodes = append(a.nodes, n)
				a.byFunc[fn] = n
			case *ast.GenDecl:
				if decl.Tok == token.VAR && !a.ignores.covers(decl.Pos()) {
					a.varInitializers(decl)
				}
			}
		}
	}
}

// varInitializers makes nodes for the function literals in package-level
// variable declarations, and notes the variables that hold a function
// and are never assigned again, so that calls through them are followed.
func (a *pkgAnalysis) varInitializers(decl *ast.GenDecl) {
	info := a.pass.TypesInfo
	for _, spec := range decl.Specs {
		vs := spec.(*ast.ValueSpec)
		if a.ignores.covers(vs.Pos()) {
			continue
		}
		for i, value := range vs.Values {
			var holder *types.Var
			if len(vs.Names) == len(vs.Values) {
				holder, _ = info.Defs[vs.Names[i]].(*types.Var)
			}
			name := vs.Names[0].Name
			if holder != nil {
				name = holder.Name()
			}
			if _, written := a.mutated[holder]; holder != nil && !written {
				switch v := ast.Unparen(value).(type) {
				case *ast.Ident, *ast.SelectorExpr:
					if fn := referencedFunc(info, v); fn != nil {
						a.funcVars[holder] = funcTarget{fn: fn}
					}
				}
			}
			count := 0
			ast.Inspect(value, func(n ast.Node) bool {
				lit, ok := n.(*ast.FuncLit)
				if !ok {
					return true
				}
				node := a.literalNode(lit, nil)
				if ast.Unparen(value) == lit && holder != nil {
					node.name, node.qname = holder.Name(), a.pass.Pkg.Name()+"."+holder.Name()
					if _, written := a.mutated[holder]; !written {
						a.funcVars[holder] = funcTarget{node: node}
					}
				} else {
					count++
					node.name = fmt.Sprintf("%s.func%d", name, count)
					node.qname = a.pass.Pkg.Name() + "." + node.name
				}
				return false
			})
		}
	}
}

// literalNode makes the node of a function literal written inside parent
// (nil for a package-level initializer), named as the Go toolchain names
// closures: Outer.func1, and Outer.func1.1 inside that.
func (a *pkgAnalysis) literalNode(lit *ast.FuncLit, parent *funcNode) *funcNode {
	if n, ok := a.byLit[lit]; ok {
		return n
	}
	sig, _ := a.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	n := &funcNode{sig: sig, body: lit.Body}
	if parent != nil {
		parent.literals++
		sep := ".func"
		if parent.fn == nil {
			sep = "."
		}
		n.name = fmt.Sprintf("%s%s%d", parent.name, sep, parent.literals)
		n.qname = fmt.Sprintf("%s%s%d", parent.qname, sep, parent.literals)
	}
	a.nodes = append(a.nodes, n)
	a.byLit[lit] = n
	return n
}

// funcNames returns how paths show a function: bare within its package,
// qualified by the package name from others.
func funcNames(fn *types.Func) (local, qualified string) {
	pkg := fn.Pkg().Name()
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return fn.Name(), pkg + "." + fn.Name()
	}
	named := receiverNamed(recv.Type())
	if named == nil { // a method of an interface type
		if iface, ok := types.Unalias(recv.Type()).(*types.Named); ok {
			named = iface
		} else {
			return fn.Name(), pkg + "." + fn.Name()
		}
	}
	typeName := named.Obj().Name()
	if _, ptr := types.Unalias(recv.Type()).(*types.Pointer); ptr {
		return "(*" + typeName + ")." + fn.Name(), "(*" + pkg + "." + typeName + ")." + fn.Name()
	}
	return typeName + "." + fn.Name(), pkg + "." + typeName + "." + fn.Name()
}

// referencedFunc returns the function an identifier or qualified
// identifier names, or nil.
func referencedFunc(info *types.Info, e ast.Expr) *types.Func {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok {
			if fn, ok := sel.Obj().(*types.Func); ok && sel.Kind() != types.FieldVal {
				return fn.Origin() // a method value or method expression
			}
			return nil
		}
		id = e.Sel
	default:
		return nil
	}
	if fn, ok := info.Uses[id].(*types.Func); ok {
		return fn.Origin()
	}
	return nil
}

// location is how findings name a place in another package's code:
// "dir/file.go:12".
func (a *pkgAnalysis) location(pos token.Pos) string {
	p := a.pass.Fset.Position(pos)
	return fmt.Sprintf("%s/%s:%d", filepath.Base(filepath.Dir(p.Filename)), filepath.Base(p.Filename), p.Line)
}

// isPackageLevel reports whether v is a package-level variable.
func isPackageLevel(v *types.Var) bool {
	return v.Pkg() != nil && !v.IsField() && v.Parent() == v.Pkg().Scope()
}
