package facade

import "example.com/mod/internal"

// Options configure a call: Timeout bounds it and Name names it; its
// Method does something.
type Options = internal.Options

// PartlyDocumented configure a call: only Timeout is named here.
type PartlyDocumented = internal.Renamed

// Handle is open: Describe says what it is, Close closes it.
type Handle = internal.Handle

// HandleMissingEmbedded names Close but not the embedded interface's method.
type HandleMissingEmbedded = internal.Handle

// Stream reads bytes.
type Stream = internal.Stream

// Count needs no member list.
type Count = internal.Count

type Undocumented = internal.Count

// Settings is declared here, so go doc prints its fields and their comments.
type Settings struct {
	// Documented has a comment.
	Documented int
	Bare       int
	unexported int
}

// Documented has a doc comment.
func Documented() {}

func Bare() {}

func unexported() {}

// Method has a doc comment.
func (Settings) Method() {}

func (Settings) BareMethod() {}

func (settings) hiddenType() {}

type settings struct{}

// The limits, documented as a group.
const (
	Low  = 1
	High = 2
)

const (
	// Alone has its own comment.
	Alone   = 3
	Nothing = 4
)

var Global = 5

// NamedStream is an io.Reader.
type NamedStream = internal.Stream

// HandleBase implements Handle, which names its methods.
type HandleBase = internal.HandleImpl

// This comment does not name the function.
func Misnamed() {}

// An Article may come before the name.
func Article() {}
