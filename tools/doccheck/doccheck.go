// Package doccheck checks that the public packages of the SDK document
// what users read with go doc.
//
// The facades (workflow, client, worker, ...) mostly alias types of
// internal/, and go doc prints an alias as one line and its doc comment:
// the fields of an aliased struct and the methods of an aliased interface
// never reach the reader. So the alias's own doc comment must name them,
// and this package checks that it does, along with the ordinary rule that
// every exported name carries a doc comment.
//
// A type that go.temporal.io/sdk declares in its package is declared here
// too, not aliased, so that go doc shows its members as it does there
// (CheckDeclared, declared.go, on the list official_declared.txt).
//
// It also checks that the files and directories the docs name exist
// (CheckPaths, paths.go), so that a file moved without its docs fails the
// tests, and that the go blocks of the README and the user guide compile
// (CheckSnippets, snippets.go, which states the rules a fragment is
// compiled under).
package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Problem is one missing piece of documentation.
type Problem struct {
	Pos     token.Position // where the undocumented declaration is
	Name    string         // package-qualified name, e.g. "workflow.ActivityOptions"
	Message string         // what is missing
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.Pos.Filename, p.Pos.Line, p.Name, p.Message)
}

// Checker reads packages of one module from its source tree.
type Checker struct {
	// ModulePath is the module's import path ("github.com/durable-go/sdk").
	ModulePath string
	// Root is the directory of the module's go.mod.
	Root string

	fset     *token.FileSet
	packages map[string]*sourcePackage // by directory relative to Root
}

// sourcePackage is the parsed non-test files of one directory.
type sourcePackage struct {
	name  string
	dir   string
	files []*ast.File
	types map[string]*typeDecl
	// methods lists the exported methods declared on each type (by the
	// receiver's type name), in source order.
	methods map[string][]string
}

// typeDecl is one type declaration and the file it is in (whose imports
// resolve the names it uses).
type typeDecl struct {
	spec *ast.TypeSpec
	file *ast.File
	pkg  *sourcePackage
}

// NewChecker returns a Checker for the module whose go.mod is in root.
func NewChecker(root, modulePath string) *Checker {
	return &Checker{ModulePath: modulePath, Root: root, fset: token.NewFileSet(), packages: map[string]*sourcePackage{}}
}

