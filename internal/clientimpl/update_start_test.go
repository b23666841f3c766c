package clientimpl

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

func multiOperationResponse(runID string, update *workflowservice.UpdateWorkflowExecutionResponse) *workflowservice.ExecuteMultiOperationResponse {
	return &workflowservice.ExecuteMultiOperationResponse{Responses: []*workflowservice.ExecuteMultiOperationResponse_Response{
		{Response: &workflowservice.ExecuteMultiOperationResponse_Response_StartWorkflow{
			StartWorkflow: &workflowservice.StartWorkflowExecutionResponse{RunId: runID, Started: true},
		}},
		{Response: &workflowservice.ExecuteMultiOperationResponse_Response_UpdateWorkflow{UpdateWorkflow: update}},
	}}
}

func startOrderOptions() clientapi.StartWorkflowOptions {
	return clientapi.StartWorkflowOptions{
		ID:                       "wf",
		TaskQueue:                "orders",
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}
}

func TestUpdateWithStartSendsBothOperationsInOneRequest(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.multiOperationResponses = append(f.multiOperationResponses,
			multiOperationResponse("r1", updateResponse(stageAdmitted, nil)),
			multiOperationResponse("r1", updateResponse(stageCompleted, successOutcome(t, 5))))
	})
	c := f.client(t, internal.ClientOptions{Namespace: "orders-ns", Identity: "me", ContextPropagators: []internal.ContextPropagator{mapPropagator{}}})
	ctx := context.WithValue(context.Background(), mapPropagatorKey{}, "tenant-a")
	op := c.NewWithStartWorkflowOperation(startOrderOptions(), startTestOrderWorkflow, "o-1", 2)
	handle, err := c.UpdateWithStartWorkflow(ctx, clientapi.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions:          clientapi.UpdateWorkflowOptions{UpdateID: "u1", UpdateName: "add", Args: []any{5}, WaitForStage: clientapi.WorkflowUpdateStageCompleted},
	})
	chk.NoErr(t, err)
	var n int
	chk.NoErr(t, handle.Get(ctx, &n))
	chk.Equal(t, 5, n)

	reqs := receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f)
	chk.Len(t, reqs, 2, "sent again while the update was only admitted")
	req := reqs[0]
	chk.Equal(t, "orders-ns", req.GetNamespace())
	chk.Equal(t, "workflow:wf", req.GetResourceId())
	chk.Len(t, req.GetOperations(), 2)
	start := req.GetOperations()[0].GetStartWorkflow()
	chk.NotNil(t, start, "the start comes first")
	chk.Equal(t, "wf", start.GetWorkflowId())
	chk.Equal(t, "startTestOrderWorkflow", start.GetWorkflowType().GetName())
	chk.Equal(t, "orders", start.GetTaskQueue().GetName())
	chk.Equal(t, enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, start.GetWorkflowIdConflictPolicy())
	chk.Equal(t, "me", start.GetIdentity())
	chk.Equal(t, "tenant-a", string(start.GetHeader().GetFields()["k"].GetData()))
	var orderID string
	var quantity int
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(start.GetInput(), &orderID, &quantity))
	chk.Equal(t, "o-1", orderID)
	chk.Equal(t, 2, quantity)

	update := req.GetOperations()[1].GetUpdateWorkflow()
	chk.NotNil(t, update)
	chk.Equal(t, "orders-ns", update.GetNamespace())
	chk.Equal(t, "wf", update.GetWorkflowExecution().GetWorkflowId(), "the update goes to the workflow started")
	chk.Equal(t, "", update.GetWorkflowExecution().GetRunId())
	chk.Equal(t, "u1", update.GetRequest().GetMeta().GetUpdateId())
	chk.Equal(t, "add", update.GetRequest().GetInput().GetName())
	chk.Equal(t, stageCompleted, update.GetWaitPolicy().GetLifecycleStage())
	chk.Equal(t, "tenant-a", string(update.GetRequest().GetInput().GetHeader().GetFields()["k"].GetData()))
	chk.Equal(t, start.GetRequestId(), reqs[1].GetOperations()[0].GetStartWorkflow().GetRequestId(), "the same request is sent again")

	run, err := op.Get(ctx)
	chk.NoErr(t, err)
	chk.Equal(t, "wf", run.GetID())
	chk.Equal(t, "r1", run.GetRunID())
}

