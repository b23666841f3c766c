package determinism

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// maxFindingsPerFact bounds what a function's fact carries: enough to
// show the places to fix, without facts of library functions growing with
// everything they reach.
const maxFindingsPerFact = 8

// nondeterministicFact is exported for a function of a package from which
// operations that break determinism are reachable, so that calls from
// other packages are followed.
type nondeterministicFact struct {
	Findings []Finding
}

// A Finding is an operation that breaks determinism, reached from the
// function a fact is about.
type Finding struct {
	What, Hint string
	// Path lists the functions from the fact's function (excluded) to the
	// one that holds the operation, qualified by package name.
	Path []string
	// Location is where the operation is: "dir/file.go:12".
	Location string
}

func (*nondeterministicFact) AFact() {}

func (f *nondeterministicFact) String() string {
	parts := make([]string, len(f.Findings))
	for i, x := range f.Findings {
		parts[i] = x.What + " at " + x.Location
		if len(x.Path) > 0 {
			parts[i] += " via " + strings.Join(x.Path, " -> ")
		}
	}
	return "nondeterministic(" + strings.Join(parts, "; ") + ")"
}

// mutableGlobalFact is exported for a package-level variable that its
// package writes after initialisation.
type mutableGlobalFact struct {
	WrittenAt string
}

func (*mutableGlobalFact) AFact() {}

func (f *mutableGlobalFact) String() string {
	return fmt.Sprintf("mutable(written at %s)", f.WrittenAt)
}

// bestFindings orders findings by path length, then place, drops repeats
// of the same operation, and keeps the first maxFindingsPerFact.
func bestFindings(all []Finding) []Finding {
	slices.SortStableFunc(all, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(len(a.Path), len(b.Path)),
			cmp.Compare(a.Location, b.Location),
			cmp.Compare(a.What, b.What),
			cmp.Compare(strings.Join(a.Path, " "), strings.Join(b.Path, " ")),
		)
	})
	seen := map[string]bool{}
	var best []Finding
	for _, f := range all {
		key := f.What + "@" + f.Location
		if seen[key] {
			continue
		}
		seen[key] = true
		best = append(best, f)
		if len(best) == maxFindingsPerFact {
			break
		}
	}
	return best
}

func sameFindings(a, b []Finding) bool {
	return slices.EqualFunc(a, b, func(x, y Finding) bool {
		return x.What == y.What && x.Hint == y.Hint && x.Location == y.Location && slices.Equal(x.Path, y.Path)
	})
}

func prefixed(name string, fs []Finding) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.Path = append([]string{name}, f.Path...)
		out[i] = f
	}
	return out
}
