// Package layercheck makes the layer table of docs/architecture.md a
// checked rule, as pebble's forbidden-imports lint does for its packages.
//
// The table lists every package of the module in a row, rows ordered from
// the top (programs) to the bottom (foundations), and gives each row a
// kind, which says what its packages are:
//
//   - program: commands (package main), which nothing imports; they may
//     link anything;
//   - library: packages a program or a user's code imports; they must not
//     link test machinery;
//   - test: test machinery, which only tests link.
//
// Check holds the module to four rules:
//
//   - every package of the module is in exactly one row;
//   - a row's kind is true of its packages: those of a program row are
//     package main, and no other row holds one;
//   - a package imports only packages of its own row or of rows below it;
//   - a library links no test machinery: no package of kind test and no
//     testify, directly or through any package it depends on.
//
// The tests of this package run the check over the repository; a change
// that breaks a rule fails them with the import to remove or the row to
// move.
package layercheck

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// Kinds of rows.
const (
	KindProgram = "program"
	KindLibrary = "library"
	KindTest    = "test"
)

// testify is the module path of the test library a library must not
// link.
const testify = "github.com/stretchr/testify"

// Layer is one row of the table.
type Layer struct {
	Name string
	Kind string
	// Packages are module-relative paths ("internal/engine"); one ending
	// in "/..." stands for the packages under its directory.
	Packages []string
	Line     int // the row's line in the document
}

// Package is one package of the module as go list shows it, with
// module-relative paths for the module's packages and full paths for the
// others.
type Package struct {
	Path    string
	Name    string   // its package clause: "main" for a program
	Imports []string // what its non-test files import
	Deps    []string // everything it links, transitively
}

// ParseTable reads the table of the "## Layers" section of doc: the first
// table after that heading, whose header names the columns "layer",
// "packages" and "kind". A packages cell lists backquoted paths; text in
// parentheses is commentary and is skipped.
func ParseTable(doc []byte) ([]Layer, error) {
	sc := bufio.NewScanner(bytes.NewReader(doc))
	var (
		layers                 []Layer
		inSection, inTable     bool
		nameCol, pkgs, kindCol = -1, -1, -1
		line                   int
	)
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, "## "):
			if inTable {
				return layers, nil
			}
			inSection = text == "## Layers"
			continue
		case !inSection:
			continue
		case !strings.HasPrefix(text, "|"):
			if inTable {
				return layers, nil
			}
			continue
		}
		cells := splitRow(text)
		if !inTable {
			for i, c := range cells {
				switch strings.ToLower(c) {
				case "layer":
					nameCol = i
				case "packages":
					pkgs = i
				case "kind":
					kindCol = i
				}
			}
			if nameCol < 0 || pkgs < 0 || kindCol < 0 {
				return nil, fmt.Errorf("line %d: the layer table's header must name the columns layer, packages and kind; it is %q", line, text)
			}
			inTable = true
			continue
		}
		if strings.Trim(text, "|-: ") == "" { // the delimiter row
			continue
		}
		if len(cells) <= max(nameCol, pkgs, kindCol) {
			return nil, fmt.Errorf("line %d: the row has %d cells, the header more", line, len(cells))
		}
		l := Layer{Name: cells[nameCol], Kind: strings.Trim(cells[kindCol], "` "), Packages: backquoted(dropParenthesized(cells[pkgs])), Line: line}
		if !slices.Contains([]string{KindProgram, KindLibrary, KindTest}, l.Kind) {
			return nil, fmt.Errorf("line %d: layer %q has kind %q; a kind is program, library or test", line, l.Name, l.Kind)
		}
		if len(l.Packages) == 0 {
			return nil, fmt.Errorf("line %d: layer %q lists no package", line, l.Name)
		}
		layers = append(layers, l)
	}
	if !inTable {
		return nil, fmt.Errorf("no table with the columns layer, packages and kind under \"## Layers\"")
	}
	return layers, sc.Err()
}

