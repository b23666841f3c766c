package doccheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The snippet check: every ```go block of the docs users read compiles as
// shown. A snippet is usually a fragment (a function, or a few statements
// of one), so it is compiled under these rules:
//
//  1. Imports. A snippet that starts with a package clause is a whole
//     file and is compiled as written. Any other snippet writes no
//     imports: each package name it uses (workflow.Go, time.Second) is
//     imported from snippetImports, the names the docs use for the SDK's
//     packages, its contrib packages, testify's and the standard
//     library's.
//  2. Layout. A snippet made of declarations only is a file. Otherwise
//     its func and type declarations (at the start of a line) stay at the
//     top level, and all its other lines, in order, are the body of one
//     function.
//  3. Context. A comment on the lines just before the fence says what the
//     surrounding code, which the doc does not show, declares:
//
//     <!-- snippet
//     in: examples/saga
//     func: func(ctx workflow.Context, trip Trip) error
//     with: type Order struct{ ID string }
//     partial: why it cannot compile
//     -->
//
//     in: the snippet is a file of the package in that directory of the
//     repository and may use its names; a name the snippet declares
//     replaces the package's declaration of it (the doc shows its own
//     version). func: the signature of the function the statements run
//     in (default func()); its parameters stand for the variables the
//     statements use. Statements cut from a longer function may end
//     before it returns, or declare a variable for code not shown: the
//     wrapping function's "missing return" and "declared and not used"
//     are not reported. with: one line of Go declarations added to the
//     file (may repeat). partial: the snippet is not compiled, for the
//     reason given (a file importing the reader's own packages, say).
//
// Snippets are type-checked with go/types against the export data of the
// packages they import, which go list -export builds in the snippet's
// module: the module of its in: directory, else the module of a contrib
// package it imports, else the root.

// snippetImports maps the package names the docs use to import paths.
var snippetImports = map[string]string{
	"activity":      "github.com/durable-go/sdk/activity",
	"client":        "github.com/durable-go/sdk/client",
	"converter":     "github.com/durable-go/sdk/converter",
	"interceptor":   "github.com/durable-go/sdk/interceptor",
	"log":           "github.com/durable-go/sdk/log",
	"mocks":         "github.com/durable-go/sdk/mocks",
	"temporal":      "github.com/durable-go/sdk/temporal",
	"temporalnexus": "github.com/durable-go/sdk/temporalnexus",
	"nexus":         "github.com/nexus-rpc/sdk-go/nexus",
	"testsuite":     "github.com/durable-go/sdk/testsuite",
	"typed":         "github.com/durable-go/sdk/typed",
	"typedtest":     "github.com/durable-go/sdk/typed/typedtest",
	"worker":        "github.com/durable-go/sdk/worker",
	"workflow":      "github.com/durable-go/sdk/workflow",
	"envconfig":     "github.com/durable-go/sdk/contrib/envconfig",
	"opentelemetry": "github.com/durable-go/sdk/contrib/opentelemetry",
	"sdktally":      "github.com/durable-go/sdk/contrib/tally",
	"sysinfo":       "github.com/durable-go/sdk/contrib/sysinfo",
	"localstorage":  "github.com/durable-go/sdk/contrib/localstorage",
	"assert":        "github.com/stretchr/testify/assert",
	"mock":          "github.com/stretchr/testify/mock",
	"require":       "github.com/stretchr/testify/require",
	"suite":         "github.com/stretchr/testify/suite",
	"context":       "context",
	"errors":        "errors",
	"fmt":           "fmt",
	"http":          "net/http",
	"io":            "io",
	"os":            "os",
	"slog":          "log/slog",
	"strings":       "strings",
	"testing":       "testing",
	"time":          "time",
	"tls":           "crypto/tls",
}

// Snippet is one ```go block of a doc.
type Snippet struct {
	Doc  string // the doc, slash-separated and relative to the root
	Line int    // the line of the first line of code
	Code string // the code, without the fence's indentation

	In      string   // in: a package directory, relative to the root
	Func    string   // func: the signature of the statements' function
	With    []string // with: declarations the surrounding code makes
	Partial string   // partial: why it is not compiled
	// MarkerLine is the line of the snippet comment, 0 when there is none.
	MarkerLine int
}

