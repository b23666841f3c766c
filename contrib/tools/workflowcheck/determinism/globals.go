package determinism

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// findMutatedGlobals returns the package-level variables of the package
// that its code writes after initialisation, with the first place each is
// written. Writes in init functions and initializers are initialisation;
// writes in function literals count wherever the literal is, as it may run
// later.
func findMutatedGlobals(pass *analysis.Pass) map[*types.Var]token.Pos {
	mutated := map[*types.Var]token.Pos{}
	note := func(root ast.Node) {
		for id := range writtenIdents(pass.TypesInfo, root) {
			v := pass.TypesInfo.Uses[id].(*types.Var)
			if v.Pkg() != pass.Pkg {
				continue
			}
			if first, ok := mutated[v]; !ok || id.Pos() < first {
				mutated[v] = id.Pos()
			}
		}
	}
	literalsIn := func(root ast.Node) {
		ast.Inspect(root, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				note(lit.Body)
				return false
			}
			return true
		})
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Body == nil {
					continue
				}
				if decl.Recv == nil && decl.Name.Name == "init" {
					literalsIn(decl.Body)
				} else {
					note(decl.Body)
				}
			case *ast.GenDecl:
				literalsIn(decl)
			}
		}
	}
	return mutated
}

// writtenIdents returns the identifiers in root that denote package-level
// variables being written: assigned, incremented, having an element or
// field assigned, having their address taken (explicitly, or implicitly by
// a method with a pointer receiver), or passed to delete, clear or as the
// destination of copy.
func writtenIdents(info *types.Info, root ast.Node) map[*ast.Ident]bool {
	written := map[*ast.Ident]bool{}
	mark := func(e ast.Expr) {
		id := rootIdent(info, e)
		if id == nil {
			return
		}
		if v, ok := info.Uses[id].(*types.Var); ok && isPackageLevel(v) {
			written[id] = true
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, lhs := range n.Lhs {
					mark(lhs)
				}
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				if n.Key != nil {
					mark(n.Key)
				}
				if n.Value != nil {
					mark(n.Value)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) > 0 {
				if b, ok := info.Uses[id].(*types.Builtin); ok {
					switch b.Name() {
					case "delete", "clear", "copy":
						mark(n.Args[0])
					}
				}
			}
		case *ast.SelectorExpr:
			if takesAddress(info, n) {
				mark(n.X)
			}
		}
		return true
	})
	return written
}

// takesAddress reports whether a method selection x.M takes the address of
// x implicitly: M has a pointer receiver and x is not a pointer.
func takesAddress(info *types.Info, sel *ast.SelectorExpr) bool {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	recv := s.Obj().(*types.Func).Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	if _, ptrRecv := types.Unalias(recv.Type()).(*types.Pointer); !ptrRecv {
		return false
	}
	_, ptrOperand := s.Recv().Underlying().(*types.Pointer)
	return !ptrOperand
}

// rootIdent returns the variable at the root of an assignable expression
// (x in x.f[i].g), or nil when the root is not a variable (a call result,
// a pointer from a function).
func rootIdent(info *types.Info, e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok {
				if sel.Kind() != types.FieldVal {
					return nil
				}
				e = x.X
				continue
			}
			return x.Sel // a qualified identifier: pkg.Var
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