// Check returns what the package in dir (relative to Root) leaves
// undocumented, sorted by position.
func (c *Checker) Check(dir string) ([]Problem, error) {
	pkg, err := c.load(dir)
	if err != nil {
		return nil, err
	}
	var problems []Problem
	report := func(pos token.Pos, name, format string, args ...any) {
		problems = append(problems, Problem{Pos: c.fset.Position(pos), Name: pkg.name + "." + name, Message: fmt.Sprintf(format, args...)})
	}
	for _, file := range pkg.files {
		for _, decl := range file.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				c.checkFunc(decl, report)
			case *ast.GenDecl:
				c.checkGenDecl(pkg, file, decl, report)
			}
		}
	}
	sort.Slice(problems, func(i, j int) bool {
		a, b := problems[i].Pos, problems[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return problems, nil
}

type reportFunc func(pos token.Pos, name, format string, args ...any)

func (c *Checker) checkFunc(decl *ast.FuncDecl, report reportFunc) {
	if !decl.Name.IsExported() {
		return
	}
	name := decl.Name.Name
	if decl.Recv != nil {
		recv := receiverTypeName(decl.Recv.List[0].Type)
		if !ast.IsExported(recv) {
			return // a method of an unexported type is not in go doc
		}
		name = recv + "." + name
	}
	if !hasText(decl.Doc) {
		report(decl.Pos(), name, "no doc comment")
		return
	}
	if !startsWithName(decl.Doc, decl.Name.Name) {
		report(decl.Pos(), name, "doc comment does not begin with %s (go doc and search show its first sentence)", decl.Name.Name)
	}
}

// startsWithName reports whether a doc comment begins with the declared
// name, as Go doc comments do, optionally after "A", "An" or "The".
func startsWithName(doc *ast.CommentGroup, name string) bool {
	words := strings.Fields(doc.Text())
	if len(words) > 1 && (words[0] == "A" || words[0] == "An" || words[0] == "The") {
		words = words[1:]
	}
	first := strings.TrimRight(words[0], ",.:;")
	return first == name
}

func receiverTypeName(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

func (c *Checker) checkGenDecl(pkg *sourcePackage, file *ast.File, decl *ast.GenDecl, report reportFunc) {
	for _, spec := range decl.Specs {
		switch spec := spec.(type) {
		case *ast.TypeSpec:
			if !spec.Name.IsExported() {
				continue
			}
			doc := spec.Doc
			if doc == nil && !decl.Lparen.IsValid() {
				doc = decl.Doc // go doc shows a lone type's comment from the decl
			}
			if !hasText(doc) {
				report(spec.Pos(), spec.Name.Name, "no doc comment")
				continue
			}
			if !startsWithName(doc, spec.Name.Name) {
				report(spec.Pos(), spec.Name.Name, "doc comment does not begin with %s (go doc and search show its first sentence)", spec.Name.Name)
			}
			if spec.Assign.IsValid() {
				c.checkAlias(pkg, file, spec, doc, report)
			} else {
				checkMembers(spec, report)
			}
		case *ast.ValueSpec:
			// A group's comment documents the constants or variables in it,
			// as go doc prints the group whole.
			if hasText(spec.Doc) || hasText(spec.Comment) || hasText(decl.Doc) {
				continue
			}
			for _, name := range spec.Names {
				if name.IsExported() {
					report(name.Pos(), name.Name, "no doc comment")
				}
			}
		}
	}
}

// checkMembers reports the undocumented exported fields of a struct, and
// methods of an interface, that the package declares itself: go doc prints
// them with their comments.
func checkMembers(spec *ast.TypeSpec, report reportFunc) {
	var fields *ast.FieldList
	switch t := spec.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, field := range fields.List {
		if hasText(field.Doc) || hasText(field.Comment) {
			continue
		}
		for _, name := range memberNames(field) {
			if ast.IsExported(name) {
				report(field.Pos(), spec.Name.Name+"."+name, "no doc comment")
			}
		}
	}
}

// checkAlias reports the exported fields (of a struct) or methods (of an
// interface) that the alias's doc comment does not name, since go doc
// shows nothing of the aliased type but the comment.
func (c *Checker) checkAlias(pkg *sourcePackage, file *ast.File, spec *ast.TypeSpec, doc *ast.CommentGroup, report reportFunc) {
	target, err := c.resolve(pkg, file, spec.Type, 0)
	if err != nil {
		report(spec.Pos(), spec.Name.Name, "cannot read the aliased type: %v", err)
		return
	}
	if target == nil {
		return // outside the module, or not a struct or an interface
	}
	members, kind := target.exportedMembers(c)
	if len(members) == 0 {
		return
	}
	text := doc.Text()
	covered := c.methodsOfNamedInterfaces(pkg, spec.Name.Name, text)
	var missing []string
	for _, m := range members {
		if !covered[m] && !mentions(text, m) {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		report(spec.Pos(), spec.Name.Name, "alias doc does not name the %s %s", kind, strings.Join(missing, ", "))
	}
}

// methodsOfNamedInterfaces returns the methods of the interfaces of pkg
// (other than self) that text names: a doc that says a type implements
// WorkflowOutboundInterceptor has named those methods, and go doc of that
// interface's alias lists them.
func (c *Checker) methodsOfNamedInterfaces(pkg *sourcePackage, self, text string) map[string]bool {
	covered := map[string]bool{}
	for name, decl := range pkg.types {
		if name == self || !mentions(text, name) {
			continue
		}
		target, err := c.resolve(pkg, decl.file, &ast.Ident{Name: name}, 0)
		if err != nil || target == nil {
			continue
		}
		if _, ok := target.spec.Type.(*ast.InterfaceType); !ok {
			continue
		}
		methods, _ := target.exportedMembers(c)
		for _, m := range methods {
			covered[m] = true
		}
	}
	return covered
}

// mentions reports whether text names member as a whole word.
func mentions(text, member string) bool {
	return regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(member) + `([^\w]|$)`).MatchString(text)
}

// wellKnownMethods need no mention: every Go reader knows what an error's
// Error or a Stringer's String does.
var wellKnownMethods = map[string]bool{"Error": true, "String": true}

// exportedMembers lists the exported fields and methods of a struct type,
// or the methods of an interface type, in declaration order; an embedded
// field counts by its type's name, an embedded interface by its methods
// when the module declares it. These are what go doc would show of the
// type itself.
func (t *typeDecl) exportedMembers(c *Checker) ([]string, string) {
	var members []string
	seen := map[string]bool{}
	add := func(name string) {
		if ast.IsExported(name) && !seen[name] {
			seen[name] = true
			members = append(members, name)
		}
	}
	switch typ := t.spec.Type.(type) {
	case *ast.StructType:
		for _, field := range typ.Fields.List {
			for _, name := range memberNames(field) {
				add(name)
			}
		}
		for _, name := range t.pkg.methods[t.spec.Name.Name] {
			if !wellKnownMethods[name] {
				add(name)
			}
		}
		return members, "fields and methods"
	case *ast.InterfaceType:
		for _, field := range typ.Methods.List {
			if len(field.Names) > 0 {
				for _, name := range field.Names {
					add(name.Name)
				}
				continue
			}
			// An embedded interface: its methods are the alias's methods.
			embedded, err := c.resolve(t.pkg, t.file, field.Type, 0)
			if err != nil || embedded == nil {
				add(typeName(field.Type))
				continue
			}
			inner, _ := embedded.exportedMembers(c)
			for _, name := range inner {
				add(name)
			}
		}
		return members, "methods"
	}
	return nil, ""
}

// memberNames is a field's names, or for an embedded field its type's name.
func memberNames(field *ast.Field) []string {
	if len(field.Names) == 0 {
		return []string{typeName(field.Type)}
	}
	names := make([]string, len(field.Names))
	for i, n := range field.Names {
		names[i] = n.Name
	}
	return names
}

func typeName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	}
	return ""
}

// resolve finds the declaration of the struct or interface type that expr
// (in file) names, following aliases; nil when the type is declared outside
// the module or is neither a struct nor an interface.
func (c *Checker) resolve(pkg *sourcePackage, file *ast.File, expr ast.Expr, depth int) (*typeDecl, error) {
	if depth > 10 {
		return nil, fmt.Errorf("alias chain longer than 10 at %s", c.fset.Position(expr.Pos()))
	}
	var name string
	switch e := expr.(type) {
	case *ast.IndexExpr:
		return c.resolve(pkg, file, e.X, depth)
	case *ast.IndexListExpr:
		return c.resolve(pkg, file, e.X, depth)
	case *ast.SelectorExpr:
		qualifier, ok := e.X.(*ast.Ident)
		if !ok {
			return nil, nil
		}
		importPath := importPathOf(file, qualifier.Name)
		if importPath == "" || (importPath != c.ModulePath && !strings.HasPrefix(importPath, c.ModulePath+"/")) {
			return nil, nil
		}
		var err error
		pkg, err = c.load(strings.TrimPrefix(strings.TrimPrefix(importPath, c.ModulePath), "/"))
		if err != nil {
			return nil, err
		}
		name = e.Sel.Name
	case *ast.Ident:
		name = e.Name
	default:
		return nil, nil
	}
	decl, ok := pkg.types[name]
	if !ok {
		return nil, fmt.Errorf("type %s not found in %s", name, pkg.dir)
	}
	if decl.spec.Assign.IsValid() {
		return c.resolve(decl.pkg, decl.file, decl.spec.Type, depth+1)
	}
	switch decl.spec.Type.(type) {
	case *ast.StructType, *ast.InterfaceType:
		return decl, nil
	}
	return nil, nil
}

// importPathOf returns the path that name refers to in file's imports.
func importPathOf(file *ast.File, name string) string {
	for _, imp := range file.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if imp.Name != nil {
			if imp.Name.Name == name {
				return p
			}
			continue
		}
		if path.Base(p) == name {
			return p
		}
	}
	return ""
}

