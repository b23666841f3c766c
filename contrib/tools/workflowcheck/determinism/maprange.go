package determinism

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// This file decides when iterating over a map is fine: when the loop's
// effects are the same in every iteration order. The patterns accepted
// are listed in the package documentation; anything else is reported.

// mapLoop is a range loop over a map, or over maps.Keys, maps.Values or
// maps.All of one.
type mapLoop struct {
	rs       *ast.RangeStmt
	mapsCall *ast.CallExpr // the maps.Keys/Values/All call ranged over, if any
	key, val *types.Var    // the loop variables bound to keys and values (nil: none)
	valType  types.Type    // the map's value type
}

// mapLoop returns the map loop a range statement is, or nil.
func (s *scanner) mapLoop(rs *ast.RangeStmt) *mapLoop {
	loop := &mapLoop{rs: rs}
	var first, second **types.Var
	if m, ok := coreType(s.info.TypeOf(rs.X)).(*types.Map); ok {
		loop.valType = m.Elem()
		first, second = &loop.key, &loop.val
	} else {
		call, ok := ast.Unparen(rs.X).(*ast.CallExpr)
		if !ok {
			return nil
		}
		fn := typeutil.StaticCallee(s.info, call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "maps" || len(call.Args) != 1 {
			return nil
		}
		m, ok := coreType(s.info.TypeOf(call.Args[0])).(*types.Map)
		if !ok {
			return nil
		}
		loop.mapsCall, loop.valType = call, m.Elem()
		switch fn.Name() {
		case "Keys":
			first = &loop.key
		case "Values":
			first = &loop.val
		case "All":
			first, second = &loop.key, &loop.val
		default:
			return nil
		}
	}
	bind := func(e ast.Expr, to **types.Var) {
		if e == nil || to == nil {
			return
		}
		if id, ok := e.(*ast.Ident); ok {
			*to, _ = s.info.Defs[id].(*types.Var)
		}
	}
	if rs.Tok == token.DEFINE {
		bind(rs.Key, first)
		bind(rs.Value, second)
	}
	return loop
}

// lookahead examines a statement list for map loops and collections of
// map keys whose order-sensitivity depends on what follows them.
func (s *scanner) lookahead(list []ast.Stmt) {
	for i, st := range list {
		for {
			labeled, ok := st.(*ast.LabeledStmt)
			if !ok {
				break
			}
			st = labeled.Stmt
		}
		switch st := st.(type) {
		case *ast.RangeStmt:
			if loop := s.mapLoop(st); loop != nil {
				s.ranges[st] = s.orderInsensitive(loop, list[i+1:])
			}
		case *ast.AssignStmt:
			// keys := slices.Collect(maps.Keys(m)) followed by a sort.
			if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
				continue
			}
			id, ok := st.Lhs[0].(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := s.info.ObjectOf(id).(*types.Var)
			collect, ok := ast.Unparen(st.Rhs[0]).(*ast.CallExpr)
			if v == nil || !ok || !isFunc(s.info, collect, "slices", "Collect") || len(collect.Args) != 1 {
				continue
			}
			inner, ok := ast.Unparen(collect.Args[0]).(*ast.CallExpr)
			if ok && s.sortableMapsCall(inner) && sortedBeforeUse(s.info, v, list[i+1:]) {
				s.consumeCall(inner)
			}
		}
	}
}

// acceptSortedMapKeys accepts slices.Sorted(maps.Keys(m)) and
// slices.Sorted(maps.Values(m)).
func (s *scanner) acceptSortedMapKeys(fn *types.Func, call *ast.CallExpr) {
	if fn.Pkg() == nil || fn.Pkg().Path() != "slices" || fn.Name() != "Sorted" || len(call.Args) != 1 {
		return
	}
	if inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok && s.sortableMapsCall(inner) {
		s.consumeCall(inner)
	}
}

// sortableMapsCall reports whether call is maps.Keys(m), or maps.Values(m)
// of values that sort into one order whatever order they come in (not
// floating point: -0 and +0 compare equal but differ).
func (s *scanner) sortableMapsCall(call *ast.CallExpr) bool {
	switch {
	case isFunc(s.info, call, "maps", "Keys"):
		return true
	case isFunc(s.info, call, "maps", "Values"):
		if len(call.Args) != 1 {
			return false
		}
		m, ok := coreType(s.info.TypeOf(call.Args[0])).(*types.Map)
		return ok && sortsUniquely(m.Elem())
	}
	return false
}

// sortsUniquely reports whether equal values of t are indistinguishable,
// so sorting any permutation of them gives one result: integers and
// strings.
func sortsUniquely(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsString) != 0
}

