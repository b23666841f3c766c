package doccheck

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// The path check: docs name files and directories of the repository
// (`internal/workerrt/poller.go`, [history-compat.md](history-compat.md)),
// and files move. CheckPaths finds the names that no longer lead anywhere.

// PathProblem is a path a doc names that does not exist.
type PathProblem struct {
	File string // the doc, slash-separated and relative to the root
	Line int
	Path string // as the doc writes it
}

func (p PathProblem) String() string {
	return fmt.Sprintf("%s:%d: %s does not exist", p.File, p.Line, p.Path)
}

// pathExtensions are the endings that make a token a file name even without
// a slash or a known first element.
var pathExtensions = []string{".go", ".md", ".sh", ".json", ".mod"}

// skippedDirs hold no docs of the repository's own: fixtures (which break
// paths on purpose), vendored and generated trees.
var skippedDirs = map[string]bool{"testdata": true, "vendor": true, "node_modules": true}

// CheckPaths scans the docs of the repository at root for the repository
// paths they name and returns those that do not exist, sorted by place.
// The docs are every Markdown file but CHANGELOG.md (history, naming files
// as they were), whose code spans and relative links are read, and the
// package doc comments of every Go file, whose words are read (Go doc
// comments write paths bare).
func CheckPaths(root string) ([]PathProblem, error) {
	p, docs, err := newPathChecker(root)
	if err != nil {
		return nil, err
	}
	for _, doc := range docs {
		var err error
		if strings.HasSuffix(doc, ".md") {
			err = p.checkMarkdown(doc)
		} else {
			err = p.checkGoPackageDoc(doc)
		}
		if err != nil {
			return nil, err
		}
	}
	sort.SliceStable(p.problems, func(i, j int) bool {
		a, b := p.problems[i], p.problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return p.problems, nil
}

// newPathChecker indexes the repository at root and lists its docs.
func newPathChecker(root string) (*pathChecker, []string, error) {
	p := &pathChecker{root: root, top: map[string]bool{}, dirNames: map[string]bool{}, suffixes: map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			p.top[e.Name()] = true
		}
	}
	var docs []string
	// Every file is indexed, fixtures too, as docs name them; only the
	// docs outside skippedDirs are read.
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, file)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if rel != "." && !inSkippedDir(rel) {
				p.dirNames[d.Name()] = true
			}
			return nil
		}
		p.addSuffixes(rel)
		if !p.isDoc(rel) {
			return nil
		}
		docs = append(docs, rel)
		return nil
	})
	return p, docs, err
}

type pathChecker struct {
	root     string
	top      map[string]bool // the entries at the root
	dirNames map[string]bool // the name of every directory but fixtures'
	// suffixes are the trailing parts of every file's path ("poller.go",
	// "workerrt/poller.go", ...), for names given without their directory.
	suffixes map[string]bool
	problems []PathProblem
}

