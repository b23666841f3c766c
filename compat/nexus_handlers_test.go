package compat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	enumspb "go.temporal.io/api/enums/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialtemporalnexus "go.temporal.io/sdk/temporalnexus"
	official "go.temporal.io/sdk/workflow"

	oursactivity "github.com/durable-go/sdk/activity"
	oursclient "github.com/durable-go/sdk/client"
	ourstemporal "github.com/durable-go/sdk/temporal"
	ourstemporalnexus "github.com/durable-go/sdk/temporalnexus"
	ours "github.com/durable-go/sdk/workflow"
)

// The handler side of Nexus, one source for both SDKs: the Official half
// is the Ours half with the SDK renamed (TestNexusHandlerSourceIsOneSource).

// handlerServiceName is the service both SDKs' handler workers serve.
const handlerServiceName = "compat-handler"

// NexusHandlerServiceOurs is the handler's service: a synchronous
// operation that reads its context, one the handler refuses, one that
// fails as an operation, one that fails with a non-retryable application
// error, a workflow-run operation whose workflow answers, or waits to be
// canceled, and operations of the generic Temporal kind: one that answers
// at once or starts that workflow, one that updates it.
func NexusHandlerServiceOurs() *nexus.Service {
	svc := nexus.NewService(handlerServiceName)
	svc.MustRegister(
		nexus.NewSyncOperation("echo", func(ctx context.Context, in string, o nexus.StartOperationOptions) (string, error) {
			info := ourstemporalnexus.GetOperationInfo(ctx)
			ourstemporalnexus.GetLogger(ctx).Info("echo", "Input", in)
			ourstemporalnexus.GetMetricsHandler(ctx).Counter("compat_echo").Inc(1)
			return fmt.Sprintf("echo: %s (nexus context %v, namespace set %v, request ID set %v, client set %v)", in,
				ourstemporalnexus.IsNexusOperation(ctx), info.Namespace != "", o.RequestID != "", ourstemporalnexus.GetClient(ctx) != nil), nil
		}),
		nexus.NewSyncOperation("refuse", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "cannot take %q", in)
		}),
		nexus.NewSyncOperation("fail", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewOperationFailedErrorf("no stock for %q", in)
		}),
		nexus.NewSyncOperation("stop", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", ourstemporal.NewNonRetryableApplicationError("stopped on "+in, "Stop", nil)
		}),
		ourstemporalnexus.NewWorkflowRunOperation("run", NexusHandlerSideWorkflowOurs,
			func(_ context.Context, _ string, o nexus.StartOperationOptions) (oursclient.StartWorkflowOptions, error) {
				return oursclient.StartWorkflowOptions{ID: "nexus-handler-side-" + o.RequestID}, nil
			}),
		ourstemporalnexus.MustNewTemporalOperation(ourstemporalnexus.TemporalOperationOptions[string, string]{
			Name: "temporal",
			Start: func(ctx context.Context, nc ourstemporalnexus.NexusClient, in string, o ourstemporalnexus.StartTemporalOperationOptions) (ourstemporalnexus.TemporalOperationResult[string], error) {
				if in == "sync" {
					return ourstemporalnexus.NewSyncResult("answered: " + in), nil
				}
				if strings.HasPrefix(in, "activity") {
					return ourstemporalnexus.StartActivity(ctx, nc, oursclient.StartActivityOptions{ID: "nexus-handler-side-activity-" + o.RequestID,
						StartToCloseTimeout: 30 * time.Second, RetryPolicy: &ourstemporal.RetryPolicy{MaximumAttempts: 1}}, NexusHandlerSideActivityOurs, in)
				}
				return ourstemporalnexus.StartWorkflow(ctx, nc, oursclient.StartWorkflowOptions{ID: "nexus-handler-side-" + o.RequestID},
					NexusHandlerSideWorkflowOurs, in)
			},
		}),
		ourstemporalnexus.MustNewTemporalOperation(ourstemporalnexus.TemporalOperationOptions[string, string]{
			Name: "update",
			Start: func(ctx context.Context, nc ourstemporalnexus.NexusClient, in string, o ourstemporalnexus.StartTemporalOperationOptions) (ourstemporalnexus.TemporalOperationResult[string], error) {
				id := "nexus-handler-side-updated-" + o.RequestID
				_, err := ourstemporalnexus.GetClient(ctx).ExecuteWorkflow(ctx, oursclient.StartWorkflowOptions{ID: id, TaskQueue: ourstemporalnexus.GetOperationInfo(ctx).TaskQueue,
					WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, "NexusHandlerSideWorkflow", "wait")
				if err != nil {
					return ourstemporalnexus.TemporalOperationResult[string]{}, err
				}
				return ourstemporalnexus.StartUpdateWorkflow[string](ctx, nc, oursclient.UpdateWorkflowOptions{
					WorkflowID: id, UpdateName: "bump", Args: []any{in}, WaitForStage: oursclient.WorkflowUpdateStageAccepted})
			},
		}),
	)
	return svc
}

// NexusHandlerSideWorkflowOurs backs the "run" operation: it answers at
// once, or, given "wait", waits until canceled; its update "bump" answers.
func NexusHandlerSideWorkflowOurs(ctx ours.Context, input string) (string, error) {
	if err := ours.SetUpdateHandler(ctx, "bump", func(ctx ours.Context, by string) (string, error) {
		return "bumped by " + by, nil
	}); err != nil {
		return "", err
	}
	if input == "wait" {
		return "", ours.Sleep(ctx, time.Hour)
	}
	return "ran: " + input, nil
}

