package mocks_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/mocks"
)

// The functions below are the kind of application code these mocks stand in
// for: each takes the client interface it uses, as the code under test would.

// processOrder starts the order's workflow and waits for its receipt.
func processOrder(ctx context.Context, c client.Client, orderID string) (string, error) {
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        "order-" + orderID,
		TaskQueue: "orders",
	}, "ProcessOrder", orderID)
	if err != nil {
		return "", fmt.Errorf("start order %s: %w", orderID, err)
	}
	var receipt string
	if err := run.Get(ctx, &receipt); err != nil {
		return "", fmt.Errorf("order %s (run %s): %w", run.GetID(), run.GetRunID(), err)
	}
	return receipt, nil
}

func TestClientExecuteWorkflowReturnsTheMockedRun(t *testing.T) {
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.AnythingOfType("*string")).
		Run(func(args mock.Arguments) { *args.Get(1).(*string) = "receipt-42" }).
		Return(nil)
	c := mocks.NewClient(t)
	// The workflow's arguments are matched one by one after the workflow.
	c.On("ExecuteWorkflow", mock.Anything,
		mock.MatchedBy(func(o client.StartWorkflowOptions) bool { return o.ID == "order-42" }),
		"ProcessOrder", "42").
		Return(run, nil).Once()

	receipt, err := processOrder(t.Context(), c, "42")
	require.NoError(t, err)
	require.Equal(t, "receipt-42", receipt)
}

func TestClientExecuteWorkflowErrorReachesTheCaller(t *testing.T) {
	started := serviceerror.NewWorkflowExecutionAlreadyStarted("already started", "", "run-1")
	c := mocks.NewClient(t)
	c.On("ExecuteWorkflow", mock.Anything, mock.Anything, "ProcessOrder", "42").Return(nil, started)

	_, err := processOrder(t.Context(), c, "42")
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	require.ErrorAs(t, err, &alreadyStarted)
	require.Equal(t, "run-1", alreadyStarted.RunId)
}

func TestClientReturnFunctionComputesResultsFromTheArguments(t *testing.T) {
	c := mocks.NewClient(t)
	// A function given to Return, with the method's signature, computes the
	// results from the call's arguments.
	c.On("ExecuteWorkflow", mock.Anything, mock.Anything, "ProcessOrder", mock.Anything).Return(
		func(_ context.Context, options client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			run := mocks.NewWorkflowRun(t)
			run.On("GetID").Return(options.ID).Maybe()
			run.On("GetRunID").Return("run-of-" + args[0].(string)).Maybe()
			run.On("Get", mock.Anything, mock.Anything).Return(errors.New("order rejected"))
			return run, nil
		}).Twice()

	for _, orderID := range []string{"7", "8"} {
		_, err := processOrder(t.Context(), c, orderID)
		require.EqualError(t, err, fmt.Sprintf("order order-%s (run run-of-%s): order rejected", orderID, orderID))
	}
}

func TestWorkflowRunGetWithOptions(t *testing.T) {
	run := mocks.NewWorkflowRun(t)
	run.On("GetWithOptions", mock.Anything, mock.Anything, client.WorkflowRunGetOptions{DisableFollowingRuns: true}).
		Return(nil).Once()
	run.On("GetFirstExecutionRunID").Return("first-run")

	var wr client.WorkflowRun = run
	require.NoError(t, wr.GetWithOptions(t.Context(), nil, client.WorkflowRunGetOptions{DisableFollowingRuns: true}))
	require.Equal(t, "first-run", wr.GetFirstExecutionRunID())
}

// eventTypes reads a run's whole history.
func eventTypes(ctx context.Context, c client.Client, workflowID string) ([]enumspb.EventType, error) {
	it := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var types []enumspb.EventType
	for it.HasNext() {
		event, err := it.Next()
		if err != nil {
			return nil, err
		}
		types = append(types, event.GetEventType())
	}
	return types, nil
}

func TestHistoryEventIteratorYieldsTheMockedEvents(t *testing.T) {
	it := mocks.NewHistoryEventIterator(t)
	it.On("HasNext").Return(true).Twice()
	it.On("HasNext").Return(false).Once()
	it.On("Next").Return(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED}, nil).Once()
	it.On("Next").Return(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED}, nil).Once()
	c := mocks.NewClient(t)
	c.On("GetWorkflowHistory", mock.Anything, "wf-1", "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).Return(it)

	types, err := eventTypes(t.Context(), c, "wf-1")
	require.NoError(t, err)
	require.Equal(t, []enumspb.EventType{
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
		enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
	}, types)
}

func TestHistoryEventIteratorErrorStopsTheReader(t *testing.T) {
	it := mocks.NewHistoryEventIterator(t)
	it.On("HasNext").Return(true).Once()
	it.On("Next").Return(nil, serviceerror.NewNotFound("workflow not found")).Once()
	c := mocks.NewClient(t)
	c.On("GetWorkflowHistory", mock.Anything, "wf-1", "", false, mock.Anything).Return(it)

	_, err := eventTypes(t.Context(), c, "wf-1")
	var notFound *serviceerror.NotFound
	require.ErrorAs(t, err, &notFound)
}

func TestNamespaceClient(t *testing.T) {
	nc := mocks.NewNamespaceClient(t)
	nc.On("Describe", mock.Anything, "orders").Return(&workflowservice.DescribeNamespaceResponse{
		NamespaceInfo: &namespacepb.NamespaceInfo{Name: "orders", State: enumspb.NAMESPACE_STATE_REGISTERED},
	}, nil)
	nc.On("Register", mock.Anything, mock.MatchedBy(func(r *workflowservice.RegisterNamespaceRequest) bool {
		return r.GetNamespace() == "orders"
	})).Return(serviceerror.NewNamespaceAlreadyExists("namespace already exists"))
	nc.On("Close").Return().Once()

	var namespaces client.NamespaceClient = nc
	desc, err := namespaces.Describe(t.Context(), "orders")
	require.NoError(t, err)
	require.Equal(t, enumspb.NAMESPACE_STATE_REGISTERED, desc.GetNamespaceInfo().GetState())
	var exists *serviceerror.NamespaceAlreadyExists
	require.ErrorAs(t, namespaces.Register(t.Context(), &workflowservice.RegisterNamespaceRequest{Namespace: "orders"}), &exists)
	namespaces.Close()
}