// isDoc reports whether the file at rel is a doc to read: a Markdown file
// other than a changelog, or a Go file (for its package doc), outside
// skippedDirs and hidden directories.
func (p *pathChecker) isDoc(rel string) bool {
	name := path.Base(rel)
	return !inSkippedDir(rel) && ((strings.HasSuffix(name, ".md") && name != "CHANGELOG.md") ||
		(strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")))
}

// inSkippedDir reports whether rel is inside (or is) one of skippedDirs or
// a hidden directory.
func inSkippedDir(rel string) bool {
	for _, dir := range strings.Split(path.Dir(rel), "/") {
		if skippedDirs[dir] || (strings.HasPrefix(dir, ".") && dir != ".") {
			return true
		}
	}
	return false
}

func (p *pathChecker) addSuffixes(rel string) {
	for {
		p.suffixes[rel] = true
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return
		}
		rel = rel[i+1:]
	}
}

// report records a path that does not exist, as written without the
// punctuation around it.
func (p *pathChecker) report(doc string, line int, written string) {
	written = strings.TrimRight(strings.Trim(written, punctuation), ".:")
	p.problems = append(p.problems, PathProblem{File: doc, Line: line, Path: written})
}

// foreignCodeDocs are docs whose code spans name another repository's
// files, with why; their links are still checked.
var foreignCodeDocs = map[string]string{
	"docs/history-compat.md": "its file:line references are to go.temporal.io/sdk's source, as it says",
}

var (
	fence = regexp.MustCompile("^\\s*(```|~~~)")
	// link is an inline Markdown link or image, [text](target "title").
	link = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// linkDef is a reference link's definition, [name]: target.
	linkDef = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)`)
)

// checkMarkdown checks the code spans and relative links of a Markdown
// file, outside fenced code blocks (commands and programs, which name
// built files and example output).
func (p *pathChecker) checkMarkdown(doc string) error {
	data, err := os.ReadFile(filepath.Join(p.root, filepath.FromSlash(doc)))
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	open := "" // the fence of the code block the line is in
	for i, l := range lines {
		m := fence.FindStringSubmatch(l)
		switch {
		case m != nil && open == "":
			open = m[1]
		case m != nil && m[1] == open:
			open = ""
		case open == "":
			continue
		}
		lines[i] = ""
	}
	text := strings.Join(lines, "\n")
	lineAt := func(offset int) int { return 1 + strings.Count(text[:offset], "\n") }
	dir := path.Dir(doc)

	spans, rest := codeSpans(text)
	if _, foreign := foreignCodeDocs[doc]; foreign {
		spans = nil
	}
	for _, s := range spans {
		for _, f := range fields(s.text) {
			if !p.pathExists(f.text, dir) {
				p.report(doc, lineAt(s.offset+f.offset), f.text)
			}
		}
	}
	for _, m := range link.FindAllStringSubmatchIndex(rest, -1) {
		target := rest[m[2]:m[3]]
		if !p.linkExists(target, dir) {
			p.report(doc, lineAt(m[2]), target)
		}
	}
	offset := 0
	for _, l := range strings.SplitAfter(rest, "\n") {
		if m := linkDef.FindStringSubmatch(l); m != nil && !p.linkExists(m[1], dir) {
			p.report(doc, lineAt(offset), m[1])
		}
		offset += len(l)
	}
	return nil
}

// codeSpan is a piece of a doc's text and where it starts.
type codeSpan struct {
	text   string
	offset int
}

// codeSpans returns the code spans of Markdown text (a run of backticks to
// the next run of the same length) and the text with them blanked, so
// that a link's syntax inside a span is not read as a link.
func codeSpans(text string) ([]codeSpan, string) {
	var spans []codeSpan
	rest := []byte(text)
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := runLength(text, i)
		closing := -1
		for j := i + n; j < len(text); {
			if text[j] != '`' {
				j++
				continue
			}
			m := runLength(text, j)
			if m == n {
				closing = j
				break
			}
			j += m
		}
		if closing < 0 {
			i += n // an unmatched run is literal
			continue
		}
		spans = append(spans, codeSpan{text: text[i+n : closing], offset: i + n})
		for k := i; k < closing+n; k++ {
			if rest[k] != '\n' {
				rest[k] = ' '
			}
		}
		i = closing + n
	}
	return spans, string(rest)
}

// fields splits text around white space, as strings.Fields does, keeping
// where each field starts (a code span may run over lines).
func fields(text string) []codeSpan {
	var out []codeSpan
	start := -1
	for i, r := range text + " " {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, codeSpan{text: text[start:i], offset: start})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

func runLength(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// checkGoPackageDoc checks the words of a Go file's package doc comment,
// outside its code blocks (indented lines that do not start a list), which
// show programs and their output.
func (p *pathChecker) checkGoPackageDoc(file string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(p.root, filepath.FromSlash(file)), nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return err
	}
	if f.Doc == nil {
		return nil
	}
	dir := path.Dir(file)
	// As go doc reads a comment: a run of indented lines (blank lines
	// within it included) is a list if its first line starts an item, and
	// code otherwise.
	const text, list, code = 0, 1, 2
	block := text
	for _, c := range f.Doc.List {
		first := fset.Position(c.Slash).Line
		body := strings.TrimPrefix(c.Text, "//")
		if strings.HasPrefix(c.Text, "/*") {
			body = strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		}
		for i, l := range strings.Split(body, "\n") {
			l = strings.TrimPrefix(l, " ")
			switch {
			case strings.TrimSpace(l) == "":
				continue
			case l[0] != ' ' && l[0] != '\t':
				block = text
			case block == text && startsListItem(l):
				block = list
			case block == text:
				block = code
			}
			if block == code {
				continue
			}
			for _, tok := range strings.Fields(l) {
				if !p.pathExists(tok, dir) {
					p.report(file, first+i, tok)
				}
			}
		}
	}
	return nil
}

// listItem is how an item of a Go doc comment's list begins.
var listItem = regexp.MustCompile(`^\s+([-*+•]|\d+[.)])\s`)

// startsListItem reports an indented doc comment line that is a list item,
// which go doc prints as text, not as code.
func startsListItem(line string) bool { return listItem.MatchString(line) }

// linkExists reports whether a Markdown link's target exists: a URL, an
// anchor in the same doc or a file relative to the doc's directory (or to
// the root, for a target starting with /).
func (p *pathChecker) linkExists(target, dir string) bool {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
		return true
	}
	target, _, _ = strings.Cut(target, "#")
	target, _, _ = strings.Cut(target, "?")
	if strings.HasPrefix(target, "/") {
		return p.exists(strings.TrimPrefix(target, "/"))
	}
	return p.exists(path.Join(dir, target))
}