func isFunc(info *types.Info, call *ast.CallExpr, pkgPath, name string) bool {
	fn := typeutil.StaticCallee(info, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == pkgPath && fn.Name() == name
}

// sortedBeforeUse reports whether the first of the statements that
// mentions v sorts it in place into a total order: sort.Strings,
// sort.Ints, sort.Float64s or slices.Sort.
func sortedBeforeUse(info *types.Info, v *types.Var, following []ast.Stmt) bool {
	for _, st := range following {
		if !mentions(info, st, v) {
			continue
		}
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		arg, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok || info.Uses[arg] != v {
			return false
		}
		return isFunc(info, call, "sort", "Strings") || isFunc(info, call, "sort", "Ints") ||
			isFunc(info, call, "sort", "Float64s") || isFunc(info, call, "slices", "Sort")
	}
	return false
}

func mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// loopCheck decides whether a map loop's body has the same effects in
// every iteration order.
type loopCheck struct {
	info *types.Info
	loop *mapLoop
	// carried are the variables outside the loop that it writes: reading
	// one inside the loop would see a value that depends on the order.
	carried map[*types.Var]bool
	family  map[*types.Var]string         // the one kind of update each carried variable gets
	consts  map[*types.Var]constant.Value // the one constant each flag variable gets
	collect map[*types.Var]bool           // slices the keys or values are appended to

	exits        map[string]bool // the distinct ways out of the loop (break, return)
	sideEffected bool            // updates outside the ways out
}

// orderInsensitive reports whether the loop has the same effects in every
// iteration order; following are the statements after it in its block.
func (s *scanner) orderInsensitive(loop *mapLoop, following []ast.Stmt) bool {
	rs := loop.rs
	if rs.Tok == token.ASSIGN && !(isBlank(rs.Key) && isBlank(rs.Value)) {
		return false // the outer variables keep the last key or value seen
	}
	if (loop.key == nil || !mentions(s.info, rs.Body, loop.key)) &&
		(loop.val == nil || !mentions(s.info, rs.Body, loop.val)) {
		return true // the body cannot tell the elements apart
	}
	c := &loopCheck{
		info:    s.info,
		loop:    loop,
		carried: map[*types.Var]bool{},
		family:  map[*types.Var]string{},
		consts:  map[*types.Var]constant.Value{},
		collect: map[*types.Var]bool{},
		exits:   map[string]bool{},
	}
	c.findCarried(rs.Body)
	if !c.stmts(rs.Body.List) {
		return false
	}
	if len(c.exits) > 1 || (len(c.exits) == 1 && c.sideEffected) {
		return false
	}
	for v := range c.collect {
		if !sortedBeforeUse(s.info, v, following) {
			return false
		}
	}
	return true
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return e == nil || ok && id.Name == "_"
}

// inLoop reports whether v is declared inside the loop body, so it holds
// nothing from one iteration to the next.
func (c *loopCheck) inLoop(v *types.Var) bool {
	return v.Pos() >= c.loop.rs.Body.Pos() && v.Pos() < c.loop.rs.Body.End()
}

// findCarried collects the variables declared outside the loop that its
// body writes.
func (c *loopCheck) findCarried(body *ast.BlockStmt) {
	note := func(e ast.Expr) {
		if id := rootIdent(c.info, e); id != nil {
			if v, ok := c.info.Uses[id].(*types.Var); ok && !c.inLoop(v) {
				c.carried[v] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if n.Tok != token.DEFINE {
					note(lhs)
				}
			}
		case *ast.IncDecStmt:
			note(n.X)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) > 0 {
				if _, ok := c.info.Uses[id].(*types.Builtin); ok && (id.Name == "delete" || id.Name == "clear") {
					note(n.Args[0])
				}
			}
		}
		return true
	})
}

// stmts checks a statement list; a list that ends in break or return is a
// way out of the loop, which may only set flags to constants before it.
func (c *loopCheck) stmts(list []ast.Stmt) bool {
	if n := len(list); n > 0 && isExit(list[n-1]) {
		return c.exit(list)
	}
	for _, st := range list {
		if !c.stmt(st) {
			return false
		}
	}
	return true
}

func isExit(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.BREAK || st.Tok == token.GOTO || st.Label != nil
	}
	return false
}

