package clientimpl

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
)

// offlineClient is a client that is never connected, for tests of request
// building.
func offlineWorkflowClient(propagators ...internal.ContextPropagator) *workflowClient {
	return &workflowClient{
		namespace:        "ns",
		identity:         "tester",
		dataConverter:    converter.GetDefaultDataConverter(),
		failureConverter: failure.GetDefaultFailureConverter(),
		propagators:      propagators,
	}
}

func startTestOrderWorkflow(ctx internal.Context, orderID string, quantity int) (string, error) {
	return "", nil
}

func decodeStringPayload(t *testing.T, p *commonpb.Payload) string {
	t.Helper()
	var s string
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayload(p, &s))
	return s
}

func TestStartRequestCarriesEveryOption(t *testing.T) {
	c := offlineWorkflowClient(stubClientPropagator{key: "trace"})
	keyword := searchattr.NewSearchAttributeKeyKeyword("CustomKeyword")
	options := clientapi.StartWorkflowOptions{
		ID:                       "order-1",
		TaskQueue:                "orders",
		WorkflowExecutionTimeout: time.Hour,
		WorkflowRunTimeout:       time.Minute,
		WorkflowTaskTimeout:      5 * time.Second,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		RetryPolicy:              &policy.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
		CronSchedule:             "*/5 * * * *",
		Memo:                     map[string]any{"note": "rush"},
		TypedSearchAttributes:    searchattr.NewSearchAttributes(keyword.ValueSet("gold")),
		StartDelay:               time.Minute,
		StaticSummary:            "summary",
		StaticDetails:            "details",
		Priority:                 policy.Priority{PriorityKey: 2},
		VersioningOverride:       &clientapi.AutoUpgradeVersioningOverride{},
	}
	p, err := c.newWorkflowStartParams(context.Background(), options, startTestOrderWorkflow, []any{"o-1", 3})
	chkNoErr(t, err)
	req := c.startRequest(p)

	chkEqual(t, "ns", req.GetNamespace())
	chkEqual(t, "order-1", req.GetWorkflowId())
	chkEqual(t, "startTestOrderWorkflow", req.GetWorkflowType().GetName(), "a function starts the workflow of its name")
	chkEqual(t, "orders", req.GetTaskQueue().GetName())
	chkEqual(t, enumspb.TASK_QUEUE_KIND_NORMAL, req.GetTaskQueue().GetKind())
	chkEqual(t, "tester", req.GetIdentity())
	chkNotEmpty(t, req.GetRequestId())
	chkEqual(t, time.Hour, req.GetWorkflowExecutionTimeout().AsDuration())
	chkEqual(t, time.Minute, req.GetWorkflowRunTimeout().AsDuration())
	chkEqual(t, 5*time.Second, req.GetWorkflowTaskTimeout().AsDuration())
	chkEqual(t, enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, req.GetWorkflowIdConflictPolicy())
	chkEqual(t, enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE, req.GetWorkflowIdReusePolicy())
	chkEqual(t, int32(3), req.GetRetryPolicy().GetMaximumAttempts())
	chkEqual(t, "*/5 * * * *", req.GetCronSchedule())
	chkEqual(t, "rush", decodeStringPayload(t, req.GetMemo().GetFields()["note"]))
	chkEqual(t, "gold", decodeStringPayload(t, req.GetSearchAttributes().GetIndexedFields()["CustomKeyword"]))
	chkEqual(t, "Keyword", string(req.GetSearchAttributes().GetIndexedFields()["CustomKeyword"].GetMetadata()["type"]))
	chkEqual(t, time.Minute, req.GetWorkflowStartDelay().AsDuration())
	chkEqual(t, "summary", decodeStringPayload(t, req.GetUserMetadata().GetSummary()))
	chkEqual(t, "details", decodeStringPayload(t, req.GetUserMetadata().GetDetails()))
	chkEqual(t, int32(2), req.GetPriority().GetPriorityKey())
	chkTrue(t, req.GetVersioningOverride().GetAutoUpgrade(), "the versioning override is sent")
	chkContains(t, req.GetHeader().GetFields(), "trace", "propagators write the header")

	var orderID string
	var quantity int
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayloads(req.GetInput(), &orderID, &quantity))
	chkEqual(t, "o-1", orderID)
	chkEqual(t, 3, quantity)

	again := c.startRequest(p)
	chkNotEqual(t, req.GetRequestId(), again.GetRequestId(), "each start is its own request")
}

