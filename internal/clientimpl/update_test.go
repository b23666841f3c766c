package clientimpl

import (
	"context"
	"errors"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
)

// nextCannedAnswer takes the first of the queued answers, or waits for
// the caller to give up when there is none (a long poll that never ends).
func nextCannedAnswer[T any](ctx context.Context, f *fakeClientFrontend, queue *[]T) (T, error) {
	f.mu.Lock()
	if len(*queue) > 0 {
		answer := (*queue)[0]
		*queue = (*queue)[1:]
		f.mu.Unlock()
		return answer, nil
	}
	f.mu.Unlock()
	<-ctx.Done()
	var zero T
	return zero, ctx.Err()
}

func (f *fakeClientFrontend) UpdateWorkflowExecution(ctx context.Context, _ *workflowservice.UpdateWorkflowExecutionRequest) (*workflowservice.UpdateWorkflowExecutionResponse, error) {
	return nextCannedAnswer(ctx, f, &f.updateResponses)
}

func (f *fakeClientFrontend) PollWorkflowExecutionUpdate(ctx context.Context, _ *workflowservice.PollWorkflowExecutionUpdateRequest) (*workflowservice.PollWorkflowExecutionUpdateResponse, error) {
	return nextCannedAnswer(ctx, f, &f.pollUpdateResponses)
}

func (f *fakeClientFrontend) ExecuteMultiOperation(ctx context.Context, _ *workflowservice.ExecuteMultiOperationRequest) (*workflowservice.ExecuteMultiOperationResponse, error) {
	return nextCannedAnswer(ctx, f, &f.multiOperationResponses)
}

// updateRef names update "u1" of run "r1" of workflow "wf".
var testUpdateRef = &updatepb.UpdateRef{
	WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "wf", RunId: "r1"},
	UpdateId:          "u1",
}

func updateResponse(stage enumspb.UpdateWorkflowExecutionLifecycleStage, outcome *updatepb.Outcome) *workflowservice.UpdateWorkflowExecutionResponse {
	return &workflowservice.UpdateWorkflowExecutionResponse{UpdateRef: testUpdateRef, Stage: stage, Outcome: outcome}
}

func successOutcome(t *testing.T, value any) *updatepb.Outcome {
	t.Helper()
	payloads, err := converter.GetDefaultDataConverter().ToPayloads(value)
	chk.NoErr(t, err)
	return &updatepb.Outcome{Value: &updatepb.Outcome_Success{Success: payloads}}
}

func failureOutcome(message, errType string) *updatepb.Outcome {
	return &updatepb.Outcome{Value: &updatepb.Outcome_Failure{Failure: &failurepb.Failure{
		Message:     message,
		FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{Type: errType}},
	}}}
}

var (
	stageAdmitted  = enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED
	stageAccepted  = enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED
	stageCompleted = enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED
)

func TestUpdateRequestCarriesEveryOption(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses, updateResponse(stageAccepted, nil))
	})
	c := f.client(t, internal.ClientOptions{Namespace: "orders", Identity: "me", ContextPropagators: []internal.ContextPropagator{mapPropagator{}}})
	ctx := context.WithValue(context.Background(), mapPropagatorKey{}, "tenant-a")
	handle, err := c.UpdateWorkflow(ctx, clientapi.UpdateWorkflowOptions{
		UpdateID:            "u1",
		WorkflowID:          "wf",
		RunID:               "r0",
		UpdateName:          "add",
		Args:                []any{3, "units"},
		WaitForStage:        clientapi.WorkflowUpdateStageAccepted,
		FirstExecutionRunID: "first",
	})
	chk.NoErr(t, err)
	reqs := receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f)
	chk.Len(t, reqs, 1)
	req := reqs[0]
	chk.Equal(t, "orders", req.GetNamespace())
	chk.Equal(t, "wf", req.GetWorkflowExecution().GetWorkflowId())
	chk.Equal(t, "r0", req.GetWorkflowExecution().GetRunId())
	chk.Equal(t, "first", req.GetFirstExecutionRunId())
	chk.Equal(t, stageAccepted, req.GetWaitPolicy().GetLifecycleStage())
	chk.Equal(t, "u1", req.GetRequest().GetMeta().GetUpdateId())
	chk.Equal(t, "me", req.GetRequest().GetMeta().GetIdentity())
	chk.Equal(t, "add", req.GetRequest().GetInput().GetName())
	var n int
	var unit string
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(req.GetRequest().GetInput().GetArgs(), &n, &unit))
	chk.Equal(t, 3, n)
	chk.Equal(t, "units", unit)
	chk.Equal(t, "tenant-a", string(req.GetRequest().GetInput().GetHeader().GetFields()["k"].GetData()), "the propagator writes the header")

	chk.Equal(t, "wf", handle.WorkflowID())
	chk.Equal(t, "r1", handle.RunID(), "the run is the one the server resolved")
	chk.Equal(t, "u1", handle.UpdateID())
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 0, "nothing waits past Accepted")
}