// exit checks a way out: constant assignments to flags, then an unlabeled
// break or a return of constants. It records the way out in a canonical
// form: the loop is fine only if every way out is the same.
func (c *loopCheck) exit(list []ast.Stmt) bool {
	var form strings.Builder
	for _, st := range list[:len(list)-1] {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
			return false
		}
		v, value := c.flagAssignment(as)
		if v == nil {
			return false
		}
		fmt.Fprintf(&form, "%p=%s;", v, value.ExactString())
	}
	switch last := list[len(list)-1].(type) {
	case *ast.BranchStmt:
		if last.Tok != token.BREAK || last.Label != nil {
			return false
		}
		form.WriteString("break")
	case *ast.ReturnStmt:
		form.WriteString("return")
		for _, r := range last.Results {
			value := c.info.Types[r].Value
			if value == nil {
				return false
			}
			form.WriteString(" " + value.ExactString())
		}
	}
	c.exits[form.String()] = true
	return true
}

// flagAssignment returns the variable and constant of v = constant, for a
// variable declared outside the loop, or nil.
func (c *loopCheck) flagAssignment(as *ast.AssignStmt) (*types.Var, constant.Value) {
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, _ := c.info.Uses[id].(*types.Var)
	value := c.info.Types[as.Rhs[0]].Value
	if v == nil || value == nil || isPackageLevel(v) || c.inLoop(v) {
		return nil, nil
	}
	return v, value
}

func (c *loopCheck) stmt(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.EmptyStmt:
		return true
	case *ast.BlockStmt:
		return c.stmts(st.List)
	case *ast.IfStmt:
		if st.Init != nil && !c.stmt(st.Init) {
			return false
		}
		if !c.stable(st.Cond) || !c.stmts(st.Body.List) {
			return false
		}
		return st.Else == nil || c.stmt(st.Else)
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE && st.Label == nil
	case *ast.DeclStmt:
		gen, ok := st.Decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			return false
		}
		for _, spec := range gen.Specs {
			for _, value := range spec.(*ast.ValueSpec).Values {
				if !c.stable(value) {
					return false
				}
			}
		}
		return true
	case *ast.IncDecStmt:
		return c.update(st.X, "+", nil)
	case *ast.ExprStmt:
		return c.deleteKey(st.X)
	case *ast.AssignStmt:
		return c.assign(st)
	}
	return false
}

var updateFamilies = map[token.Token]string{
	token.ADD_ASSIGN: "+", token.SUB_ASSIGN: "+", token.MUL_ASSIGN: "*",
	token.OR_ASSIGN: "|", token.AND_ASSIGN: "&", token.XOR_ASSIGN: "^",
}

func (c *loopCheck) assign(as *ast.AssignStmt) bool {
	if as.Tok == token.DEFINE {
		for _, rhs := range as.Rhs {
			if !c.stable(rhs) {
				return false
			}
		}
		return true
	}
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	lhs, rhs := as.Lhs[0], as.Rhs[0]
	if family, ok := updateFamilies[as.Tok]; ok {
		return c.update(lhs, family, rhs)
	}
	if as.Tok != token.ASSIGN {
		return false
	}
	if index, ok := lhs.(*ast.IndexExpr); ok {
		return c.storeByKey(index, rhs)
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return c.stable(rhs)
	}
	v, _ := c.info.Uses[id].(*types.Var)
	if v == nil || isPackageLevel(v) {
		return false
	}
	if c.inLoop(v) {
		return c.stable(rhs)
	}
	if flag, value := c.flagAssignment(as); flag != nil {
		if prev, ok := c.consts[v]; (ok && !constant.Compare(prev, token.EQL, value)) || c.family[v] != "" {
			return false
		}
		c.consts[v] = value
		c.sideEffected = true
		return true
	}
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		return false
	}
	builtin, ok := c.info.Uses[identOf(call.Fun)].(*types.Builtin)
	if !ok || len(call.Args) != 2 || !c.sameVar(call.Args[0], v) {
		return false
	}
	switch builtin.Name() {
	case "append": // keys = append(keys, k), sorted after the loop
		elem, ok := ast.Unparen(call.Args[1]).(*ast.Ident)
		if !ok || call.Ellipsis.IsValid() {
			return false
		}
		switch c.info.Uses[elem] {
		case nil:
			return false
		case c.loop.key:
		case c.loop.val:
			if !sortsUniquely(c.loop.valType) {
				return false
			}
		default:
			return false
		}
		if c.family[v] != "" || c.consts[v] != nil {
			return false
		}
		c.collect[v] = true
		c.sideEffected = true
		return true
	case "max", "min": // m = max(m, e)
		return c.update(lhs, builtin.Name(), call.Args[1])
	}
	return false
}

