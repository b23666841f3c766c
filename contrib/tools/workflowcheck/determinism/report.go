package determinism

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// remoteRoot is a workflow function of another package registered in this
// one.
type remoteRoot struct {
	pos token.Pos
	fn  *types.Func
}

// findRoots returns the workflow functions of the package, in source
// order: those whose first parameter is a workflow.Context, and those
// passed to RegisterWorkflow or RegisterWorkflowWithOptions of an SDK
// worker, registry, replayer or test environment.
func (a *pkgAnalysis) findRoots() (roots []*funcNode, remote []remoteRoot) {
	isRoot := map[*funcNode]bool{}
	add := func(n *funcNode) {
		if n != nil && !isRoot[n] {
			isRoot[n] = true
			roots = append(roots, n)
		}
	}
	for _, n := range a.nodes {
		if n.sig != nil && n.sig.Params().Len() > 0 && isWorkflowContext(n.sig.Params().At(0).Type()) {
			add(n)
		}
	}
	info := a.pass.TypesInfo
	for _, file := range a.pass.Files {
		if a.sdkAPI && !a.isTestFile(file.Pos()) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil || a.ignores.covers(n.Pos()) {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok || fn.Pkg() == nil || sdkModule(fn.Pkg().Path()) == "" ||
				(fn.Name() != "RegisterWorkflow" && fn.Name() != "RegisterWorkflowWithOptions") {
				return true
			}
			switch arg := ast.Unparen(call.Args[0]).(type) {
			case *ast.FuncLit:
				add(a.byLit[arg])
			default:
				wf := referencedFunc(info, arg)
				switch {
				case wf == nil:
				case wf.Pkg() == a.pass.Pkg:
					add(a.byFunc[wf])
				default:
					remote = append(remote, remoteRoot{pos: call.Args[0].Pos(), fn: wf})
				}
			}
			return true
		})
	}
	slices.SortFunc(roots, func(x, y *funcNode) int { return cmp.Compare(x.body.Pos(), y.body.Pos()) })
	return roots, remote
}

// pathsFrom returns every function reachable from root with the shortest
// call path to it, as the names of the functions on the way.
func pathsFrom(root *funcNode) map[*funcNode][]string {
	paths := map[*funcNode][]string{root: {root.name}}
	queue := []*funcNode{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range n.edges {
			if e.to == nil {
				continue
			}
			if _, seen := paths[e.to]; seen {
				continue
			}
			path := paths[n]
			if !e.inline {
				path = append(slices.Clip(path), e.to.name)
			}
			paths[e.to] = path
			queue = append(queue, e.to)
		}
	}
	return paths
}

// pending is a diagnostic being chosen: of the paths that reach one
// finding, the shortest from the first workflow.
type pending struct {
	pos      token.Pos
	what     string
	hint     string
	location string // for a finding in another package
	path     []string
	root     int
}

func (p *pending) better(than *pending) bool {
	return cmp.Or(
		cmp.Compare(len(p.path), len(than.path)),
		cmp.Compare(p.root, than.root),
		cmp.Compare(strings.Join(p.path, " "), strings.Join(than.path, " ")),
	) < 0
}

func (p *pending) message() string {
	msg := p.what + ": " + strings.Join(p.path, " -> ")
	if p.location != "" {
		msg += " at " + p.location
	}
	if p.hint != "" {
		msg += "; " + p.hint
	}
	return msg
}

// report reports, for every workflow function, each finding reachable
// from it once: at the offending statement when it is in this package, or
// at the call that leaves the package towards it.
func (a *pkgAnalysis) report() *Result {
	roots, remote := a.findRoots()
	result := &Result{}
	reach := make([]map[*funcNode][]string, len(roots))
	for i, r := range roots {
		result.Workflows = append(result.Workflows, r.name)
		reach[i] = pathsFrom(r)
	}
	type key struct {
		pos            token.Pos
		what, location string
	}
	chosen := map[key]*pending{}
	offer := func(p *pending) {
		k := key{p.pos, p.what, p.location}
		if prev, ok := chosen[k]; !ok || p.better(prev) {
			chosen[k] = p
		}
	}
	for i := range roots {
		if coveredByAnother(i, roots, reach) {
			continue // its findings show with the path from the workflow that calls it
		}
		for n, path := range reach[i] {
			for _, f := range n.findings {
				offer(&pending{pos: f.pos, what: f.what, hint: f.hint, path: path, root: i})
			}
			for _, e := range n.edges {
				if e.fact == nil {
					continue
				}
				_, qname := funcNames(e.remote)
				for _, f := range e.fact.Findings {
					full := append(append(slices.Clip(path), qname), f.Path...)
					offer(&pending{pos: e.pos, what: f.What, hint: f.Hint, location: f.Location, path: full, root: i})
				}
			}
		}
	}
	for i, r := range remote {
		if a.sameModule(r.fn.Pkg()) {
			continue // checked where it is declared
		}
		fact := new(nondeterministicFact)
		if !a.pass.ImportObjectFact(r.fn, fact) {
			continue
		}
		_, qname := funcNames(r.fn)
		for _, f := range fact.Findings {
			path := append([]string{qname}, f.Path...)
			offer(&pending{pos: r.pos, what: f.What, hint: f.Hint, location: f.Location, path: path, root: len(roots) + i})
		}
	}
	diags := make([]*pending, 0, len(chosen))
	for _, p := range chosen {
		diags = append(diags, p)
	}
	slices.SortFunc(diags, func(x, y *pending) int {
		return cmp.Or(cmp.Compare(x.pos, y.pos), cmp.Compare(x.message(), y.message()))
	})
	for _, p := range diags {
		a.pass.Report(analysis.Diagnostic{Pos: p.pos, Message: p.message()})
	}
	return result
}