func splitRow(row string) []string {
	parts := strings.Split(strings.Trim(row, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// dropParenthesized removes text in parentheses, nested ones included.
func dropParenthesized(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func backquoted(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+1+j+1:]
	}
}

// layerOf returns the index of the row whose packages include path, and
// how many rows do.
func layerOf(layers []Layer, path string) (index, rows int) {
	index = -1
	for i, l := range layers {
		for _, p := range l.Packages {
			prefix, tree := strings.CutSuffix(p, "/...")
			if path == prefix || tree && strings.HasPrefix(path, prefix+"/") {
				if index < 0 {
					index = i
				}
				rows++
				break
			}
		}
	}
	return index, rows
}

// Check returns, for each package of pkgs that breaks a rule, what is wrong
// and what to do, in the order of pkgs.
func Check(layers []Layer, pkgs []Package) []string {
	var problems []string
	rowOf := map[string]int{}
	depsOf := map[string][]string{}
	for _, p := range pkgs {
		depsOf[p.Path] = p.Deps
		i, rows := layerOf(layers, p.Path)
		switch {
		case rows == 0:
			problems = append(problems, fmt.Sprintf("%s is in no row of the layer table: add it to the row of the layer it belongs to", p.Path))
		case rows > 1:
			problems = append(problems, fmt.Sprintf("%s is in %d rows of the layer table: a package belongs to one layer", p.Path, rows))
		}
		rowOf[p.Path] = i
	}
	for _, p := range pkgs {
		i := rowOf[p.Path]
		if i < 0 {
			continue
		}
		l := layers[i]
		if problem := kindProblem(p, l); problem != "" {
			problems = append(problems, problem)
		}
		for _, imp := range p.Imports {
			j, known := rowOf[imp]
			if !known || j < 0 || j >= i {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s (layer %q) imports %s (layer %q, above it in the table, line %d): "+
				"dependencies point down the table; move the code %s needs below %s, or move %s up",
				p.Path, l.Name, imp, layers[j].Name, layers[j].Line, p.Path, l.Name, p.Path))
		}
		if l.Kind != KindLibrary {
			continue
		}
		// Test machinery is reported where it enters a library: at
		// the package that imports it, or that links it through a package
		// outside the module; not again at every package above.
		for _, dep := range p.Deps {
			if !isTestMachinery(layers, rowOf, dep) {
				continue
			}
			if slices.Contains(p.Imports, dep) {
				problems = append(problems, fmt.Sprintf("%s (library) imports %s, which is test machinery: the programs that import it must not link it", p.Path, dep))
				continue
			}
			if slices.ContainsFunc(p.Imports, func(imp string) bool { return slices.Contains(depsOf[imp], dep) }) {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s (library) links %s, which is test machinery, through a package it imports: "+
				"go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./%s shows which", p.Path, dep, p.Path))
		}
	}
	return problems
}

// kindProblem says how p's row's kind is untrue of it, or "" when it is
// true: a program row holds commands only, and commands are in program
// rows only.
func kindProblem(p Package, l Layer) string {
	switch {
	case l.Kind == KindProgram && p.Name != "main":
		return fmt.Sprintf("%s is package %s, which a program can import, in the program row %q (line %d): "+
			"move it to a library row, whose packages must not link test machinery (or to a test row if it is test machinery)", p.Path, p.Name, l.Name, l.Line)
	case l.Kind != KindProgram && p.Name == "main":
		return fmt.Sprintf("%s is a program (package main) in the %s row %q (line %d): move it to a program row", p.Path, l.Kind, l.Name, l.Line)
	}
	return ""
}

// isTestMachinery reports whether path is testify or a package of a row of
// kind test.
func isTestMachinery(layers []Layer, rowOf map[string]int, path string) bool {
	if path == testify || strings.HasPrefix(path, testify+"/") {
		return true
	}
	j, known := rowOf[path]
	return known && j >= 0 && layers[j].Kind == KindTest
}

// Load lists the packages of the module rooted at dir with go list, naming
// the module's packages relative to its path.
func Load(dir string) ([]Package, error) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Name}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	mod := exec.Command("go", "list", "-m")
	mod.Dir = dir
	modOut, err := mod.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m in %s: %v", dir, err)
	}
	modulePath := strings.TrimSpace(string(modOut))
	relative := func(paths []string) []string {
		for i, p := range paths {
			if p == modulePath {
				paths[i] = "."
			} else if rest, ok := strings.CutPrefix(p, modulePath+"/"); ok {
				paths[i] = rest
			}
		}
		return paths
	}
	var pkgs []Package
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "|")
		if len(fields) != 4 {
			return nil, fmt.Errorf("go list printed %q, not path|name|imports|deps", line)
		}
		pkgs = append(pkgs, Package{
			Path:    relative([]string{fields[0]})[0],
			Name:    fields[1],
			Imports: relative(strings.Fields(fields[2])),
			Deps:    relative(strings.Fields(fields[3])),
		})
	}
	return pkgs, nil
}
