// Package api stands for the official package that testdata/declared/api
// mirrors.
package api

import "example.com/official/internal"

// Conn is declared.
type Conn interface{ Close() }

// Options are declared.
type Options struct{ Timeout int }

// Aliased is declared here and aliased in the mirror.
type Aliased struct{}

// Missing is declared here and absent from the mirror.
type Missing struct{}

// Renamed is an alias here, so the mirror may alias it too.
type Renamed = internal.Renamed

type unexported struct{}
