package layercheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package's directory.
var repoRoot = filepath.Join("..", "..")

func realTable(t *testing.T) []Layer {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := ParseTable(doc)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	return layers
}

// TestTheModuleFollowsTheLayerTable is the rule itself: the module's
// imports as go list sees them, against docs/architecture.md's table.
func TestTheModuleFollowsTheLayerTable(t *testing.T) {
	layers := realTable(t)
	pkgs, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Check(layers, pkgs) {
		t.Error(p)
	}
	// The check must have seen the packages it is about.
	paths := map[string]bool{}
	for _, p := range pkgs {
		paths[p.Path] = true
	}
	for _, want := range []string{"client", "internal", "internal/engine", "internal/testenv", "testsuite"} {
		if !paths[want] {
			t.Errorf("go list did not list %s", want)
		}
	}
}

// TestOnlyTestsuiteImportsTheTestEnvironment: the test environment is
// reached through package testsuite alone, so its types are testsuite's.
func TestOnlyTestsuiteImportsTheTestEnvironment(t *testing.T) {
	pkgs, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if slices.Contains(p.Imports, "internal/testenv") && p.Path != "testsuite" {
			t.Errorf("%s imports internal/testenv: only package testsuite may (its types are reached as testsuite's)", p.Path)
		}
	}
}

// TestTheTableReadsAsWritten: the real table parses into the rows the
// document shows, in order, commentary in parentheses skipped.
func TestTheTableReadsAsWritten(t *testing.T) {
	layers := realTable(t)
	if len(layers) < 10 {
		t.Fatalf("read %d rows, want the whole table", len(layers))
	}
	first, last := layers[0], layers[len(layers)-1]
	if first.Kind != KindProgram || last.Kind != KindLibrary {
		t.Errorf("first row %q is %s, last %q is %s; want programs on top and libraries at the bottom", first.Name, first.Kind, last.Name, last.Kind)
	}
	root, _ := layerOf(layers, "internal")
	engine, _ := layerOf(layers, "internal/engine")
	if root < 0 || engine < 0 || root >= engine {
		t.Errorf("internal is in row %d and internal/engine in row %d; the root must be above the engine", root, engine)
	}
	if i, _ := layerOf(layers, "testsuite"); i < 0 || layers[i].Kind != KindTest {
		t.Errorf("testsuite is not in a row of kind test")
	}
}

