package wf

import (
	"example.com/deep"
	"example.com/helpers"
	"example.com/lib"
	"github.com/durable-go/sdk/workflow"
)

func CrossPackageWorkflow(ctx workflow.Context) (int, error) { // want CrossPackageWorkflow:"nondeterministic"
	n := helpers.Outer() // want `time.Now called: CrossPackageWorkflow -> helpers.Outer -> helpers.middle -> deep.Now at deep/deep.go:8; use workflow.Now`
	n += helpers.Pure(1, 2) + deep.Double(n)
	n += helpers.Pick([]int{1, 2}) // want `math/rand.Intn called: CrossPackageWorkflow -> helpers.Pick at helpers/helpers.go:\d+`
	s := helpers.NewStore("x")
	_ = s.Save(nil)    // want `os.WriteFile called: CrossPackageWorkflow -> \(\*helpers.Store\).Save at helpers/helpers.go:\d+; do I/O in an activity`
	_ = lib.Hostname() // want `os.Hostname called: CrossPackageWorkflow -> lib.Hostname at lib/lib.go:\d+`
	_ = helpers.Step(ctx)
	return n, nil
}