var (
	// lineSuffix is a position after a file name: file.go:12, :12-30, :12:4.
	lineSuffix = regexp.MustCompile(`(:\d+)+(-\d+)?$`)
	// pathChars are what a path is made of; a token with anything else (a
	// call's parentheses, an operator, a shell variable) is not one.
	pathChars = regexp.MustCompile(`^[A-Za-z0-9_.\-/*]+$`)
	// placeholder is an element written in capitals, as in examples/NAME.
	placeholder = regexp.MustCompile(`(^|/)[A-Z][A-Z_]+(/|$)`)
)

// punctuation is what may stand around a path in prose.
const punctuation = "\"'()[]{},;!?"

// modulePrefix is how Go code names the repository's root.
const modulePrefix = "github.com/durable-go/sdk/"

// pathExists reports whether a token from a doc is a path that exists, or
// is no repository path at all. A token is one when it is slash-separated
// and its first element is an entry of the root (internal/..., docs/...,
// scripts/...), or when it ends in an extension of pathExtensions and is
// a bare file name or begins with the name of a directory of the
// repository (wfsync/coroutine.go); it may begin with ./ or the module's
// import path, and end in /... (a Go package pattern), a line number, or
// .Name (a package-qualified identifier: the package is checked). It
// exists relative to the root or to dir (the doc's or package's
// directory); a name without its first directories exists when it ends
// some path of the repository.
func (p *pathChecker) pathExists(tok, dir string) bool {
	tok = strings.Trim(tok, punctuation)
	tok = strings.TrimRight(lineSuffix.ReplaceAllString(strings.TrimRight(tok, ".:"), ""), ".:")
	if !pathChars.MatchString(tok) || strings.Contains(tok, "//") || placeholder.MatchString(tok) {
		return true
	}
	tok = strings.TrimPrefix(tok, modulePrefix)
	tok = strings.TrimPrefix(tok, "./")
	tok = strings.TrimSuffix(tok, "/...")
	tok = strings.TrimSuffix(tok, "/")
	if tok == "" || tok == "." || strings.HasPrefix(tok, "../") {
		return true // the directory itself, or above it: not a name to check
	}
	first, _, slashed := strings.Cut(tok, "/")
	if slashed && p.top[first] {
		tok = packageOf(tok)
		return p.exists(tok) || p.exists(path.Join(dir, tok)) || isStdlib(tok)
	}
	hasExt := false
	for _, ext := range pathExtensions {
		if strings.HasSuffix(tok, ext) && len(tok) > len(ext) {
			hasExt = true
		}
	}
	switch {
	case !hasExt:
		return true
	case !slashed && (strings.HasPrefix(tok, "_") || strings.Contains(tok, "*")):
		return true // a kind of file (_test.go, *.json), not a file
	case slashed && !p.dirNames[first]:
		return true // another project's path (cmd/replay/main.go in the user's module)
	}
	return p.exists(tok) || p.exists(path.Join(dir, tok)) || (!strings.Contains(tok, "*") && p.suffixes[tok])
}

// packageOf turns a package-qualified identifier (contrib/sysinfo.New)
// into its package's path, and leaves other paths alone.
func packageOf(tok string) string {
	slash := strings.LastIndexByte(tok, '/')
	base := tok[slash+1:]
	if dot := strings.IndexByte(base, '.'); dot > 0 && dot+1 < len(base) && base[dot+1] >= 'A' && base[dot+1] <= 'Z' {
		return tok[:slash+1+dot]
	}
	return tok
}

// isStdlib reports whether tok is a standard library package (log/slog
// under a root that has a log directory too).
func isStdlib(tok string) bool {
	info, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(tok)))
	return err == nil && info.IsDir()
}

// exists reports whether rel (slash-separated, relative to the root, maybe
// a glob) names a file or directory.
func (p *pathChecker) exists(rel string) bool {
	full := filepath.Join(p.root, filepath.FromSlash(rel))
	if strings.Contains(rel, "*") {
		matches, err := filepath.Glob(full)
		return err == nil && len(matches) > 0
	}
	_, err := os.Stat(full)
	return err == nil
}
