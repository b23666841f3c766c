// Package lib stands for a library: it has package-level variables, one of
// them written after initialisation, and does I/O.
package lib

import "os"

// Mutable is written by Set.
var Mutable = 1 // want Mutable:"mutable\\(written at lib/lib.go:15\\)"

// Constant is never written after initialisation.
var Constant = 2

// Set writes Mutable.
func Set(v int) { // want Set:"nondeterministic\\(package variable Mutable written at lib/lib.go:15\\)"
	Mutable = v
}

// Hostname does I/O.
func Hostname() string { // want Hostname:"nondeterministic\\(os.Hostname called at lib/lib.go:\\d+\\)"
	name, _ := os.Hostname()
	return name
}