func TestUpdateWorkflowGivesTheUpdateAnID(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses, updateResponse(stageCompleted, successOutcome(t, 1)))
	})
	c := f.client(t, internal.ClientOptions{})
	_, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageCompleted})
	chk.NoErr(t, err)
	id := receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f)[0].GetRequest().GetMeta().GetUpdateId()
	chk.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, id)
}

func TestUpdateWorkflowRefusesWaitStagesItCannotWaitFor(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	for stage, want := range map[clientapi.WorkflowUpdateStage]string{
		clientapi.WorkflowUpdateStageUnspecified: "WaitForStage is required",
		clientapi.WorkflowUpdateStageAdmitted:    "WorkflowUpdateStageAdmitted is not supported",
		clientapi.WorkflowUpdateStage(9):         "9 is not a WorkflowUpdateStage",
	} {
		_, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "add", WaitForStage: stage})
		chk.ErrContains(t, err, want)
	}
	chk.Len(t, receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f), 0, "nothing is sent")
}

func TestUpdateWorkflowSendsAgainWhileTheUpdateIsOnlyAdmitted(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses,
			updateResponse(stageAdmitted, nil),
			// Old servers answer UNSPECIFIED for the same.
			updateResponse(enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_UNSPECIFIED, nil),
			updateResponse(stageAccepted, nil))
		f.pollUpdateResponses = append(f.pollUpdateResponses,
			&workflowservice.PollWorkflowExecutionUpdateResponse{Stage: stageAccepted},
			&workflowservice.PollWorkflowExecutionUpdateResponse{Stage: stageAccepted},
			&workflowservice.PollWorkflowExecutionUpdateResponse{Stage: stageCompleted, Outcome: successOutcome(t, 42)})
	})
	c := f.client(t, internal.ClientOptions{Identity: "me"})
	handle, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageAccepted})
	chk.NoErr(t, err)
	sent := receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f)
	chk.Len(t, sent, 3)
	for _, req := range sent {
		chk.Equal(t, "u1", req.GetRequest().GetMeta().GetUpdateId(), "the same update each time")
	}

	var result int
	chk.NoErr(t, handle.Get(context.Background(), &result))
	chk.Equal(t, 42, result)
	polls := receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f)
	chk.Len(t, polls, 3, "Get asks again while the server's long polls end without an outcome")
	for _, poll := range polls {
		chk.Equal(t, stageCompleted, poll.GetWaitPolicy().GetLifecycleStage())
		chk.Equal(t, "u1", poll.GetUpdateRef().GetUpdateId())
		chk.Equal(t, "r1", poll.GetUpdateRef().GetWorkflowExecution().GetRunId())
		chk.Equal(t, "me", poll.GetIdentity())
		chk.Equal(t, clientapi.DefaultNamespace, poll.GetNamespace())
	}
}

func TestUpdateWorkflowWaitsForCompletion(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses, updateResponse(stageAccepted, nil))
		f.pollUpdateResponses = append(f.pollUpdateResponses,
			&workflowservice.PollWorkflowExecutionUpdateResponse{},
			&workflowservice.PollWorkflowExecutionUpdateResponse{Outcome: failureOutcome("out of stock", "Stock")})
	})
	c := f.client(t, internal.ClientOptions{})
	handle, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageCompleted})
	chk.NoErr(t, err, "a failed update is an outcome, for Get")
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 2)

	for range 2 {
		err = handle.Get(context.Background(), nil)
		var appErr *failure.ApplicationError
		chk.ErrAs(t, err, &appErr)
		chk.Equal(t, "out of stock", appErr.Message())
		chk.Equal(t, "Stock", appErr.Type())
	}
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 2, "a known outcome is not asked for again")
}

