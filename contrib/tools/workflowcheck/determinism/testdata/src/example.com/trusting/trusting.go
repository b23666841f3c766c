// Package trusting calls a library the tests run with -trust.
package trusting

import (
	"example.com/lib"
	"github.com/durable-go/sdk/workflow"
)

func TrustingWorkflow(ctx workflow.Context) (string, error) {
	return lib.Hostname() + string(rune(lib.Mutable)), nil
}
