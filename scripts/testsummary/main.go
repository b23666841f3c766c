// Command testsummary reads `go test -json` output on stdin and prints a
// compact report: one line per package, the full output of failed tests
// and of packages that failed to build or run, and a line of totals. It
// exits 1 if anything failed.
//
// Usage: go test -json ./... | testsummary [-counts FILE] [-label NAME]
//
// With -counts, it also appends "PASSED FAILED SKIPPED" to FILE so that a
// script running several modules can add them up.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// event is one line of `go test -json` (see `go doc test2json`).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // on build-output and build-fail
}

type totals struct{ passed, failed, skipped int }

func main() {
	countsFile := flag.String("counts", "", "append `PASSED FAILED SKIPPED` to this file")
	label := flag.String("label", "", "name printed with the totals")
	flag.Parse()

	t, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	prefix := ""
	if *label != "" {
		prefix = *label + " "
	}
	fmt.Printf("%stests: %d passed, %d failed, %d skipped\n", prefix, t.passed, t.failed, t.skipped)
	if *countsFile != "" {
		f, err := os.OpenFile(*countsFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintf(f, "%d %d %d\n", t.passed, t.failed, t.skipped)
			err = closeErr(f, err)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(2)
		}
	}
	if t.failed > 0 {
		os.Exit(1)
	}
}

func closeErr(f *os.File, err error) error {
	if cerr := f.Close(); err == nil {
		return cerr
	}
	return err
}

// summarize streams events from r, writing the report to w. Output of a
// test is held until the test ends and shown only if it failed; package
// level output (ok/FAIL lines, TestMain messages, panics) is always shown.
// A package that fails with no failed test (build error, TestMain exit,
// crash, timeout) counts as one failure, and the held output of the tests
// it was running is shown.
func summarize(r io.Reader, w io.Writer) (totals, error) {
	var t totals
	held := map[string][]string{}        // package + test -> output lines
	failedTests := map[string]int{}      // package -> failed tests
	buildOutput := map[string][]string{} // import path -> compiler output
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 16<<20)
	for scanner.Scan() {
		line := scanner.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			// Not an event: go test prints some errors as plain text.
			fmt.Fprintln(w, string(line))
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch {
		case e.Action == "build-output":
			buildOutput[e.ImportPath] = append(buildOutput[e.ImportPath], e.Output)
		case e.Action == "build-fail":
			fmt.Fprint(w, strings.Join(buildOutput[e.ImportPath], ""))
			delete(buildOutput, e.ImportPath)
		case e.Test != "" && e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Test != "" && e.Action == "pass":
			t.passed++
			delete(held, key)
		case e.Test != "" && e.Action == "skip":
			t.skipped++
			delete(held, key)
		case e.Test != "" && e.Action == "fail":
			t.failed++
			failedTests[e.Package]++
			fmt.Fprint(w, strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "output":
			if out := e.Output; out != "PASS\n" && !strings.HasPrefix(out, "=== ") {
				fmt.Fprint(w, out)
			}
		case e.Action == "fail":
			if failedTests[e.Package] == 0 {
				t.failed++
			}
			// Tests still running when the package failed (a timeout's
			// panic, a crash) hold the output that says why.
			for _, k := range slices.Sorted(maps.Keys(held)) {
				if pkg, test, _ := strings.Cut(k, "\x00"); pkg == e.Package {
					fmt.Fprintf(w, "--- %s had not finished when %s failed; its output:\n%s", test, pkg, strings.Join(held[k], ""))
					delete(held, k)
				}
			}
		}
	}
	return t, scanner.Err()
}