// ReadSnippets returns the ```go blocks of the Markdown file doc
// (relative to root), with what the comment before each says.
func ReadSnippets(root, doc string) ([]Snippet, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	var snippets []Snippet
	for i := 0; i < len(lines); i++ {
		indent, ok := strings.CutSuffix(lines[i], "```go")
		if !ok || strings.TrimSpace(indent) != "" {
			continue
		}
		s := Snippet{Doc: doc, Line: i + 2}
		if err := s.readMarker(lines[:i]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", doc, i+1, err)
		}
		var code []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			code = append(code, strings.TrimPrefix(lines[i], indent))
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: the go block is not closed", doc, s.Line-1)
		}
		s.Code = strings.Join(code, "\n") + "\n"
		snippets = append(snippets, s)
	}
	return snippets, nil
}

// readMarker reads the snippet comment that ends on the last of before.
func (s *Snippet) readMarker(before []string) error {
	end := len(before) - 1
	if end < 0 || strings.TrimSpace(before[end]) != "-->" {
		return nil
	}
	start := end
	for start >= 0 && strings.TrimSpace(before[start]) != "<!-- snippet" {
		if start < end && strings.Contains(before[start], "-->") {
			return nil // another comment
		}
		start--
	}
	if start < 0 {
		return nil
	}
	s.MarkerLine = start + 1
	for n, line := range before[start+1 : end] {
		key, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		value = strings.TrimSpace(value)
		switch {
		case !ok || value == "":
			return fmt.Errorf("snippet comment line %d: want key: value, got %q", n+1, line)
		case key == "in":
			s.In = value
		case key == "func":
			s.Func = value
		case key == "with":
			s.With = append(s.With, value)
		case key == "partial":
			s.Partial = value
		default:
			return fmt.Errorf("snippet comment line %d: unknown key %q (in, func, with, partial)", n+1, key)
		}
	}
	return nil
}

// SnippetProblem is a snippet that does not compile.
type SnippetProblem struct {
	Pos     token.Position // where, in the doc (or the in: package)
	Message string
}

func (p SnippetProblem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.Pos.Filename, p.Pos.Line, p.Pos.Column, p.Message)
}

// CheckSnippets compiles the go blocks of docs (Markdown files relative
// to root, the repository's root) under the rules above, and returns
// what does not compile. skipped lists the partial snippets, with why.
func CheckSnippets(root string, docs []string) (problems []SnippetProblem, skipped []string, err error) {
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	c := &snippetChecker{root: root, fset: token.NewFileSet(), modules: map[string]*exportData{}}
	var snippets []*preparedSnippet
	for _, doc := range docs {
		found, err := ReadSnippets(root, doc)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range found {
			if s.Partial != "" {
				skipped = append(skipped, fmt.Sprintf("%s:%d: %s", s.Doc, s.Line, s.Partial))
				continue
			}
			p, problem := c.prepare(s)
			if problem != nil {
				problems = append(problems, *problem)
				continue
			}
			snippets = append(snippets, p)
		}
	}
	if err := c.loadExports(snippets); err != nil {
		return nil, nil, err
	}
	for _, p := range snippets {
		problems = append(problems, c.check(p)...)
	}
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i].Pos, problems[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return problems, skipped, nil
}

type snippetChecker struct {
	root    string
	fset    *token.FileSet
	modules map[string]*exportData // by module directory
}

// preparedSnippet is a snippet laid out as a Go file, before type checking.
type preparedSnippet struct {
	Snippet
	source  string // the file, with //line directives into the doc
	imports []string
	module  string // the directory of the module it compiles in
	pkgName string
	inFiles []*ast.File // the in: package's files
}

