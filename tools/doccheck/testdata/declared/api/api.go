// Package api is a public package for the declaration check's test: its
// official counterpart declares Conn, Options, Aliased and Missing.
package api

import "example.com/mod/internal"

// Conn is declared here, so go doc shows its methods.
type Conn interface {
	// Send sends a message.
	Send(msg string) error

	// Close closes the connection.
	Close()
}

// Options are declared here, so go doc shows their fields.
type Options struct {
	// Timeout bounds a call.
	Timeout int

	Name string // Name names the caller.
}

// Start starts a call.
func (o *Options) Start() {}

// Aliased is an alias, so go doc shows its comment alone.
type Aliased = internal.Options
