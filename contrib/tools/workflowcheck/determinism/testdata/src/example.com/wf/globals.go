package wf

import (
	"example.com/lib"
	"github.com/durable-go/sdk/workflow"
)

var counter int // want counter:"mutable\\(written at wf/globals.go:\\d+\\)"

// Read-only after initialisation: reading them is fine.
var (
	limits   = map[string]int{"a": 1}
	registry = map[string]int{}
	greeting = "hello"
)

// Written after initialisation by a method with a pointer receiver, and
// by taking its address.
var (
	tally   tallyCounter // want tally:"mutable"
	exposed = 3          // want exposed:"mutable"
)

type tallyCounter struct{ n int }

func (t *tallyCounter) inc()    { t.n++ }
func (t tallyCounter) get() int { return t.n }

func init() {
	registry["x"] = 1 // initialisation
}

func bump() {
	counter++ // want `package variable counter written: GlobalsWorkflow -> bump; global mutable state differs between workers and replays`
}

func GlobalsWorkflow(ctx workflow.Context) (int, error) { // want GlobalsWorkflow:"nondeterministic"
	bump()
	n := counter // want `package variable counter read: GlobalsWorkflow; it is written at wf/globals.go:\d+; global mutable state`
	n += limits["a"] + registry["x"] + len(greeting)
	tally.inc()      // want `package variable tally written`
	n += tally.get() // want `package variable tally read`
	p := &exposed    // want `package variable exposed written`
	_ = p
	n += lib.Mutable  // want `package variable lib.Mutable read: GlobalsWorkflow; it is written at lib/lib.go:15`
	n += lib.Constant // not written after initialisation
	return n, nil
}