// NexusHandlerSideActivityOurs backs the "temporal" operation given
// "activity...": a standalone activity the handler starts
// (StartActivity); "activity-fail" fails it for good. It says whether it
// knows the operation's serialization context.
func NexusHandlerSideActivityOurs(ctx context.Context, in string) (string, error) {
	if in == "activity-fail" {
		return "", ourstemporal.NewNonRetryableApplicationError("activity stopped on "+in, "ActivityStop", nil)
	}
	nc := oursactivity.GetInfo(ctx).NexusSerializationContext
	return fmt.Sprintf("activity ran: %s (nexus context %v)", in, nc != nil && nc.Operation == "temporal"), nil
}

// NexusHandlerServiceOfficial is the handler's service: a synchronous
// operation that reads its context, one the handler refuses, one that
// fails as an operation, one that fails with a non-retryable application
// error, a workflow-run operation whose workflow answers, or waits to be
// canceled, and operations of the generic Temporal kind: one that answers
// at once or starts that workflow, one that updates it.
func NexusHandlerServiceOfficial() *nexus.Service {
	svc := nexus.NewService(handlerServiceName)
	svc.MustRegister(
		nexus.NewSyncOperation("echo", func(ctx context.Context, in string, o nexus.StartOperationOptions) (string, error) {
			info := officialtemporalnexus.GetOperationInfo(ctx)
			officialtemporalnexus.GetLogger(ctx).Info("echo", "Input", in)
			officialtemporalnexus.GetMetricsHandler(ctx).Counter("compat_echo").Inc(1)
			return fmt.Sprintf("echo: %s (nexus context %v, namespace set %v, request ID set %v, client set %v)", in,
				officialtemporalnexus.IsNexusOperation(ctx), info.Namespace != "", o.RequestID != "", officialtemporalnexus.GetClient(ctx) != nil), nil
		}),
		nexus.NewSyncOperation("refuse", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "cannot take %q", in)
		}),
		nexus.NewSyncOperation("fail", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewOperationFailedErrorf("no stock for %q", in)
		}),
		nexus.NewSyncOperation("stop", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", officialtemporal.NewNonRetryableApplicationError("stopped on "+in, "Stop", nil)
		}),
		officialtemporalnexus.NewWorkflowRunOperation("run", NexusHandlerSideWorkflowOfficial,
			func(_ context.Context, _ string, o nexus.StartOperationOptions) (officialclient.StartWorkflowOptions, error) {
				return officialclient.StartWorkflowOptions{ID: "nexus-handler-side-" + o.RequestID}, nil
			}),
		officialtemporalnexus.MustNewTemporalOperation(officialtemporalnexus.TemporalOperationOptions[string, string]{
			Name: "temporal",
			Start: func(ctx context.Context, nc officialtemporalnexus.NexusClient, in string, o officialtemporalnexus.StartTemporalOperationOptions) (officialtemporalnexus.TemporalOperationResult[string], error) {
				if in == "sync" {
					return officialtemporalnexus.NewSyncResult("answered: " + in), nil
				}
				if strings.HasPrefix(in, "activity") {
					return officialtemporalnexus.StartActivity(ctx, nc, officialclient.StartActivityOptions{ID: "nexus-handler-side-activity-" + o.RequestID,
						StartToCloseTimeout: 30 * time.Second, RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}}, NexusHandlerSideActivityOfficial, in)
				}
				return officialtemporalnexus.StartWorkflow(ctx, nc, officialclient.StartWorkflowOptions{ID: "nexus-handler-side-" + o.RequestID},
					NexusHandlerSideWorkflowOfficial, in)
			},
		}),
		officialtemporalnexus.MustNewTemporalOperation(officialtemporalnexus.TemporalOperationOptions[string, string]{
			Name: "update",
			Start: func(ctx context.Context, nc officialtemporalnexus.NexusClient, in string, o officialtemporalnexus.StartTemporalOperationOptions) (officialtemporalnexus.TemporalOperationResult[string], error) {
				id := "nexus-handler-side-updated-" + o.RequestID
				_, err := officialtemporalnexus.GetClient(ctx).ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: officialtemporalnexus.GetOperationInfo(ctx).TaskQueue,
					WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, "NexusHandlerSideWorkflow", "wait")
				if err != nil {
					return officialtemporalnexus.TemporalOperationResult[string]{}, err
				}
				return officialtemporalnexus.StartUpdateWorkflow[string](ctx, nc, officialclient.UpdateWorkflowOptions{
					WorkflowID: id, UpdateName: "bump", Args: []any{in}, WaitForStage: officialclient.WorkflowUpdateStageAccepted})
			},
		}),
	)
	return svc
}

// NexusHandlerSideWorkflowOfficial backs the "run" operation: it answers at
// once, or, given "wait", waits until canceled; its update "bump" answers.
func NexusHandlerSideWorkflowOfficial(ctx official.Context, input string) (string, error) {
	if err := official.SetUpdateHandler(ctx, "bump", func(ctx official.Context, by string) (string, error) {
		return "bumped by " + by, nil
	}); err != nil {
		return "", err
	}
	if input == "wait" {
		return "", official.Sleep(ctx, time.Hour)
	}
	return "ran: " + input, nil
}

// NexusHandlerSideActivityOfficial backs the "temporal" operation given
// "activity...": a standalone activity the handler starts
// (StartActivity); "activity-fail" fails it for good. It says whether it
// knows the operation's serialization context.
func NexusHandlerSideActivityOfficial(ctx context.Context, in string) (string, error) {
	if in == "activity-fail" {
		return "", officialtemporal.NewNonRetryableApplicationError("activity stopped on "+in, "ActivityStop", nil)
	}
	nc := officialactivity.GetInfo(ctx).NexusSerializationContext
	return fmt.Sprintf("activity ran: %s (nexus context %v)", in, nc != nil && nc.Operation == "temporal"), nil
}
