package doccheck

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The declaration check: go doc prints the fields and methods of a type
// declared in the package it documents, with their comments, and of an
// alias only the alias's own comment (`go doc client Client.ExecuteWorkflow`
// finds nothing when Client aliases internal.Client). go.temporal.io/sdk
// declares most of its public types in their packages, so a user reading
// go doc there sees every method; each of those types is declared here
// too. OfficialDeclaredTypes lists them from the official source,
// official_declared.txt keeps that list, and CheckDeclared runs go doc on
// our side of it.

// OfficialPackages are the public packages of go.temporal.io/sdk that this
// module mirrors, by directory.
var OfficialPackages = []string{"activity", "client", "converter", "interceptor", "log", "mocks", "temporal", "temporalnexus", "testsuite", "worker", "workflow"}

// OfficialDeclaredTypes returns "pkg.Name" for every exported type that one
// of the packages dirs (relative to root, a module's source tree) declares
// rather than aliases, sorted. Files that the build constraints of this
// toolchain exclude are skipped, as the compiler skips them.
func OfficialDeclaredTypes(root string, dirs []string) ([]string, error) {
	var names []string
	fset := token.NewFileSet()
	for _, dir := range dirs {
		full := filepath.Join(root, filepath.FromSlash(dir))
		entries, err := os.ReadDir(full)
		if os.IsNotExist(err) {
			continue // a package that version does not have
		}
		if err != nil {
			return nil, err
		}
		for _, entry := range entries {
			name := entry.Name()
			if entry.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			if match, err := build.Default.MatchFile(full, name); err != nil || !match {
				continue
			}
			file, err := parser.ParseFile(fset, filepath.Join(full, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.TYPE {
					continue
				}
				for _, spec := range gen.Specs {
					ts := spec.(*ast.TypeSpec)
					if ts.Name.IsExported() && !ts.Assign.IsValid() {
						names = append(names, file.Name.Name+"."+ts.Name.Name)
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// ReadNameList reads a list of "pkg.Name" lines; blank lines and lines
// starting with # are skipped.
func ReadNameList(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var names []string
	scanner := bufio.NewScanner(bytes.NewReader(data))
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Count(line, ".") != 1 {
			return nil, fmt.Errorf("%s: %q is not pkg.Name", path, line)
		}
		names = append(names, line)
	}
	return names, scanner.Err()
}

// member is one exported field or method of a declared type, as go doc
// prints it.
type member struct {
	name     string
	method   bool   // declared with a receiver (go doc prints it as a func)
	embedded bool   // an embedded field or interface, named by its type
	doc      string // the first line of its doc comment, "" when it has none
}

// CheckDeclared checks each "pkg.Name" of names against the module: a
// type the module has must be declared in its package, not aliased, and
// `go doc` must show every exported field and method of it with the first
// line of its comment, and find its first member by itself
// (`go doc pkg Name.Member`; the first not embedded). Names the module does not have yet are
// returned as absent, not as problems: they are missing API, which the
// API comparison reports.
func (c *Checker) CheckDeclared(names []string) (problems []Problem, absent []string, err error) {
	byDir := map[string][]string{}
	var dirs []string
	for _, qualified := range names {
		dir, name, _ := strings.Cut(qualified, ".")
		if _, ok := byDir[dir]; !ok {
			dirs = append(dirs, dir)
		}
		byDir[dir] = append(byDir[dir], name)
	}
	for _, dir := range dirs {
		pkg, err := c.load(dir)
		if err != nil {
			absent = append(absent, prefixAll(dir+".", byDir[dir])...)
			continue
		}
		var all string // go doc -all of the package, read once
		for _, name := range byDir[dir] {
			decl, ok := pkg.types[name]
			if !ok {
				absent = append(absent, pkg.name+"."+name)
				continue
			}
			report := func(format string, args ...any) {
				problems = append(problems, Problem{Pos: c.fset.Position(decl.spec.Pos()), Name: pkg.name + "." + name, Message: fmt.Sprintf(format, args...)})
			}
			if decl.spec.Assign.IsValid() {
				report("is an alias, so go doc shows none of its fields or methods; go.temporal.io/sdk declares it in its package: declare it here too (as client.Client is)")
				continue
			}
			if all == "" {
				if all, err = c.goDoc("-all", "./"+dir); err != nil {
					return nil, nil, err
				}
			}
			members := membersOf(pkg, decl)
			section := typeSection(all, name)
			if section == "" {
				report("go doc -all ./%s has no section for it", dir)
				continue
			}
			flat := flatten(section)
			for _, m := range members {
				if !showsMember(section, name, m) {
					report("go doc does not show its %s %s", m.kind(), m.name)
				} else if m.doc != "" && !strings.Contains(flat, flatten(m.doc)) {
					report("go doc does not show the comment of its %s %s (%q)", m.kind(), m.name, m.doc)
				}
			}
			// go doc finds a field or method by name, but not an embedded
			// one: ask for the first other.
			if i := slices.IndexFunc(members, func(m member) bool { return !m.embedded }); i >= 0 {
				first := members[i].name
				out, err := c.goDoc("./"+dir, name+"."+first)
				if err != nil {
					report("go doc ./%s %s.%s: %v", dir, name, first, err)
				} else if !strings.Contains(out, first) {
					report("go doc ./%s %s.%s does not show %s", dir, name, first, first)
				}
			}
		}
	}
	return problems, absent, nil
}

func prefixAll(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func (m member) kind() string {
	if m.method {
		return "method"
	}
	return "field or method"
}

// membersOf lists the exported fields of a struct or methods of an
// interface as declared (an embedded one by its type's name), then the
// exported methods declared on the type, each with its comment's first
// line.
func membersOf(pkg *sourcePackage, decl *typeDecl) []member {
	var members []member
	var fields *ast.FieldList
	switch t := decl.spec.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	}
	if fields != nil {
		for _, field := range fields.List {
			doc := firstLine(field.Doc)
			if doc == "" {
				doc = firstLine(field.Comment)
			}
			for _, name := range memberNames(field) {
				if ast.IsExported(name) {
					members = append(members, member{name: name, embedded: len(field.Names) == 0, doc: doc})
				}
			}
		}
	}
	for _, file := range pkg.files {
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv != nil && fn.Name.IsExported() && receiverTypeName(fn.Recv.List[0].Type) == decl.spec.Name.Name {
				members = append(members, member{name: fn.Name.Name, method: true, doc: firstLine(fn.Doc)})
			}
		}
	}
	return members
}

func firstLine(group *ast.CommentGroup) string {
	if group == nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(group.Text()), "\n")
	return line
}

// typeSection returns the part of `go doc -all` output about type name:
// its declaration, its comment, and the functions and methods go doc
// groups under it, up to the next type.
func typeSection(all, name string) string {
	start := regexp.MustCompile(`(?m)^type ` + regexp.QuoteMeta(name) + `\b`).FindStringIndex(all)
	if start == nil {
		return ""
	}
	rest := all[start[1]:]
	if next := regexp.MustCompile(`(?m)^type `).FindStringIndex(rest); next != nil {
		rest = rest[:next[0]]
	}
	return all[start[0]:start[1]] + rest
}

// showsMember reports whether a type's section shows m: a field or
// interface method as a line of the declaration, a method as a func line
// with the type as receiver.
func showsMember(section, typeName string, m member) bool {
	var pattern string
	if m.method {
		pattern = `(?m)^func \([^)]*\b` + regexp.QuoteMeta(typeName) + `\b[^)]*\) ` + regexp.QuoteMeta(m.name) + `[\[(]`
	} else {
		pattern = `(?m)^\t[\t ]*\*?(\w+\.)?` + regexp.QuoteMeta(m.name) + `\b`
	}
	return regexp.MustCompile(pattern).MatchString(section)
}

// flatten drops comment markers and folds white space, since go doc
// re-wraps the comments of functions and methods.
func flatten(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "//", " ")), " ")
}

// goDoc runs go doc with args in the module's root and returns what it
// printed.
func (c *Checker) goDoc(args ...string) (string, error) {
	cmd := exec.Command("go", append([]string{"doc"}, args...)...)
	cmd.Dir = c.Root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go doc %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
