package wf

import (
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func ClientInWorkflow(ctx workflow.Context) error { // want ClientInWorkflow:"nondeterministic"
	c, err := client.Dial() // want `client.Dial called: ClientInWorkflow; the client, worker, activity and testsuite packages are not for workflow code`
	if err != nil {
		return err
	}
	c.Close()           // want `client.Client.Close called`
	_ = worker.New("q") // want `worker.New called`
	return nil
}
