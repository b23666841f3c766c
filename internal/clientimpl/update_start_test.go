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
	chkNoErr(t, err)
	var n int
	chkNoErr(t, handle.Get(ctx, &n))
	chkEqual(t, 5, n)

	reqs := receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f)
	chkLen(t, reqs, 2, "sent again while the update was only admitted")
	req := reqs[0]
	chkEqual(t, "orders-ns", req.GetNamespace())
	chkEqual(t, "workflow:wf", req.GetResourceId())
	chkLen(t, req.GetOperations(), 2)
	start := req.GetOperations()[0].GetStartWorkflow()
	chkNotNil(t, start, "the start comes first")
	chkEqual(t, "wf", start.GetWorkflowId())
	chkEqual(t, "startTestOrderWorkflow", start.GetWorkflowType().GetName())
	chkEqual(t, "orders", start.GetTaskQueue().GetName())
	chkEqual(t, enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, start.GetWorkflowIdConflictPolicy())
	chkEqual(t, "me", start.GetIdentity())
	chkEqual(t, "tenant-a", string(start.GetHeader().GetFields()["k"].GetData()))
	var orderID string
	var quantity int
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayloads(start.GetInput(), &orderID, &quantity))
	chkEqual(t, "o-1", orderID)
	chkEqual(t, 2, quantity)

	update := req.GetOperations()[1].GetUpdateWorkflow()
	chkNotNil(t, update)
	chkEqual(t, "orders-ns", update.GetNamespace())
	chkEqual(t, "wf", update.GetWorkflowExecution().GetWorkflowId(), "the update goes to the workflow started")
	chkEqual(t, "", update.GetWorkflowExecution().GetRunId())
	chkEqual(t, "u1", update.GetRequest().GetMeta().GetUpdateId())
	chkEqual(t, "add", update.GetRequest().GetInput().GetName())
	chkEqual(t, stageCompleted, update.GetWaitPolicy().GetLifecycleStage())
	chkEqual(t, "tenant-a", string(update.GetRequest().GetInput().GetHeader().GetFields()["k"].GetData()))
	chkEqual(t, start.GetRequestId(), reqs[1].GetOperations()[0].GetStartWorkflow().GetRequestId(), "the same request is sent again")

	run, err := op.Get(ctx)
	chkNoErr(t, err)
	chkEqual(t, "wf", run.GetID())
	chkEqual(t, "r1", run.GetRunID())
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
	chkNoErr(t, err)
	req := receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f)[0]
	workflowID := req.GetOperations()[0].GetStartWorkflow().GetWorkflowId()
	updateID := req.GetOperations()[1].GetUpdateWorkflow().GetRequest().GetMeta().GetUpdateId()
	chkLen(t, workflowID, 36)
	chkLen(t, updateID, 36)
	chkEqual(t, workflowID, req.GetOperations()[1].GetUpdateWorkflow().GetWorkflowExecution().GetWorkflowId())
	chkEqual(t, []string{"UpdateWithStartWorkflow add " + updateID}, recorder.seen, "interceptors see the ID")
	chkEqual(t, "interceptor", string(req.GetOperations()[0].GetStartWorkflow().GetHeader().GetFields()["by"].GetData()),
		"the interceptor's header goes with the start")
	chkEqual(t, "interceptor", string(req.GetOperations()[1].GetUpdateWorkflow().GetRequest().GetInput().GetHeader().GetFields()["by"].GetData()),
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
			chkErrContains(t, err, tc.want)
		})
	}
	chkLen(t, receivedRequests[*workflowservice.ExecuteMultiOperationRequest](f), 0, "nothing is sent")
}

func TestWithStartOperationGet(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	update := clientapi.UpdateWorkflowOptions{UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageAccepted}

	unused := c.NewWithStartWorkflowOperation(startOrderOptions(), "W")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := unused.Get(ctx)
	chkErrIs(t, err, context.DeadlineExceeded)
	chkEqual(t, "context deadline exceeded: operation was not executed", err.Error())

	// A start the client refuses (no task queue) ends the operation with
	// the call's error.
	noQueue := startOrderOptions()
	noQueue.TaskQueue = ""
	op := c.NewWithStartWorkflowOperation(noQueue, "W")
	_, err = c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op, UpdateOptions: update})
	chkErrIs(t, err, errStartMissingTaskQueue)
	_, getErr := op.Get(context.Background())
	chkErrIs(t, getErr, errStartMissingTaskQueue)

	_, err = c.UpdateWithStartWorkflow(context.Background(), clientapi.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op, UpdateOptions: update})
	chkErrContains(t, err, "invalid WithStartWorkflowOperation: it was already executed")
	chkErrIs(t, err, errWithStartOperation)

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
	chkEqual(t, context.DeadlineExceeded, err, "executed but not answered yet")
	cancelCall()
	callErr := <-done
	var ended *clientapi.WorkflowUpdateServiceTimeoutOrCanceledError
	chkErrAs(t, callErr, &ended)
	_, getErr = op.Get(context.Background())
	chkEqual(t, callErr, getErr)
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
			chkEqual(t, tc.want, multiOperationError(context.Background(), tc.err).Error())
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
	chkErrContains(t, err, "failed workflow start: running")
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	chkErrAs(t, err, &alreadyStarted)
	chkEqual(t, "r0", alreadyStarted.RunId)
	_, getErr := op.Get(context.Background())
	chkEqual(t, err, getErr)
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
			chkErrIs(t, err, errInvalidServerResponse)
			chkEqual(t, tc.want, err.Error())
		})
	}
	_, _, err := multiOperationResponses(multiOperationResponse("r", updateResponse(stageAccepted, nil)))
	chkNoErr(t, err)
}