func TestUpdateWithStartGeneratesIDs(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.multiOperationResponses = append(f.multiOperationResponses, multiOperationResponse("r1", updateResponse(stageAccepted, nil)))
	})
	recorder := &updateInterceptor{}
	c := f.client(t, internal.ClientOptions{Interceptors: []internal.ClientInterceptor{recorder}})
	options := startOrderOptions()
	options.ID = ""
	_, err := c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: c.NewWithStartWorkflowOperation(options, "W"),
		UpdateOptions:          clientapi.UpdateWorkflowOptions{UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageAccepted},
	})
	chk.NoErr(t, err)
	req := receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f)[0]
	workflowID := req.GetOperations()[0].GetStartWorkflow().GetWorkflowId()
	updateID := req.GetOperations()[1].GetUpdateWorkflow().GetRequest().GetMeta().GetUpdateId()
	chk.Len(t, workflowID, 36)
	chk.Len(t, updateID, 36)
	chk.Equal(t, workflowID, req.GetOperations()[1].GetUpdateWorkflow().GetWorkflowExecution().GetWorkflowId())
	chk.Equal(t, []string{"UpdateWithStartWorkflow add " + updateID}, recorder.seen, "interceptors see the ID")
	chk.Equal(t, "interceptor", string(req.GetOperations()[0].GetStartWorkflow().GetHeader().GetFields()["by"].GetData()),
		"the interceptor's header goes with the start")
	chk.Equal(t, "interceptor", string(req.GetOperations()[1].GetUpdateWorkflow().GetRequest().GetInput().GetHeader().GetFields()["by"].GetData()),
		"and with the update")
}

// foreignOperation is a WithStartWorkflowOperation not made by the client.
type foreignOperation struct{}

func (foreignOperation) Get(context.Context) (clientapi.WorkflowRun, error) { return nil, nil }

func TestUpdateWithStartRefusesBadArguments(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	update := clientapi.UpdateWorkflowOptions{UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageCompleted}
	noPolicy := startOrderOptions()
	noPolicy.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_UNSPECIFIED
	withRun, withFirstRun, otherWorkflow, noStage := update, update, update, update
	withRun.RunID = "r"
	withFirstRun.FirstExecutionRunID = "r"
	otherWorkflow.WorkflowID = "other"
	noStage.WaitForStage = clientapi.WorkflowUpdateStageUnspecified
	for _, tc := range []struct {
		name   string
		op     clientapi.WithStartWorkflowOperation
		update clientapi.UpdateWorkflowOptions
		want   string
	}{
		{"no operation", nil, update, "must come from Client.NewWithStartWorkflowOperation, not <nil>"},
		{"foreign operation", foreignOperation{}, update, "invalid WithStartWorkflowOperation: it must come from Client.NewWithStartWorkflowOperation"},
		{"no conflict policy", c.NewWithStartWorkflowOperation(noPolicy, "W"), update, "WorkflowIDConflictPolicy must be set for update-with-start"},
		{"bad workflow arguments", c.NewWithStartWorkflowOperation(startOrderOptions(), startTestOrderWorkflow, 1), update, "startTestOrderWorkflow"},
		{"run ID", c.NewWithStartWorkflowOperation(startOrderOptions(), "W"), withRun, "RunID cannot be set"},
		{"first run ID", c.NewWithStartWorkflowOperation(startOrderOptions(), "W"), withFirstRun, "FirstExecutionRunID cannot be set"},
		{"another workflow", c.NewWithStartWorkflowOperation(startOrderOptions(), "W"), otherWorkflow, `WorkflowID "other" differs from StartWorkflowOptions.ID "wf"`},
		{"no wait stage", c.NewWithStartWorkflowOperation(startOrderOptions(), "W"), noStage, "WaitForStage is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: tc.op, UpdateOptions: tc.update})
			chk.ErrContains(t, err, tc.want)
		})
	}
	chk.Len(t, receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f), 0, "nothing is sent")
}

func TestWithStartOperationGet(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	update := clientapi.UpdateWorkflowOptions{UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageAccepted}

	unused := c.NewWithStartWorkflowOperation(startOrderOptions(), "W")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := unused.Get(ctx)
	chk.ErrIs(t, err, context.DeadlineExceeded)
	chk.Equal(t, "context deadline exceeded: operation was not executed", err.Error())

	// A start the client refuses (no task queue) ends the operation with
	// the call's error.
	noQueue := startOrderOptions()
	noQueue.TaskQueue = ""
	op := c.NewWithStartWorkflowOperation(noQueue, "W")
	_, err = c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op, UpdateOptions: update})
	chk.ErrIs(t, err, errStartMissingTaskQueue)
	_, getErr := op.Get(context.Background())
	chk.ErrIs(t, getErr, errStartMissingTaskQueue)

	_, err = c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op, UpdateOptions: update})
	chk.ErrContains(t, err, "invalid WithStartWorkflowOperation: it was already executed")
	chk.ErrIs(t, err, errWithStartOperation)

	// A call still waiting: Get waits with it, then says what ended it.
	op = c.NewWithStartWorkflowOperation(startOrderOptions(), "W")
	callCtx, cancelCall := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.UpdateWithStartWorkflow(callCtx, clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op, UpdateOptions: update})
		done <- err
	}()
	for len(receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f)) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	shortCtx, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	_, err = op.Get(shortCtx)
	chk.Equal(t, context.DeadlineExceeded, err, "executed but not answered yet")
	cancelCall()
	callErr := <-done
	var ended *clientapi.WorkflowUpdateServiceTimeoutOrCanceledError
	chk.ErrAs(t, callErr, &ended)
	_, getErr = op.Get(context.Background())
	chk.Equal(t, callErr, getErr)
}

