package workerrt

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a function of the package, from its func keyword to
// its closing brace: past it, a function does more than one step, and a
// reader needs more than a screen to follow it.
const maxFuncLines = 60

// TestNoLongFunctions lists the package's functions (tests aside) longer
// than maxFuncLines: split them into named steps.
func TestNoLongFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var offenders []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		offenders = append(offenders, longFunctions(fset, f, maxFuncLines)...)
	}
	if len(offenders) > 0 {
		t.Errorf("functions longer than %d lines; split each into named steps:\n%s", maxFuncLines, strings.Join(offenders, "\n"))
	}
}

// TestLongFunctionsNamesOffenders: the check names a function one line
// too long, with its receiver, and passes one at the bound.
func TestLongFunctionsNamesOffenders(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines-2) } // lines counts func and }
	src := "package p\n\nfunc (w *Worker) tooLong() {\n" + body(maxFuncLines+1) + "}\n\nfunc atBound() {\n" + body(maxFuncLines) + "}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := longFunctions(fset, f, maxFuncLines)
	want := fmt.Sprintf("p.go:3:1: (*Worker).tooLong has %d lines", maxFuncLines+1)
	if len(got) != 1 || got[0] != want {
		t.Errorf("offenders %q, want [%q]", got, want)
	}
}

// longFunctions names the functions and methods of f longer than max
// lines, with their position and length.
func longFunctions(fset *token.FileSet, f *ast.File, max int) []string {
	var long []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		lines := end.Line - start.Line + 1
		if lines <= max {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			name = "(" + types.ExprString(fn.Recv.List[0].Type) + ")." + name
		}
		long = append(long, fmt.Sprintf("%s: %s has %d lines", start, name, lines))
	}
	return long
}