func TestUpdateOutcomeInTheResponse(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses,
			updateResponse(stageCompleted, successOutcome(t, "done")),
			// A rejection comes back as a completed outcome even when
			// waiting for Accepted.
			updateResponse(stageCompleted, failureOutcome("negative", "")))
	})
	c := f.client(t, internal.ClientOptions{})
	handle, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "u", WaitForStage: clientapi.WorkflowUpdateStageCompleted})
	chk.NoErr(t, err)
	var s string
	chk.NoErr(t, handle.Get(context.Background(), &s))
	chk.Equal(t, "done", s)
	chk.NoErr(t, handle.Get(context.Background(), nil), "nil discards the result")
	chk.ErrContains(t, handle.Get(context.Background(), s), "valuePtr must be a pointer")

	handle, err = c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "u", WaitForStage: clientapi.WorkflowUpdateStageAccepted})
	chk.NoErr(t, err)
	chk.ErrContains(t, handle.Get(context.Background(), &s), "negative")
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 0)
}

func TestUpdateErrorsAreTheServersOrSayTheCallEnded(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	options := clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "u", WaitForStage: clientapi.WorkflowUpdateStageAccepted}

	f.failNext("UpdateWorkflowExecution", serviceerror.NewNotFound("workflow not found"))
	_, err := c.UpdateWorkflow(context.Background(), options)
	_, isNotFound := err.(*serviceerror.NotFound)
	chk.True(t, isNotFound, "a server error is returned as is")

	f.failNext("UpdateWorkflowExecution", serviceerror.NewCanceled("server canceled"))
	_, err = c.UpdateWorkflow(context.Background(), options)
	var ended *clientapi.WorkflowUpdateServiceTimeoutOrCanceledError
	chk.ErrAs(t, err, &ended)
	var canceled *serviceerror.Canceled
	chk.ErrAs(t, err, &canceled)
	chk.ErrContains(t, err, "Timeout or cancellation waiting for update: server canceled")

	// With no answer queued the fake holds the call until the caller's
	// deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err = c.UpdateWorkflow(ctx, options)
	chk.ErrAs(t, err, &ended)
	chk.True(t, time.Since(began) < 5*time.Second, "the call ends with its context")

	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err = c.GetWorkflowUpdateHandle(clientapi.GetWorkflowUpdateHandleOptions{WorkflowID: "wf", UpdateID: "u1"}).Get(ctx, nil)
	chk.ErrAs(t, err, &ended)

	f.failNext("PollWorkflowExecutionUpdate", serviceerror.NewNotFound("update not found"))
	err = c.GetWorkflowUpdateHandle(clientapi.GetWorkflowUpdateHandleOptions{WorkflowID: "wf", UpdateID: "u1"}).Get(context.Background(), nil)
	_, isNotFound = err.(*serviceerror.NotFound)
	chk.True(t, isNotFound, "a server error is returned as is")
}

func TestGetWorkflowUpdateHandlePollsOnGet(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.pollUpdateResponses = append(f.pollUpdateResponses,
			&workflowservice.PollWorkflowExecutionUpdateResponse{Outcome: successOutcome(t, 7)},
			&workflowservice.PollWorkflowExecutionUpdateResponse{Outcome: successOutcome(t, 7)})
	})
	c := f.client(t, internal.ClientOptions{})
	handle := c.GetWorkflowUpdateHandle(clientapi.GetWorkflowUpdateHandleOptions{WorkflowID: "wf", UpdateID: "u9"})
	chk.Equal(t, "wf", handle.WorkflowID())
	chk.Equal(t, "", handle.RunID())
	chk.Equal(t, "u9", handle.UpdateID())
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 0, "nothing is sent before Get")
	for range 2 {
		var n int
		chk.NoErr(t, handle.Get(context.Background(), &n))
		chk.Equal(t, 7, n)
	}
	polls := receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f)
	chk.Len(t, polls, 2, "each Get asks the server, as in the official SDK")
	chk.Equal(t, "", polls[0].GetUpdateRef().GetWorkflowExecution().GetRunId(), "the current run")
	chk.Equal(t, "u9", polls[0].GetUpdateRef().GetUpdateId())
}

func TestUpdateUsesTheClientsDataConverter(t *testing.T) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), chk.PrefixCodec("codec:"))
	result, err := dc.ToPayloads("encoded result")
	chk.NoErr(t, err)
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses, updateResponse(stageCompleted,
			&updatepb.Outcome{Value: &updatepb.Outcome_Success{Success: result}}))
	})
	c := f.client(t, internal.ClientOptions{DataConverter: dc})
	handle, err := c.UpdateWorkflow(context.Background(), clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateName: "u", Args: []any{"arg"}, WaitForStage: clientapi.WorkflowUpdateStageCompleted})
	chk.NoErr(t, err)
	arg := receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f)[0].GetRequest().GetInput().GetArgs().GetPayloads()[0]
	chk.Equal(t, `codec:"arg"`, string(arg.GetData()))
	var s string
	chk.NoErr(t, handle.Get(context.Background(), &s))
	chk.Equal(t, "encoded result", s)
}