// prepare lays the snippet out as a file and finds the packages it
// imports and the module it compiles in.
func (c *snippetChecker) prepare(s Snippet) (*preparedSnippet, *SnippetProblem) {
	p := &preparedSnippet{Snippet: s, pkgName: "snippet"}
	fail := func(line int, format string, args ...any) (*preparedSnippet, *SnippetProblem) {
		return nil, &SnippetProblem{Pos: token.Position{Filename: s.Doc, Line: line, Column: 1}, Message: fmt.Sprintf(format, args...)}
	}
	if s.In != "" {
		files, name, err := c.parsePackage(s.In)
		if err != nil {
			return fail(s.MarkerLine, "in: %v", err)
		}
		p.inFiles, p.pkgName = files, name
	}
	whole := regexp.MustCompile(`(?m)^package \w+`).MatchString(s.Code)
	if whole {
		if s.In != "" || s.Func != "" || len(s.With) > 0 {
			return fail(s.MarkerLine, "a snippet with a package clause is a whole file: in, func and with do not apply")
		}
		p.source = fmt.Sprintf("//line %s:%d:1\n%s", s.Doc, s.Line, s.Code)
	} else {
		source, err := p.layOut()
		if err != nil {
			return fail(s.Line, "%v", err)
		}
		p.source = source
	}
	// The package names the snippet uses and does not declare.
	file, err := parser.ParseFile(c.fset, snippetFileName, p.source, parser.SkipObjectResolution)
	if err != nil {
		return nil, syntaxProblem(err)
	}
	if whole {
		for _, imp := range file.Imports {
			p.imports = append(p.imports, strings.Trim(imp.Path.Value, `"`))
		}
	} else {
		p.imports = c.undeclaredPackages(file)
		p.source = addImports(p.source, p.imports)
	}
	p.module, err = c.moduleOf(s.In, p.imports)
	if err != nil {
		return fail(s.Line, "%v", err)
	}
	return p, nil
}

func syntaxProblem(err error) *SnippetProblem {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return &SnippetProblem{Pos: list[0].Pos, Message: list[0].Msg}
	}
	return &SnippetProblem{Message: err.Error()}
}

// layOut writes the snippet as a Go file: its declarations at the top
// level, its statements in one function, the with: declarations after.
// //line directives keep the positions of the doc.
func (p *preparedSnippet) layOut() (string, error) {
	lines := strings.Split(strings.TrimSuffix(p.Code, "\n"), "\n")
	var decls, body strings.Builder
	if parses("package p\n" + p.Code) {
		fmt.Fprintf(&decls, "//line %s:%d:1\n%s", p.Doc, p.Line, p.Code)
	} else {
		declStart := regexp.MustCompile(`^(func (\(|[A-Za-z_])|type [A-Za-z_])`)
		inBody := false
		for i := 0; i < len(lines); i++ {
			if declStart.MatchString(lines[i]) {
				if end := declEnd(lines, i); end > i {
					fmt.Fprintf(&decls, "//line %s:%d:1\n%s\n", p.Doc, p.Line+i, strings.Join(lines[i:end], "\n"))
					i = end - 1
					inBody = false
					continue
				}
			}
			if !inBody {
				fmt.Fprintf(&body, "//line %s:%d:1\n", p.Doc, p.Line+i)
				inBody = true
			}
			body.WriteString(lines[i] + "\n")
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "package %s\n\n%s", p.pkgName, decls.String())
	if body.Len() > 0 {
		signature := strings.TrimSpace(strings.TrimPrefix(p.Func, "func"))
		if signature == "" {
			signature = "()"
		}
		line := p.MarkerLine
		if line == 0 {
			line = p.Line
		}
		fmt.Fprintf(&out, "\n//line %s:%d:1\nfunc %s%s {\n%s}\n", p.Doc, line, snippetFunc, signature, body.String())
	} else if p.Func != "" {
		return "", errors.New("func: is set but the snippet has no statements")
	}
	for _, with := range p.With {
		fmt.Fprintf(&out, "\n//line %s:%d:1\n%s\n", p.Doc, p.MarkerLine, with)
	}
	return out.String(), nil
}

// snippetFileName is the name a snippet's file is parsed under; its
// //line directives name the doc, relative to the root, as its directory
// is none.
const snippetFileName = "snippet.go"

// snippetFunc names the function that holds a snippet's statements.
const snippetFunc = "snippetStatements"

func parses(source string) bool {
	_, err := parser.ParseFile(token.NewFileSet(), "", source, parser.SkipObjectResolution)
	return err == nil
}

// declEnd returns the end (exclusive) of the shortest run of lines from
// start that is a whole declaration, or start when there is none.
func declEnd(lines []string, start int) int {
	for end := start + 1; end <= len(lines); end++ {
		if parses("package p\n" + strings.Join(lines[start:end], "\n")) {
			return end
		}
	}
	return start
}

// undeclaredPackages returns the import paths of the names of
// snippetImports that file uses as package qualifiers without declaring
// them, sorted.
func (c *snippetChecker) undeclaredPackages(file *ast.File) []string {
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Error: func(error) {}, Importer: noImports{}}
	_, _ = conf.Check("snippet", c.fset, []*ast.File{file}, info)
	seen := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && info.Uses[id] == nil {
				if importPath, ok := snippetImports[id.Name]; ok {
					seen[importPath] = true
				}
			}
		}
		return true
	})
	var paths []string
	for importPath := range seen {
		paths = append(paths, importPath)
	}
	sort.Strings(paths)
	return paths
}

