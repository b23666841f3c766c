package clientimpl

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
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
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayload(p, &s))
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
	chk.NoErr(t, err)
	req := c.startRequest(p)

	chk.Equal(t, "ns", req.GetNamespace())
	chk.Equal(t, "order-1", req.GetWorkflowId())
	chk.Equal(t, "startTestOrderWorkflow", req.GetWorkflowType().GetName(), "a function starts the workflow of its name")
	chk.Equal(t, "orders", req.GetTaskQueue().GetName())
	chk.Equal(t, enumspb.TASK_QUEUE_KIND_NORMAL, req.GetTaskQueue().GetKind())
	chk.Equal(t, "tester", req.GetIdentity())
	chk.NotEmpty(t, req.GetRequestId())
	chk.Equal(t, time.Hour, req.GetWorkflowExecutionTimeout().AsDuration())
	chk.Equal(t, time.Minute, req.GetWorkflowRunTimeout().AsDuration())
	chk.Equal(t, 5*time.Second, req.GetWorkflowTaskTimeout().AsDuration())
	chk.Equal(t, enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, req.GetWorkflowIdConflictPolicy())
	chk.Equal(t, enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE, req.GetWorkflowIdReusePolicy())
	chk.Equal(t, int32(3), req.GetRetryPolicy().GetMaximumAttempts())
	chk.Equal(t, "*/5 * * * *", req.GetCronSchedule())
	chk.Equal(t, "rush", decodeStringPayload(t, req.GetMemo().GetFields()["note"]))
	chk.Equal(t, "gold", decodeStringPayload(t, req.GetSearchAttributes().GetIndexedFields()["CustomKeyword"]))
	chk.Equal(t, "Keyword", string(req.GetSearchAttributes().GetIndexedFields()["CustomKeyword"].GetMetadata()["type"]))
	chk.Equal(t, time.Minute, req.GetWorkflowStartDelay().AsDuration())
	chk.Equal(t, "summary", decodeStringPayload(t, req.GetUserMetadata().GetSummary()))
	chk.Equal(t, "details", decodeStringPayload(t, req.GetUserMetadata().GetDetails()))
	chk.Equal(t, int32(2), req.GetPriority().GetPriorityKey())
	chk.True(t, req.GetVersioningOverride().GetAutoUpgrade(), "the versioning override is sent")
	chk.Contains(t, req.GetHeader().GetFields(), "trace", "propagators write the header")

	var orderID string
	var quantity int
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(req.GetInput(), &orderID, &quantity))
	chk.Equal(t, "o-1", orderID)
	chk.Equal(t, 3, quantity)

	again := c.startRequest(p)
	chk.NotEqual(t, req.GetRequestId(), again.GetRequestId(), "each start is its own request")
}

func TestStartRequestLeavesUnsetOptionsOut(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "SomeWorkflow", nil)
	chk.NoErr(t, err)
	req := c.startRequest(p)
	chk.Equal(t, "SomeWorkflow", req.GetWorkflowType().GetName())
	chk.Nil(t, req.GetInput())
	chk.Nil(t, req.GetMemo())
	chk.Nil(t, req.GetSearchAttributes())
	chk.Nil(t, req.GetRetryPolicy())
	chk.Nil(t, req.GetWorkflowStartDelay())
	chk.Nil(t, req.GetUserMetadata())
	chk.Nil(t, req.GetPriority())
	chk.Nil(t, req.GetVersioningOverride())
	chk.Nil(t, req.GetHeader())
}

func TestUntypedSearchAttributesAreSent(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{
		//lint:ignore SA1019 the deprecated untyped form is what this test sends
		ID: "id", TaskQueue: "q", SearchAttributes: map[string]any{"CustomIntField": 7},
	}, "W", nil)
	chk.NoErr(t, err)
	var n int
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayload(c.startRequest(p).GetSearchAttributes().GetIndexedFields()["CustomIntField"], &n))
	chk.Equal(t, 7, n)
}

func TestSignalWithStartRequestCarriesTheSignal(t *testing.T) {
	c := offlineWorkflowClient()
	p, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q", StartDelay: time.Second}, "W", []any{1})
	chk.NoErr(t, err)
	signal, err := converter.GetDefaultDataConverter().ToPayloads("hello")
	chk.NoErr(t, err)
	req := c.signalWithStartRequest(p, "greet", signal)
	chk.Equal(t, "greet", req.GetSignalName())
	chk.Same(t, signal, req.GetSignalInput())
	chk.Equal(t, "id", req.GetWorkflowId())
	chk.Equal(t, "q", req.GetTaskQueue().GetName())
	chk.Equal(t, time.Second, req.GetWorkflowStartDelay().AsDuration())
	chk.NotEmpty(t, req.GetRequestId())
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
			chk.ErrContains(t, err, tt.want)
		})
	}
}

func TestStartParamsPropagatorFailure(t *testing.T) {
	c := offlineWorkflowClient(stubClientPropagator{err: errClientTest})
	_, err := c.newWorkflowStartParams(context.Background(), clientapi.StartWorkflowOptions{ID: "id", TaskQueue: "q"}, "W", nil)
	chk.ErrIs(t, err, errClientTest)
}

func TestEncodedValue(t *testing.T) {
	payloads, err := converter.GetDefaultDataConverter().ToPayloads(42)
	chk.NoErr(t, err)
	v := NewValue(payloads)
	chk.True(t, v.HasValue())
	var n int
	chk.NoErr(t, v.Get(&n))
	chk.Equal(t, 42, n)
	chk.Same(t, payloads, converter.GetPayloads(v))

	empty := NewValue(nil)
	chk.False(t, empty.HasValue())
	chk.ErrIs(t, empty.Get(&n), failure.ErrNoData)

	var m int
	chk.NoErr(t, NewValues(payloads).Get(&m))
	chk.Equal(t, 42, m)
}