func TestUpdateWithStartReportsTheOperationThatFailed(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"not a multi-operation error", serviceerror.NewInvalidArgument("bad request"), "bad request"},
		{"operation count", serviceerror.NewMultiOperationExecution("failed", []error{}), "invalid server response: 0 instead of 2 operation errors"},
		{"no operation errors", serviceerror.NewMultiOperationExecution("MultiOperation failed", []error{nil, nil}), "MultiOperation failed"},
		{"start failed", serviceerror.NewMultiOperationExecution("failed", []error{
			serviceerror.NewInvalidArgument("invalid Start"), serviceerror.NewMultiOperationAborted("aborted Update"),
		}), "failed workflow start: invalid Start"},
		{"update failed after an aborted start", serviceerror.NewMultiOperationExecution("failed", []error{
			serviceerror.NewMultiOperationAborted("aborted Start"), serviceerror.NewInvalidArgument("invalid Update"),
		}), "failed workflow update: invalid Update"},
		{"update failed after a start", serviceerror.NewMultiOperationExecution("failed", []error{
			nil, serviceerror.NewInvalidArgument("bad Update"),
		}), "failed workflow update: bad Update"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chk.Equal(t, tc.want, multiOperationError(context.Background(), tc.err).Error())
		})
	}

	// Through the wire: the start's error, still of its type, and the
	// operation fails with the call.
	f := startFakeClientFrontend(t)
	f.failNext("ExecuteMultiOperation", serviceerror.NewMultiOperationExecution("failed", []error{
		serviceerror.NewWorkflowExecutionAlreadyStarted("running", "", "r0"), serviceerror.NewMultiOperationAborted("aborted Update"),
	}))
	c := f.client(t, internal.ClientOptions{})
	op := c.NewWithStartWorkflowOperation(startOrderOptions(), "W")
	_, err := c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions:          clientapi.UpdateWorkflowOptions{UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageCompleted},
	})
	chk.ErrContains(t, err, "failed workflow start: running")
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	chk.ErrAs(t, err, &alreadyStarted)
	chk.Equal(t, "r0", alreadyStarted.RunId)
	_, getErr := op.Get(context.Background())
	chk.Equal(t, err, getErr)
}

func TestUpdateWithStartChecksTheServersAnswer(t *testing.T) {
	startOnly := &workflowservice.ExecuteMultiOperationResponse_Response{Response: &workflowservice.ExecuteMultiOperationResponse_Response_StartWorkflow{}}
	updateOnly := &workflowservice.ExecuteMultiOperationResponse_Response{Response: &workflowservice.ExecuteMultiOperationResponse_Response_UpdateWorkflow{}}
	for _, tc := range []struct {
		name      string
		responses []*workflowservice.ExecuteMultiOperationResponse_Response
		want      string
	}{
		{"no results", nil, "invalid server response: 0 instead of 2 operation results"},
		{"start of the wrong type", []*workflowservice.ExecuteMultiOperationResponse_Response{updateOnly, updateOnly},
			"invalid server response: StartWorkflow response has the wrong type *workflowservice.ExecuteMultiOperationResponse_Response_UpdateWorkflow"},
		{"update of the wrong type", []*workflowservice.ExecuteMultiOperationResponse_Response{startOnly, startOnly},
			"invalid server response: UpdateWorkflow response has the wrong type *workflowservice.ExecuteMultiOperationResponse_Response_StartWorkflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := multiOperationResponses(&workflowservice.ExecuteMultiOperationResponse{Responses: tc.responses})
			chk.ErrIs(t, err, errInvalidServerResponse)
			chk.Equal(t, tc.want, err.Error())
		})
	}
	_, _, err := multiOperationResponses(multiOperationResponse("r", updateResponse(stageAccepted, nil)))
	chk.NoErr(t, err)
}