// update checks x op= e (or x++, x = max(x, e)): x an integer variable
// declared outside the loop, always updated with the same commutative and
// associative operation, by a value the order cannot change. Floating
// point is left out: its addition is not associative.
func (c *loopCheck) update(x ast.Expr, family string, by ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.info.Uses[id].(*types.Var)
	if v == nil || isPackageLevel(v) {
		return false
	}
	if by != nil && !c.stable(by) {
		return false
	}
	if c.inLoop(v) {
		return true
	}
	integer := false
	if b, ok := v.Type().Underlying().(*types.Basic); ok {
		integer = b.Info()&types.IsInteger != 0 || (family == "max" || family == "min") && b.Info()&types.IsOrdered != 0
	}
	if !integer {
		return false
	}
	if prev := c.family[v]; (prev != "" && prev != family) || c.consts[v] != nil || c.collect[v] {
		return false
	}
	c.family[v] = family
	c.sideEffected = true
	return true
}

// storeByKey checks dst[k] = e: each key is stored once, so the order of
// the stores does not matter.
func (c *loopCheck) storeByKey(index *ast.IndexExpr, rhs ast.Expr) bool {
	key, ok := ast.Unparen(index.Index).(*ast.Ident)
	if !ok || c.loop.key == nil || c.info.Uses[key] != c.loop.key {
		return false
	}
	if _, ok := coreType(c.info.TypeOf(index.X)).(*types.Map); !ok {
		return false
	}
	dst := identOf(index.X)
	if dst == nil {
		return false
	}
	if v, ok := c.info.Uses[dst].(*types.Var); !ok || isPackageLevel(v) {
		return false
	}
	c.sideEffected = true
	return c.stable(rhs)
}

// deleteKey checks delete(m, k) for the loop's key k.
func (c *loopCheck) deleteKey(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	if b, ok := c.info.Uses[identOf(call.Fun)].(*types.Builtin); !ok || b.Name() != "delete" {
		return false
	}
	key, ok := ast.Unparen(call.Args[1]).(*ast.Ident)
	if !ok || c.loop.key == nil || c.info.Uses[key] != c.loop.key {
		return false
	}
	c.sideEffected = true
	return identOf(call.Args[0]) != nil
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

func (c *loopCheck) sameVar(e ast.Expr, v *types.Var) bool {
	id := identOf(e)
	return id != nil && c.info.Uses[id] == v
}

// Standard library functions without side effects, whose results depend
// only on their arguments; by package, with the exceptions that write to
// an argument.
var pureStdlib = map[string][]string{
	"strings":      nil,
	"unicode":      nil,
	"unicode/utf8": {"EncodeRune", "AppendRune"},
	"strconv": {"AppendBool", "AppendFloat", "AppendInt", "AppendQuote", "AppendQuoteRune",
		"AppendQuoteRuneToASCII", "AppendQuoteRuneToGraphic", "AppendQuoteToASCII", "AppendQuoteToGraphic", "AppendUint"},
	"math":      nil,
	"math/bits": nil,
	"cmp":       nil,
}

var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "real": true, "imag": true, "complex": true}

// stable reports whether an expression has no side effects and reads
// nothing the loop writes, so its value cannot depend on the order.
func (c *loopCheck) stable(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		case *ast.Ident:
			if v, isVar := c.info.Uses[n].(*types.Var); isVar && c.carried[v] {
				ok = false
			}
			if _, isFunc := c.info.Uses[n].(*types.Func); isFunc {
				ok = false // a function value, which may be called
			}
		case *ast.SelectorExpr:
			if sel, found := c.info.Selections[n]; found && sel.Kind() != types.FieldVal {
				ok = false // a method value
			}
		case *ast.CallExpr:
			ok = c.pureCall(n)
			return false
		}
		return ok
	})
	return ok
}

// pureCall reports whether a call is a conversion, a pure builtin or a
// pure standard library function, with stable arguments none of which is
// a function.
func (c *loopCheck) pureCall(call *ast.CallExpr) bool {
	switch {
	case c.info.Types[call.Fun].IsType():
	case c.info.Uses[identOf(call.Fun)] != nil && isBuiltin(c.info.Uses[identOf(call.Fun)]):
		if !pureBuiltins[identOf(call.Fun).Name] {
			return false
		}
	default:
		fn := typeutil.StaticCallee(c.info, call)
		if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
			return false
		}
		except, listed := pureStdlib[fn.Pkg().Path()]
		if !listed {
			return false
		}
		for _, name := range except {
			if name == fn.Name() {
				return false
			}
		}
	}
	for _, arg := range call.Args {
		if _, isFunc := coreType(c.info.TypeOf(arg)).(*types.Signature); isFunc || !c.stable(arg) {
			return false
		}
	}
	return true
}

func isBuiltin(obj types.Object) bool {
	_, ok := obj.(*types.Builtin)
	return ok
}
