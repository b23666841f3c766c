package determinism

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

const (
	hintGoroutine = "use workflow.Go"
	hintChannel   = "use a workflow.Channel (workflow.NewChannel)"
	hintSelect    = "use workflow.NewSelector"
	hintGlobal    = "global mutable state differs between workers and replays: keep state in the workflow function"
	hintSDKAPI    = "the client, worker, activity and testsuite packages are not for workflow code: call them from an activity"
)

// scanner walks one function body and records its findings and calls.
type scanner struct {
	a    *pkgAnalysis
	node *funcNode
	info *types.Info

	writes   map[*ast.Ident]bool     // package variables written in this body
	consumed map[ast.Node]bool       // calls and identifiers already accounted for
	exempt   map[*ast.FuncLit]bool   // callbacks that are not workflow code
	inSelect map[ast.Node]bool       // channel operations of a select's cases
	ranges   map[*ast.RangeStmt]bool // map range loops found order-insensitive
}

func (a *pkgAnalysis) scan(n *funcNode) {
	s := &scanner{
		a:        a,
		node:     n,
		info:     a.pass.TypesInfo,
		writes:   writtenIdents(a.pass.TypesInfo, n.body),
		consumed: map[ast.Node]bool{},
		exempt:   map[*ast.FuncLit]bool{},
		inSelect: map[ast.Node]bool{},
		ranges:   map[*ast.RangeStmt]bool{},
	}
	ast.Inspect(n.body, s.visit)
}

func (s *scanner) report(pos token.Pos, what, hint string) {
	s.node.findings = append(s.node.findings, localFinding{pos: pos, what: what, hint: hint})
}

func (s *scanner) visit(n ast.Node) bool {
	if n == nil {
		return false
	}
	if s.a.ignores.covers(n.Pos()) {
		s.skipLiterals(n)
		return false
	}
	switch n := n.(type) {
	case *ast.FuncLit:
		if s.exempt[n] {
			s.node.literals++
		} else {
			lit := s.a.literalNode(n, s.node)
			s.node.edges = append(s.node.edges, edge{pos: n.Pos(), to: lit, inline: true})
		}
		return false // a literal is scanned as a node of its own
	case *ast.BlockStmt:
		s.lookahead(n.List)
	case *ast.CaseClause:
		s.lookahead(n.Body)
	case *ast.CommClause:
		s.lookahead(n.Body)
	case *ast.GoStmt:
		s.report(n.Go, "go statement starts a native goroutine", hintGoroutine)
	case *ast.SelectStmt:
		s.report(n.Select, "select statement on native channels", hintSelect)
		s.markSelectCases(n)
	case *ast.SendStmt:
		if !s.inSelect[n] {
			s.report(n.Arrow, "send on a native channel", hintChannel)
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !s.inSelect[n] {
			s.report(n.OpPos, "receive from a native channel", hintChannel)
		}
	case *ast.RangeStmt:
		s.rangeStmt(n)
	case *ast.CallExpr:
		s.call(n)
	case *ast.Ident:
		s.ident(n)
	}
	return true
}

// skipLiterals counts the function literals directly inside code that is
// not scanned, so that the literals after them keep the toolchain's names.
func (s *scanner) skipLiterals(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			s.node.literals++
			return false
		}
		return true
	})
}

// markSelectCases keeps the channel operations of a select's cases from
// being reported again on their own.
func (s *scanner) markSelectCases(sel *ast.SelectStmt) {
	for _, c := range sel.Body.List {
		switch comm := c.(*ast.CommClause).Comm.(type) {
		case *ast.SendStmt:
			s.inSelect[comm] = true
		case *ast.ExprStmt:
			s.inSelect[ast.Unparen(comm.X)] = true
		case *ast.AssignStmt:
			s.inSelect[ast.Unparen(comm.Rhs[0])] = true
		}
	}
}

func (s *scanner) rangeStmt(rs *ast.RangeStmt) {
	if isChan(s.info.TypeOf(rs.X)) {
		s.report(rs.For, "range over a native channel", hintChannel)
		return
	}
	loop := s.mapLoop(rs)
	if loop == nil {
		return
	}
	if loop.mapsCall != nil {
		s.consumeCall(loop.mapsCall)
	}
	accepted, known := s.ranges[rs]
	if !known {
		accepted = s.orderInsensitive(loop, nil)
	}
	if !accepted {
		s.report(rs.For, "range over a map: its iteration order is random", hintMapKeys)
	}
}

// consumeCall marks a call as accounted for, so neither it nor its
// callee's identifier is reported again.
func (s *scanner) consumeCall(call *ast.CallExpr) {
	s.consumed[call] = true
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		s.consumed[fun] = true
	case *ast.SelectorExpr:
		s.consumed[fun.Sel] = true
	}
}

func (s *scanner) call(call *ast.CallExpr) {
	if s.consumed[call] {
		return
	}
	fun := ast.Unparen(call.Fun)
	calleeIdent := func() *ast.Ident {
		switch fun := fun.(type) {
		case *ast.Ident:
			return fun
		case *ast.SelectorExpr:
			return fun.Sel
		case *ast.IndexExpr: // explicit instantiation f[T](x)
			if id, ok := ast.Unparen(fun.X).(*ast.Ident); ok {
				return id
			}
			if sel, ok := ast.Unparen(fun.X).(*ast.SelectorExpr); ok {
				return sel.Sel
			}
		}
		return nil
	}()
	pos := call.Pos()
	if calleeIdent != nil {
		pos = calleeIdent.Pos()
	}
	switch callee := typeutil.Callee(s.info, call).(type) {
	case *types.Builtin:
		s.builtin(callee.Name(), call)
	case *types.Func:
		if calleeIdent != nil {
			s.consumed[calleeIdent] = true
		}
		s.exemptCallbacks(callee, call)
		s.acceptSortedMapKeys(callee, call)
		before := len(s.node.findings)
		s.callFunc(callee.Origin(), pos)
		if len(s.node.findings) > before {
			s.consumeReceiver(fun)
		}
	case *types.Var:
		if target, ok := s.a.funcVars[callee]; ok {
			if target.node != nil {
				s.node.edges = append(s.node.edges, edge{pos: pos, to: target.node})
			} else {
				s.callFunc(target.fn, pos)
			}
		}
	}
}