type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("no imports in the first pass")
}

// addImports puts an import declaration after the package clause.
func addImports(source string, paths []string) string {
	if len(paths) == 0 {
		return source
	}
	var decl strings.Builder
	decl.WriteString("import (\n")
	for _, importPath := range paths {
		name := path.Base(importPath)
		for n, p := range snippetImports {
			if p == importPath {
				name = n
			}
		}
		fmt.Fprintf(&decl, "\t%s %q\n", name, importPath)
	}
	decl.WriteString(")\n")
	clause, rest, _ := strings.Cut(source, "\n")
	return clause + "\n" + decl.String() + rest
}

// moduleOf returns the directory of the module a snippet compiles in.
func (c *snippetChecker) moduleOf(in string, imports []string) (string, error) {
	if in != "" {
		return c.moduleDir(filepath.Join(c.root, filepath.FromSlash(in)))
	}
	module := c.root
	for _, importPath := range imports {
		rel, ok := strings.CutPrefix(importPath, "github.com/durable-go/sdk/")
		if !ok {
			continue
		}
		dir, err := c.moduleDir(filepath.Join(c.root, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		if dir != c.root {
			if module != c.root && module != dir {
				return "", fmt.Errorf("it imports packages of two modules, %s and %s", module, dir)
			}
			module = dir
		}
	}
	return module, nil
}

// moduleDir returns the nearest directory at or above dir with a go.mod.
func (c *snippetChecker) moduleDir(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return "", fmt.Errorf("%s is in no module", dir)
		}
	}
}

// parsePackage parses the non-test Go files of dir (relative to the root)
// that this toolchain's build includes.
func (c *snippetChecker) parsePackage(dir string) ([]*ast.File, string, error) {
	full := filepath.Join(c.root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(full)
	if err != nil {
		return nil, "", err
	}
	var files []*ast.File
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if match, err := build.Default.MatchFile(full, name); err != nil || !match {
			continue
		}
		file, err := parser.ParseFile(c.fset, filepath.Join(full, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, "", err
		}
		files = append(files, file)
	}
	if len(files) == 0 {
		return nil, "", fmt.Errorf("%s has no Go files", dir)
	}
	return files, files[0].Name.Name, nil
}

// exportData is where go list -export put the compiled export data of the
// packages one module's snippets need.
type exportData struct {
	files   map[string]string // by import path
	errs    map[string]string // go list's error for a package, by import path
	imports types.Importer
}

// loadExports runs go list -export once per module, for every package
// the module's snippets import, with their dependencies.
func (c *snippetChecker) loadExports(snippets []*preparedSnippet) error {
	wanted := map[string][]string{}
	for _, p := range snippets {
		wanted[p.module] = append(wanted[p.module], p.imports...)
		if p.In != "" {
			wanted[p.module] = append(wanted[p.module], "./"+filepath.ToSlash(mustRel(p.module, filepath.Join(c.root, p.In))))
		}
	}
	// One go list per module, one after the other: the modules share
	// most packages, and a package built for one is in the build cache
	// for the next when their dependencies agree.
	modules := make([]string, 0, len(wanted))
	for module := range wanted {
		modules = append(modules, module)
	}
	sort.Strings(modules) // the root, a prefix of the others, first
	for _, module := range modules {
		packages := wanted[module]
		slices.Sort(packages)
		data, err := listExports(module, slices.Compact(packages))
		if err != nil {
			return err
		}
		c.modules[module] = data
	}
	return nil
}

func mustRel(base, target string) string {
	rel, err := filepath.Rel(base, target)
	if err != nil {
		return target
	}
	return rel
}

func listExports(module string, packages []string) (*exportData, error) {
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{if .Error}}{{.Error.Err}}{{end}}\t{{if .Module}}{{.Dir}}\t{{join .GoFiles \"\\t\"}}{{end}}"}, packages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = module
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export in %s: %v: %s (the snippets of this module need its dependencies: go mod download there)", module, err, strings.TrimSpace(stderr.String()))
	}
	data := &exportData{files: map[string]string{}, errs: map[string]string{}}
	scanner := bufio.NewScanner(bytes.NewReader(out))
	scanner.Buffer(nil, 1<<20)
	for scanner.Scan() {
		fields := strings.Split(scanner.Text(), "\t")
		if len(fields) < 3 {
			continue
		}
		if len(fields) > 4 {
			// go test caches a test's result by the files the test itself
			// reads, and go list read these: stat them, so that a change
			// to a package the snippets use runs the test again.
			for _, name := range fields[4:] {
				_, _ = os.Stat(filepath.Join(fields[3], name))
			}
		}
		if fields[1] != "" {
			data.files[fields[0]] = fields[1]
		}
		if fields[2] != "" {
			data.errs[fields[0]] = fields[2]
		}
	}
	data.imports = importer.ForCompiler(token.NewFileSet(), "gc", func(importPath string) (io.ReadCloser, error) {
		file, ok := data.files[importPath]
		if !ok {
			if msg := data.errs[importPath]; msg != "" {
				return nil, errors.New(msg)
			}
			return nil, fmt.Errorf("go list in %s gave no export data for it", module)
		}
		return os.Open(file)
	})
	return data, nil
}