// load parses the non-test Go files of dir (relative to Root), once.
func (c *Checker) load(dir string) (*sourcePackage, error) {
	if pkg, ok := c.packages[dir]; ok {
		return pkg, nil
	}
	full := filepath.Join(c.Root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(full)
	if err != nil {
		return nil, fmt.Errorf("read package %s: %w", dir, err)
	}
	pkg := &sourcePackage{dir: dir, types: map[string]*typeDecl{}, methods: map[string][]string{}}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(c.fset, filepath.Join(full, name), nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		pkg.name = file.Name.Name
		pkg.files = append(pkg.files, file)
		for _, decl := range file.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.IsExported() {
				recv := receiverTypeName(fn.Recv.List[0].Type)
				pkg.methods[recv] = append(pkg.methods[recv], fn.Name.Name)
			}
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				pkg.types[ts.Name.Name] = &typeDecl{spec: ts, file: file, pkg: pkg}
			}
		}
	}
	if len(pkg.files) == 0 {
		return nil, fmt.Errorf("package %s has no Go files", dir)
	}
	c.packages[dir] = pkg
	return pkg, nil
}

// hasText reports whether a comment group says something (a bare "//"
// does not count).
func hasText(group *ast.CommentGroup) bool {
	return group != nil && strings.TrimSpace(group.Text()) != ""
}
