package mocks

import (
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/mocks/internal/mocked"
)

// Each mock implements its interface. A build error here means an interface
// changed and the mocks are stale: run `go generate ./mocks`.
var (
	_ client.Client                       = (*Client)(nil)
	_ client.DeploymentClient             = (*DeploymentClient)(nil)
	_ client.DeploymentListIterator       = (*DeploymentListIterator)(nil)
	_ client.HistoryEventIterator         = (*HistoryEventIterator)(nil)
	_ client.NamespaceClient              = (*NamespaceClient)(nil)
	_ client.ScheduleClient               = (*ScheduleClient)(nil)
	_ client.ScheduleHandle               = (*ScheduleHandle)(nil)
	_ client.ScheduleListIterator         = (*ScheduleListIterator)(nil)
	_ client.WorkerDeploymentClient       = (*WorkerDeploymentClient)(nil)
	_ client.WorkerDeploymentHandle       = (*WorkerDeploymentHandle)(nil)
	_ client.WorkerDeploymentListIterator = (*WorkerDeploymentListIterator)(nil)
	_ client.WorkflowRun                  = (*WorkflowRun)(nil)
	_ client.WorkflowUpdateHandle         = (*WorkflowUpdateHandle)(nil)
	_ converter.EncodedValue              = (*Value)(nil)
	_ converter.ValuesPayloads            = (*Value)(nil)
	_ mocked.EncodedValue                 = (*Value)(nil)
)