// check type-checks one snippet, with its in: package when it has one.
func (c *snippetChecker) check(p *preparedSnippet) []SnippetProblem {
	file, err := parser.ParseFile(c.fset, snippetFileName, p.source, parser.SkipObjectResolution)
	if err != nil {
		return []SnippetProblem{*syntaxProblem(err)}
	}
	files := []*ast.File{file}
	if p.In != "" {
		files = append(files, withoutDeclarationsOf(p.inFiles, file)...)
	}
	var wrapper *ast.FuncDecl
	for _, decl := range file.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == snippetFunc {
			wrapper = fn
		}
	}
	var problems []SnippetProblem
	conf := types.Config{
		Importer: c.modules[p.module].imports,
		Error: func(err error) {
			typeErr, ok := err.(types.Error)
			if !ok {
				problems = append(problems, SnippetProblem{Message: err.Error()})
				return
			}
			if wrapper != nil && typeErr.Pos >= wrapper.Pos() && typeErr.Pos <= wrapper.End() && cutShort(typeErr.Msg) {
				return
			}
			if c.fset.File(typeErr.Pos) != c.fset.File(file.Pos()) && strings.HasSuffix(typeErr.Msg, "imported and not used") {
				return // what the package used was a declaration the snippet replaces
			}
			problems = append(problems, SnippetProblem{Pos: c.fset.Position(typeErr.Pos), Message: typeErr.Msg})
		},
	}
	_, _ = conf.Check(p.pkgName, c.fset, files, nil)
	return problems
}

// cutShort reports whether a type error comes from cutting statements out
// of a longer function: the function's end is not shown, nor the code
// that uses a variable.
func cutShort(msg string) bool {
	return msg == "missing return" || strings.HasPrefix(msg, "declared and not used")
}

// withoutDeclarationsOf returns copies of files without the top-level
// functions, types, variables and constants that snippet declares.
func withoutDeclarationsOf(files []*ast.File, snippet *ast.File) []*ast.File {
	declared := map[string]bool{}
	for _, decl := range snippet.Decls {
		for _, name := range declNames(decl) {
			declared[name] = true
		}
	}
	out := make([]*ast.File, len(files))
	for i, f := range files {
		copied := *f
		copied.Decls = nil
		for _, decl := range f.Decls {
			names := declNames(decl)
			if !slices.ContainsFunc(names, func(n string) bool { return declared[n] }) {
				copied.Decls = append(copied.Decls, decl)
			}
		}
		out[i] = &copied
	}
	return out
}

// declNames returns the package-level names a declaration declares (a
// method's as Type.Method).
func declNames(decl ast.Decl) []string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return []string{receiverTypeName(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}
