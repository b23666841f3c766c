package wf

import (
	"os"
	"time"

	"github.com/durable-go/sdk/workflow"
)

func IgnoreWorkflow(ctx workflow.Context, m map[string]int) error { // want IgnoreWorkflow:"nondeterministic"
	_ = time.Now() //workflowcheck:ignore only logged, never decides a command
	//workflowcheck:ignore only logged, never decides a command
	_ = time.Now()
	// workflowcheck:ignore a space after the slashes works too
	_ = time.Now()
	//workflowcheck:ignore the loop only logs, whatever the order
	for k := range m {
		_ = k + time.Now().String()
	}
	_ = time.Now() //workflowcheck:ignore // want `//workflowcheck:ignore needs a reason` `time.Now called: IgnoreWorkflow`
	//workflowcheck:ignore // want `needs a reason`
	_ = time.Now() // want `time.Now called: IgnoreWorkflow`
	_ = time.Now() //workflowcheck:ignored is another word // want `time.Now called`
	trustedHelper()
	return nil
}

// trustedHelper reads a file baked into the image, the same on every
// worker.
//
//workflowcheck:ignore the file is part of the deployment
func trustedHelper() {
	_, _ = os.ReadFile("/etc/build-id")
}