// consumeReceiver keeps a package-level variable whose method call was
// reported (counter.Add on an atomic) from being reported again as written
// through the method's pointer receiver.
func (s *scanner) consumeReceiver(fun ast.Expr) {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || !takesAddress(s.info, sel) {
		return
	}
	if id := rootIdent(s.info, sel.X); id != nil {
		s.consumed[id] = true
	}
}

func (s *scanner) builtin(name string, call *ast.CallExpr) {
	switch name {
	case "make":
		if isChan(s.info.TypeOf(call.Args[0])) {
			s.report(call.Pos(), "make creates a native channel", hintChannel)
		}
	case "close":
		if isChan(s.info.TypeOf(call.Args[0])) {
			s.report(call.Pos(), "close of a native channel", hintChannel)
		}
	}
}

// exemptCallbacks keeps the callbacks of workflow.SideEffect and
// workflow.MutableSideEffect, which run once and are recorded, and the
// function literals run as activities, out of the workflow's code.
func (s *scanner) exemptCallbacks(fn *types.Func, call *ast.CallExpr) {
	switch {
	case sdkWorkflowFunc(fn, "SideEffect", "SideEffectWithOptions", "MutableSideEffect", "MutableSideEffectWithOptions"):
		for _, arg := range call.Args {
			if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
				s.exempt[lit] = true
				return
			}
		}
	case sdkWorkflowFunc(fn, "ExecuteActivity", "ExecuteLocalActivity"):
		if len(call.Args) > 1 {
			if lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit); ok {
				s.exempt[lit] = true
			}
		}
	}
}

// callFunc records a call of fn at pos.
func (s *scanner) callFunc(fn *types.Func, pos token.Pos) {
	if fn.Pkg() == nil { // a method of the error interface
		return
	}
	if n, ok := s.a.byFunc[fn]; ok {
		s.node.edges = append(s.node.edges, edge{pos: pos, to: n})
		return
	}
	if fn.Pkg() == s.a.pass.Pkg {
		return // no body, SDK code, or ignored with a directive
	}
	path := fn.Pkg().Path()
	switch {
	case isStdlib(path):
		if hint, ok := stdlibFuncFinding(fn); ok {
			s.report(pos, fn.FullName()+" called", hint)
		}
	case sdkKind(path) == sdkNotForWork:
		_, qname := funcNames(fn)
		s.report(pos, qname+" called", hintSDKAPI)
	case sdkKind(path) == sdkWorkflow, s.a.trusted.matches(path):
	default:
		fact := new(nondeterministicFact)
		if s.a.pass.ImportObjectFact(fn, fact) {
			s.node.edges = append(s.node.edges, edge{pos: pos, remote: fn, fact: fact})
		}
	}
}

// ident handles a name that is not the callee of a call: package-level
// variables, and standard library functions taken as values.
func (s *scanner) ident(id *ast.Ident) {
	if s.consumed[id] {
		return
	}
	switch obj := s.info.Uses[id].(type) {
	case *types.Var:
		if isPackageLevel(obj) {
			s.global(id, obj)
		}
	case *types.Func:
		if obj.Pkg() != nil && isStdlib(obj.Pkg().Path()) {
			if hint, ok := stdlibFuncFinding(obj); ok {
				s.report(id.Pos(), obj.FullName()+" used as a value", hint)
			}
		}
	}
}

// global handles a use of a package-level variable: any write, and reads
// of variables that are written after package initialisation.
func (s *scanner) global(id *ast.Ident, v *types.Var) {
	name := v.Name()
	if v.Pkg() != s.a.pass.Pkg {
		name = v.Pkg().Name() + "." + name
	}
	if s.writes[id] {
		s.report(id.Pos(), "package variable "+name+" written", hintGlobal)
		return
	}
	if v.Pkg() == s.a.pass.Pkg {
		if at, ok := s.a.mutated[v]; ok {
			s.report(id.Pos(), "package variable "+name+" read", "it is written at "+s.a.location(at)+"; "+hintGlobal)
		}
		return
	}
	path := v.Pkg().Path()
	switch {
	case isStdlib(path):
		if hint, ok := stdlibVarFinding(v); ok {
			s.report(id.Pos(), path+"."+v.Name()+" read", hint)
		}
	case sdkKind(path) != notSDKAPI, s.a.trusted.matches(path):
	default:
		fact := new(mutableGlobalFact)
		if s.a.pass.ImportObjectFact(v, fact) {
			s.report(id.Pos(), "package variable "+name+" read", "it is written at "+fact.WrittenAt+"; "+hintGlobal)
		}
	}
}

func isChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := coreType(t).(*types.Chan)
	return ok
}

// coreType returns the underlying type of t, or for a type parameter the
// underlying type all the types in its constraint share, or nil.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		union, ok := iface.EmbeddedType(i).(*types.Union)
		if !ok {
			continue
		}
		for j := 0; j < union.Len(); j++ {
			u := union.Term(j).Type().Underlying()
			if core != nil && !types.Identical(core, u) {
				return nil
			}
			core = u
		}
	}
	return core
}
