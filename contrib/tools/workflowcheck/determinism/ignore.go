package determinism

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignoreDirective is the comment that silences the analyzer for one
// statement: "//workflowcheck:ignore <reason>".
const ignoreDirective = "workflowcheck:ignore"

// ignoreIndex holds where ignore directives apply in a package. A directive
// at the end of a line covers that line; a directive alone on its line
// covers the next line. Either way it covers the whole of a statement or
// declaration that starts on a covered line, and a directive in a
// function's doc comment covers the whole function.
type ignoreIndex struct {
	fset   *token.FileSet
	lines  map[string]map[int]bool // file name -> covered lines
	ranges []posRange              // statements and declarations covered whole
}

type posRange struct{ from, to token.Pos }

// parseDirective reports whether the comment is an ignore directive and
// returns the reason after it.
func parseDirective(c *ast.Comment) (reason string, ok bool) {
	text, isLine := strings.CutPrefix(c.Text, "//")
	if !isLine {
		return "", false
	}
	rest, ok := strings.CutPrefix(strings.TrimLeft(text, " \t"), ignoreDirective)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	rest, _, _ = strings.Cut(rest, "//") // a comment after the directive is no reason
	return strings.TrimSpace(rest), true
}

// buildIgnoreIndex collects the directives of the package's files and
// reports those without a reason, which cover nothing.
func buildIgnoreIndex(pass *analysis.Pass) *ignoreIndex {
	idx := &ignoreIndex{fset: pass.Fset, lines: map[string]map[int]bool{}}
	for _, file := range pass.Files {
		var directives []*ast.Comment
		for _, group := range file.Comments {
			for _, c := range group.List {
				reason, ok := parseDirective(c)
				if !ok {
					continue
				}
				if reason == "" {
					pass.Report(analysis.Diagnostic{
						Pos:     c.Pos(),
						End:     c.End(),
						Message: "//" + ignoreDirective + " needs a reason: write why the code is deterministic after it; without one it ignores nothing",
					})
					continue
				}
				directives = append(directives, c)
			}
		}
		if len(directives) == 0 {
			continue
		}
		name := pass.Fset.File(file.Pos()).Name()
		codeStart := firstCodeColumns(pass.Fset, file)
		covered := map[int]bool{}
		for _, c := range directives {
			p := pass.Fset.PositionFor(c.Pos(), false)
			if col, ok := codeStart[p.Line]; ok && col < p.Column {
				covered[p.Line] = true
			} else {
				covered[p.Line+1] = true
			}
		}
		idx.lines[name] = covered
		ast.Inspect(file, func(n ast.Node) bool {
			switch n.(type) {
			case ast.Stmt, ast.Decl, ast.Spec:
				if covered[pass.Fset.PositionFor(n.Pos(), false).Line] {
					idx.ranges = append(idx.ranges, posRange{n.Pos(), n.End()})
					return false
				}
			}
			return true
		})
	}
	return idx
}

// firstCodeColumns maps each line holding code to the column where its
// first token starts, from the positions where syntax nodes start and end.
func firstCodeColumns(fset *token.FileSet, file *ast.File) map[int]int {
	cols := map[int]int{}
	note := func(pos token.Pos) {
		if !pos.IsValid() {
			return
		}
		p := fset.PositionFor(pos, false)
		if c, ok := cols[p.Line]; !ok || p.Column < c {
			cols[p.Line] = p.Column
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n.(type) {
		case nil, *ast.Comment, *ast.CommentGroup:
			return false
		}
		note(n.Pos())
		note(n.End() - 1)
		return true
	})
	return cols
}

// covers reports whether an ignore directive applies at pos.
func (idx *ignoreIndex) covers(pos token.Pos) bool {
	if len(idx.lines) == 0 {
		return false
	}
	p := idx.fset.PositionFor(pos, false)
	if idx.lines[p.Filename][p.Line] {
		return true
	}
	for _, r := range idx.ranges {
		if r.from <= pos && pos < r.to {
			return true
		}
	}
	return false
}

// coversFunc reports whether a directive in the doc comment of the
// function declaration, or on the line before it, covers it whole.
func (idx *ignoreIndex) coversFunc(decl *ast.FuncDecl) bool {
	if decl.Doc != nil {
		for _, c := range decl.Doc.List {
			if reason, ok := parseDirective(c); ok && reason != "" {
				return true
			}
		}
	}
	return idx.covers(decl.Pos())
}
