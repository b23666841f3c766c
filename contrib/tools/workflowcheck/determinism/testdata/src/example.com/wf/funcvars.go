package wf

import (
	"os"
	"time"

	"github.com/durable-go/sdk/workflow"
)

// Calls through package-level variables that are never reassigned are
// followed to the function they hold.
var (
	clock   = time.Now
	cleanup = func(ctx workflow.Context) error {
		return os.Remove("tmp") // want `os.Remove called: FuncVarWorkflow -> cleanup`
	}
	swappable = time.Now // want swappable:"mutable"
)

func FuncVarWorkflow(ctx workflow.Context) error { // want FuncVarWorkflow:"nondeterministic"
	_ = clock()     // want `time.Now called: FuncVarWorkflow`
	_ = swappable() // want `package variable swappable read`
	return cleanup(ctx)
}

func replaceClock() { swappable = func() time.Time { return time.Time{} } }