// coveredByAnother reports whether another workflow function reaches root
// i without being reached by it (or, for functions that reach each other,
// comes first).
func coveredByAnother(i int, roots []*funcNode, reach []map[*funcNode][]string) bool {
	for j := range roots {
		if j == i {
			continue
		}
		if _, reaches := reach[j][roots[i]]; reaches {
			if _, back := reach[i][roots[j]]; !back || j < i {
				return true
			}
		}
	}
	return false
}

// sameModule reports whether pkg is in the module of the package being
// analysed, where it is checked on its own.
func (a *pkgAnalysis) sameModule(pkg *types.Package) bool {
	if a.pass.Module == nil || a.pass.Module.Path == "" {
		return false
	}
	m := a.pass.Module.Path
	return pkg.Path() == m || strings.HasPrefix(pkg.Path(), m+"/")
}

// exportFacts exports, for each function another package can call, the
// findings reachable from it.
func (a *pkgAnalysis) exportFacts() {
	summaries := a.summarize()
	for _, n := range a.nodes {
		if n.fn == nil || !n.fn.Exported() || len(summaries[n]) == 0 {
			continue
		}
		a.pass.ExportObjectFact(n.fn, &nondeterministicFact{Findings: summaries[n]})
	}
}

// summarize computes the findings reachable from every function, callees
// first: over the strongly connected components of the call graph in
// reverse topological order, iterating within a component until nothing
// changes.
func (a *pkgAnalysis) summarize() map[*funcNode][]Finding {
	summaries := map[*funcNode][]Finding{}
	compute := func(n *funcNode) []Finding {
		var all []Finding
		for _, f := range n.findings {
			all = append(all, Finding{What: f.what, Hint: f.hint, Location: a.location(f.pos)})
		}
		for _, e := range n.edges {
			switch {
			case e.fact != nil:
				_, qname := funcNames(e.remote)
				all = append(all, prefixed(qname, e.fact.Findings)...)
			case e.inline:
				all = append(all, summaries[e.to]...)
			default:
				all = append(all, prefixed(e.to.qname, summaries[e.to])...)
			}
		}
		return bestFindings(all)
	}
	for _, scc := range stronglyConnected(a.nodes) {
		for round := 0; round <= len(scc); round++ {
			changed := false
			for _, n := range scc {
				next := compute(n)
				if !sameFindings(next, summaries[n]) {
					summaries[n] = next
					changed = true
				}
			}
			if !changed || len(scc) == 1 && !selfCalling(scc[0]) {
				break
			}
		}
	}
	return summaries
}

func selfCalling(n *funcNode) bool {
	for _, e := range n.edges {
		if e.to == n {
			return true
		}
	}
	return false
}

// stronglyConnected returns the strongly connected components of the
// local call graph (Tarjan's algorithm), callees before callers.
func stronglyConnected(nodes []*funcNode) [][]*funcNode {
	index := map[*funcNode]int{}
	low := map[*funcNode]int{}
	onStack := map[*funcNode]bool{}
	var stack []*funcNode
	var sccs [][]*funcNode
	var visit func(n *funcNode)
	visit = func(n *funcNode) {
		index[n] = len(index)
		low[n] = index[n]
		stack = append(stack, n)
		onStack[n] = true
		for _, e := range n.edges {
			if e.to == nil {
				continue
			}
			if _, seen := index[e.to]; !seen {
				visit(e.to)
				low[n] = min(low[n], low[e.to])
			} else if onStack[e.to] {
				low[n] = min(low[n], index[e.to])
			}
		}
		if low[n] == index[n] {
			var scc []*funcNode
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				scc = append(scc, top)
				if top == n {
					break
				}
			}
			sccs = append(sccs, scc)
		}
	}
	for _, n := range nodes {
		if _, seen := index[n]; !seen {
			visit(n)
		}
	}
	return sccs
}