// updateInterceptor records the update calls it sees, writes a header
// field, and can replace the outcome of polls.
type updateInterceptor struct {
	internal.ClientInterceptorBase
	seen        []string
	pollOutcome *clientapi.ClientPollWorkflowUpdateOutput
}

func (i *updateInterceptor) InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor {
	return &updateInterceptorOutbound{clientapi.ClientOutboundInterceptorBase{Next: next}, i}
}

type updateInterceptorOutbound struct {
	clientapi.ClientOutboundInterceptorBase
	root *updateInterceptor
}

func (o *updateInterceptorOutbound) UpdateWorkflow(ctx context.Context, in *clientapi.ClientUpdateWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	o.root.seen = append(o.root.seen, "UpdateWorkflow "+in.UpdateName+" "+in.UpdateID)
	propagation.Header(ctx)["by"] = &commonpb.Payload{Data: []byte("interceptor")}
	return o.Next.UpdateWorkflow(ctx, in)
}

func (o *updateInterceptorOutbound) UpdateWithStartWorkflow(ctx context.Context, in *clientapi.ClientUpdateWithStartWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	o.root.seen = append(o.root.seen, "UpdateWithStartWorkflow "+in.UpdateOptions.UpdateName+" "+in.UpdateOptions.UpdateID)
	propagation.Header(ctx)["by"] = &commonpb.Payload{Data: []byte("interceptor")}
	return o.Next.UpdateWithStartWorkflow(ctx, in)
}

func (o *updateInterceptorOutbound) PollWorkflowUpdate(ctx context.Context, in *clientapi.ClientPollWorkflowUpdateInput) (*clientapi.ClientPollWorkflowUpdateOutput, error) {
	o.root.seen = append(o.root.seen, "PollWorkflowUpdate "+in.UpdateRef.GetUpdateId())
	if propagation.Header(ctx) == nil {
		return nil, errors.New("PollWorkflowUpdate has no header")
	}
	if o.root.pollOutcome != nil {
		return o.root.pollOutcome, nil
	}
	return o.Next.PollWorkflowUpdate(ctx, in)
}

func TestUpdateInterceptorsSeeTheCallsAndWriteTheHeader(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.updateResponses = append(f.updateResponses, updateResponse(stageAccepted, nil))
	})
	recorder := &updateInterceptor{pollOutcome: &clientapi.ClientPollWorkflowUpdateOutput{Result: newClientEncodedValue(nil, nil)}}
	c := f.client(t, internal.ClientOptions{Interceptors: []internal.ClientInterceptor{recorder}, ContextPropagators: []internal.ContextPropagator{mapPropagator{}}})
	ctx := context.WithValue(context.Background(), mapPropagatorKey{}, "v")
	handle, err := c.UpdateWorkflow(ctx, clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add", WaitForStage: clientapi.WorkflowUpdateStageCompleted})
	chk.NoErr(t, err)
	header := receivedRequests[*workflowservice.UpdateWorkflowExecutionRequest](f)[0].GetRequest().GetInput().GetHeader().GetFields()
	chk.Equal(t, "interceptor", string(header["by"].GetData()))
	chk.Equal(t, "v", string(header["k"].GetData()), "the propagators add to what interceptors wrote")
	chk.ErrIs(t, handle.Get(context.Background(), new(int)), failure.ErrNoData)

	recorder.pollOutcome = &clientapi.ClientPollWorkflowUpdateOutput{Error: errClientTest}
	chk.ErrIs(t, c.GetWorkflowUpdateHandle(clientapi.GetWorkflowUpdateHandleOptions{WorkflowID: "wf", UpdateID: "u2"}).Get(ctx, nil), errClientTest)

	chk.Equal(t, []string{"UpdateWorkflow add u1", "PollWorkflowUpdate u1", "PollWorkflowUpdate u2"}, recorder.seen)
	chk.Len(t, receivedRequests[*workflowservice.PollWorkflowExecutionUpdateRequest](f), 0, "the interceptor answered the polls")
}