func TestStartRequestLeavesUnsetOptionsOut(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "SomeWorkflow", nil)
	chkNoErr(t, err)
	req := c.startRequest(p)
	chkEqual(t, "SomeWorkflow", req.GetWorkflowType().GetName())
	chkNil(t, req.GetInput())
	chkNil(t, req.GetMemo())
	chkNil(t, req.GetSearchAttributes())
	chkNil(t, req.GetRetryPolicy())
	chkNil(t, req.GetWorkflowStartDelay())
	chkNil(t, req.GetUserMetadata())
	chkNil(t, req.GetPriority())
	chkNil(t, req.GetVersioningOverride())
	chkNil(t, req.GetHeader())
}

func TestUntypedSearchAttributesAreSent(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{
		//lint:ignore SA1019 the deprecated untyped form is what this test sends
		ID: "id", TaskQueue: "q", SearchAttributes: map[string]any{"CustomIntField": 7},
	}, "W", nil)
	chkNoErr(t, err)
	var n int
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayload(c.startRequest(p).GetSearchAttributes().GetIndexedFields()["CustomIntField"], &n))
	chkEqual(t, 7, n)
}

func TestSignalWithStartRequestCarriesTheSignal(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q", StartDelay: time.Second}, "W", []any{1})
	chkNoErr(t, err)
	signal, err := converter.GetDefaultDataConverter().ToPayloads("hello")
	chkNoErr(t, err)
	req := c.signalWithStartRequest(p, "greet", signal)
	chkEqual(t, "greet", req.GetSignalName())
	chkSame(t, signal, req.GetSignalInput())
	chkEqual(t, "id", req.GetWorkflowId())
	chkEqual(t, "q", req.GetTaskQueue().GetName())
	chkEqual(t, time.Second, req.GetWorkflowStartDelay().AsDuration())
	chkNotEmpty(t, req.GetRequestId())
}

func TestStartParamsErrors(t *testing.T) {
	c := offlineWorkflowClient()
	ctx := context.Background()
	tests := []struct {
		name     string
		options  clientapi.StartWorkflowOptions
		workflow any
		args     []any
		want     string
	}{
		{"missing task queue", clientapi.StartWorkflowOptions{ID: "id"}, "W", nil, "TaskQueue is required"},
		{"no workflow", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, nil, nil, "no workflow given"},
		{"empty name", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "", nil, "type name is empty"},
		{"not a function", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, 42, nil, "not int"},
		{"too few arguments", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, startTestOrderWorkflow, []any{"o-1"}, "takes 2 argument(s)"},
		{"wrong argument type", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, startTestOrderWorkflow, []any{"o-1", "three"}, "argument 2 is string"},
		{"argument not encodable", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "W", []any{"ok", make(chan int)}, "argument 2 (chan int) cannot be encoded"},
		{"memo not encodable", clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q", Memo: map[string]any{"m": func() {}}}, "W", nil, `memo "m"`},
		{"both search attribute forms", clientapi.StartWorkflowOptions{
			ID: "id", TaskQueue: "q",
			//lint:ignore SA1019 the deprecated untyped form is what this case sends
			SearchAttributes:      map[string]any{"A": 1},
			TypedSearchAttributes: searchattr.NewSearchAttributes(searchattr.NewSearchAttributeKeyInt64("B").ValueSet(1)),
		}, "W", nil, "cannot specify both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.newWorkflowStartParams(ctx, tt.options, tt.workflow, tt.args)
			chkErrContains(t, err, tt.want)
		})
	}
}

func TestStartParamsPropagatorFailure(t *testing.T) {
	c := offlineWorkflowClient(stubClientPropagator{err: errClientTest})
	_, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "W", nil)
	chkErrIs(t, err, errClientTest)
}

func TestEncodedValue(t *testing.T) {
	payloads, err := converter.GetDefaultDataConverter().ToPayloads(42)
	chkNoErr(t, err)
	v := NewValue(payloads)
	chkTrue(t, v.HasValue())
	var n int
	chkNoErr(t, v.Get(&n))
	chkEqual(t, 42, n)
	chkSame(t, payloads, converter.GetPayloads(v))

	empty := NewValue(nil)
	chkFalse(t, empty.HasValue())
	chkErrIs(t, empty.Get(&n), failure.ErrNoData)

	var m int
	chkNoErr(t, NewValues(payloads).Get(&m))
	chkEqual(t, 42, m)
}