// The rules on a module small enough to read: each case breaks one rule,
// and the check must name it.
func TestCheckFindsWhatBreaksTheTable(t *testing.T) {
	doc := []byte(`# Example

## Layers

| layer | packages | kind | does |
|---|---|---|---|
| programs | ` + "`cmd/...`" + ` | program | tools |
| kit | ` + "`kit`" + ` (over ` + "`app`" + `) | test | test helpers |
| app | ` + "`app`" + ` | library | the API |
| engine | ` + "`engine`, `engine/parts`" + ` | library | the machinery |
| wire | ` + "`wire`" + ` | library | the transport |

## Next section
`)
	layers, err := ParseTable(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(layers); got != 5 {
		t.Fatalf("read %d rows, want 5", got)
	}
	if got := layers[1].Packages; !slices.Equal(got, []string{"kit"}) {
		t.Fatalf("kit's row lists %q; the parenthesized app is commentary", got)
	}
	good := []Package{
		{Path: "cmd/tool", Name: "main", Imports: []string{"kit", "app"}, Deps: []string{"kit", "app", "engine", testify}},
		{Path: "kit", Name: "kit", Imports: []string{"app", testify + "/mock"}, Deps: []string{"app", "engine", testify + "/mock"}},
		{Path: "app", Name: "app", Imports: []string{"engine", "fmt"}, Deps: []string{"engine", "engine/parts", "fmt"}},
		{Path: "engine", Name: "engine", Imports: []string{"engine/parts", "wire"}, Deps: []string{"engine/parts", "wire"}},
		{Path: "engine/parts", Name: "parts", Deps: nil},
		{Path: "wire", Name: "wire", Imports: []string{"net"}, Deps: []string{"net"}},
	}
	if problems := Check(layers, good); len(problems) != 0 {
		t.Fatalf("a module that follows the table has problems:\n%s", strings.Join(problems, "\n"))
	}

	cases := []struct {
		name   string
		change func(pkgs []Package) []Package
		want   []string
	}{
		{"an import of a layer above", func(pkgs []Package) []Package {
			pkgs[5].Imports = append(pkgs[5].Imports, "engine") // wire imports engine
			return pkgs
		}, []string{`wire (layer "wire") imports engine (layer "engine", above it in the table`}},
		{"a library importing test machinery", func(pkgs []Package) []Package {
			pkgs[3].Imports = append(pkgs[3].Imports, "kit") // engine imports kit
			pkgs[3].Deps = append(pkgs[3].Deps, "kit", testify+"/mock")
			pkgs[2].Deps = append(pkgs[2].Deps, "kit", testify+"/mock") // app links them through engine: said once, at engine
			return pkgs
		}, []string{`engine (layer "engine") imports kit (layer "kit", above it`, "engine (library) imports kit, which is test machinery"}},
		{"testify linked through a package outside the module", func(pkgs []Package) []Package {
			pkgs[5].Imports = append(pkgs[5].Imports, "example.com/helper")
			pkgs[5].Deps = append(pkgs[5].Deps, "example.com/helper", testify)
			pkgs[3].Deps = append(pkgs[3].Deps, "example.com/helper", testify)
			pkgs[2].Deps = append(pkgs[2].Deps, "example.com/helper", testify)
			return pkgs
		}, []string{"wire (library) links github.com/stretchr/testify, which is test machinery, through a package it imports"}},
		{"testify imported", func(pkgs []Package) []Package {
			pkgs[2].Imports = append(pkgs[2].Imports, testify+"/require")
			pkgs[2].Deps = append(pkgs[2].Deps, testify+"/require")
			return pkgs
		}, []string{"app (library) imports github.com/stretchr/testify/require, which is test machinery"}},
		{"a package in no row", func(pkgs []Package) []Package {
			return append(pkgs, Package{Path: "stray", Name: "stray"})
		}, []string{"stray is in no row of the layer table"}},
		{"a library in the program row", func(pkgs []Package) []Package {
			return append(pkgs, Package{Path: "cmd/helpers", Name: "helpers", Imports: []string{"kit"}, Deps: []string{"kit", testify}})
		}, []string{`cmd/helpers is package helpers, which a program can import, in the program row "programs"`}},
		{"a program in a library row", func(pkgs []Package) []Package {
			pkgs[3].Name = "main" // engine
			return pkgs
		}, []string{`engine is a program (package main) in the library row "engine"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkgs := c.change(clonePackages(good))
			problems := Check(layers, pkgs)
			ok := len(problems) == len(c.want)
			for i := 0; ok && i < len(problems); i++ {
				ok = strings.Contains(problems[i], c.want[i])
			}
			if !ok {
				t.Fatalf("problems:\n%s\nwant, in order, one containing each of:\n%s", strings.Join(problems, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// A module on disk (testdata/kinds), loaded with go list as the
// repository is: its add-on library imports the test kit, which the
// program above it may link and the library may not, and its program row
// holds a package that is not a command.
func TestCheckFindsALibraryThatLinksTestMachinery(t *testing.T) {
	dir := filepath.Join("testdata", "kinds")
	doc, err := os.ReadFile(filepath.Join(dir, "layers.md"))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := ParseTable(doc)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`cmd/helpers is package helpers, which a program can import, in the program row "programs"`,
		"replay (library) imports kit, which is test machinery",
	}
	problems := Check(layers, pkgs)
	ok := len(problems) == len(want)
	for i := 0; ok && i < len(problems); i++ {
		ok = strings.Contains(problems[i], want[i])
	}
	if !ok {
		t.Fatalf("problems:\n%s\nwant, in order, one containing each of:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

func TestATableWithoutKindsIsRefused(t *testing.T) {
	doc := []byte("## Layers\n\n| layer | packages | does |\n|---|---|---|\n| app | `app` | the API |\n")
	if _, err := ParseTable(doc); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Fatalf("got %v, want an error that names the missing kind column", err)
	}
	doc = []byte("## Layers\n\n| layer | packages | kind |\n|---|---|---|\n| app | `app` | production |\n")
	if _, err := ParseTable(doc); err == nil || !strings.Contains(err.Error(), `kind "production"; a kind is program, library or test`) {
		t.Fatalf("got %v, want an error that names the unknown kind", err)
	}
}

func clonePackages(pkgs []Package) []Package {
	out := make([]Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = Package{Path: p.Path, Name: p.Name, Imports: slices.Clone(p.Imports), Deps: slices.Clone(p.Deps)}
	}
	return out
}
