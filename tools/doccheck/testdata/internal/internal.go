package internal

import "io"

// Options is a struct with two exported fields and an unexported one.
type Options struct {
	// Timeout bounds the call.
	Timeout int
	// Name names it.
	Name   string
	hidden bool
}

// Handle is an interface with one method of its own and an embedded one.
type Handle interface {
	Embedded
	Close() error
}

// Embedded contributes its methods to Handle.
type Embedded interface {
	Describe() string
}

// Stream embeds an interface from outside the module.
type Stream interface {
	io.Reader
}

// Renamed is an alias inside internal, followed to its struct.
type Renamed = Options

// Count is neither a struct nor an interface.
type Count int

// Method is a method of Options, which go doc of an alias does not show.
func (o *Options) Method() {}

func (o *Options) unexportedMethod() {}

// HandleImpl implements Handle.
type HandleImpl struct{}

// Describe says what it is.
func (HandleImpl) Describe() string { return "" }

// Close closes it.
func (HandleImpl) Close() error { return nil }
