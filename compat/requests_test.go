package compat

import (
	"context"
	"log/slog"
	"net"
	"reflect"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	official "go.temporal.io/sdk/temporal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	ours "github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/temporal"
)

// fakeFrontend is just enough of the WorkflowService for the official
// client to start and describe workflows, over an in-memory connection. It
// records what the official client sends, so its encodings can be compared
// with ours, and answers describe calls with attributes we encoded.
type fakeFrontend struct {
	workflowservice.UnimplementedWorkflowServiceServer
	mu        sync.Mutex
	started   *workflowservice.StartWorkflowExecutionRequest
	describes *commonpb.SearchAttributes
}

func (f *fakeFrontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{Capabilities: &workflowservice.GetSystemInfoResponse_Capabilities{}}, nil
}

func (f *fakeFrontend) StartWorkflowExecution(_ context.Context, req *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = req
	return &workflowservice.StartWorkflowExecutionResponse{RunId: "run-1", Started: true}, nil
}

func (f *fakeFrontend) DescribeWorkflowExecution(_ context.Context, req *workflowservice.DescribeWorkflowExecutionRequest) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
		Execution:        req.GetExecution(),
		Type:             &commonpb.WorkflowType{Name: "Wf"},
		SearchAttributes: f.describes,
	}}, nil
}

func (f *fakeFrontend) lastStart() *workflowservice.StartWorkflowExecutionRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.started
}

func newOfficialClient(t *testing.T) (client.Client, *fakeFrontend) {
	t.Helper()
	listener := bufconn.Listen(1 << 20)
	server := grpc.NewServer()
	frontend := &fakeFrontend{}
	workflowservice.RegisterWorkflowServiceServer(server, frontend)
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	c, err := client.Dial(client.Options{
		HostPort: "passthrough:///bufnet",
		Logger:   tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{
			grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return listener.DialContext(ctx) }),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, frontend
}

var sampleTime = time.Date(2025, 6, 7, 8, 9, 10, 11, time.UTC)

// The same typed search attributes, built with each SDK.
func officialSearchAttributes() official.SearchAttributes {
	return official.NewSearchAttributes(
		official.NewSearchAttributeKeyString("CustomText").ValueSet("full text"),
		official.NewSearchAttributeKeyKeyword("CustomKeyword").ValueSet("kw"),
		official.NewSearchAttributeKeyBool("CustomBool").ValueSet(true),
		official.NewSearchAttributeKeyInt64("CustomInt").ValueSet(-7),
		official.NewSearchAttributeKeyFloat64("CustomDouble").ValueSet(0.25),
		official.NewSearchAttributeKeyTime("CustomDatetime").ValueSet(sampleTime),
		official.NewSearchAttributeKeyKeywordList("CustomKeywordList").ValueSet([]string{"a", "b"}),
		official.NewSearchAttributeKeyInt64("Removed").ValueUnset(),
	)
}

func ourSearchAttributes() temporal.SearchAttributes {
	return temporal.NewSearchAttributes(
		temporal.NewSearchAttributeKeyString("CustomText").ValueSet("full text"),
		temporal.NewSearchAttributeKeyKeyword("CustomKeyword").ValueSet("kw"),
		temporal.NewSearchAttributeKeyBool("CustomBool").ValueSet(true),
		temporal.NewSearchAttributeKeyInt64("CustomInt").ValueSet(-7),
		temporal.NewSearchAttributeKeyFloat64("CustomDouble").ValueSet(0.25),
		temporal.NewSearchAttributeKeyTime("CustomDatetime").ValueSet(sampleTime),
		temporal.NewSearchAttributeKeyKeywordList("CustomKeywordList").ValueSet([]string{"a", "b"}),
		temporal.NewSearchAttributeKeyInt64("Removed").ValueUnset(),
	)
}

func TestStartRequestEncodingsMatchOfficialClient(t *testing.T) {
	c, frontend := newOfficialClient(t)
	retry := official.RetryPolicy{
		InitialInterval: 2 * time.Second, BackoffCoefficient: 1.5, MaximumInterval: time.Minute,
		MaximumAttempts: 5, NonRetryableErrorTypes: []string{"Fatal", "quotaError"},
	}
	prio := official.Priority{PriorityKey: 2, FairnessKey: "tenant-a", FairnessWeight: 1.5}
	memo := map[string]any{"note": "hello", "count": 3, "raw": []byte("x")}
	args := []any{"arg", 42, customer{Name: "c"}}
	_, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
		ID: "wf-1", TaskQueue: "tq", RetryPolicy: &retry, Priority: prio, Memo: memo,
		TypedSearchAttributes: officialSearchAttributes(),
	}, "Wf", args...)
	if err != nil {
		t.Fatal(err)
	}
	req := frontend.lastStart()

	ourRetry := policy.RetryPolicyToProto(&temporal.RetryPolicy{
		InitialInterval: 2 * time.Second, BackoffCoefficient: 1.5, MaximumInterval: time.Minute,
		MaximumAttempts: 5, NonRetryableErrorTypes: []string{"Fatal", "quotaError"},
	})
	if !proto.Equal(req.RetryPolicy, ourRetry) {
		t.Errorf("retry policy:\n ours     %v\n official %v", ourRetry, req.RetryPolicy)
	}
	if back := policy.RetryPolicyFromProto(req.RetryPolicy); !reflect.DeepEqual(*back, temporal.RetryPolicy(retry)) {
		t.Errorf("retry policy read back as %+v", back)
	}
	if ourPrio := policy.PriorityToProto(temporal.Priority(prio)); !proto.Equal(req.Priority, ourPrio) {
		t.Errorf("priority:\n ours     %v\n official %v", ourPrio, req.Priority)
	}
	ourSA, err := searchattr.EncodeForStart(nil, ourSearchAttributes())
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(req.SearchAttributes, ourSA) {
		t.Errorf("search attributes:\n ours     %v\n official %v", ourSA, req.SearchAttributes)
	}
	decoded, err := searchattr.Decode(req.SearchAttributes)
	if err != nil || !reflect.DeepEqual(decoded.GetUntypedValues(), temporal.NewSearchAttributes(ourSearchAttributes().Copy()).GetUntypedValues()) {
		t.Errorf("official search attributes read as %v, %v", decoded.GetUntypedValues(), err)
	}
	for name, value := range memo {
		p, _ := ours.GetDefaultDataConverter().ToPayload(value)
		if !proto.Equal(req.Memo.Fields[name], p) {
			t.Errorf("memo %q:\n ours     %v\n official %v", name, p, req.Memo.Fields[name])
		}
	}
	ourInput, _ := ours.GetDefaultDataConverter().ToPayloads(args...)
	if !proto.Equal(req.Input, ourInput) {
		t.Errorf("input:\n ours     %v\n official %v", ourInput, req.Input)
	}
}

func TestZeroRetryPolicyAndUntypedSearchAttributes(t *testing.T) {
	c, frontend := newOfficialClient(t)
	untyped := map[string]any{"CustomKeywordField": "kw", "CustomIntField": 3, "CustomTimes": []time.Time{sampleTime}}
	options := client.StartWorkflowOptions{ID: "wf-2", TaskQueue: "tq", RetryPolicy: &official.RetryPolicy{}}
	//lint:ignore SA1019 the deprecated untyped form is what this test compares
	options.SearchAttributes = untyped
	_, err := c.ExecuteWorkflow(context.Background(), options, "Wf")
	if err != nil {
		t.Fatal(err)
	}
	req := frontend.lastStart()
	if ourRetry := policy.RetryPolicyToProto(&temporal.RetryPolicy{}); !proto.Equal(req.RetryPolicy, ourRetry) {
		t.Errorf("zero retry policy:\n ours     %v\n official %v", ourRetry, req.RetryPolicy)
	}
	if ourSA, _ := searchattr.EncodeForStart(untyped, temporal.SearchAttributes{}); !proto.Equal(req.SearchAttributes, ourSA) {
		t.Errorf("untyped search attributes:\n ours     %v\n official %v", ourSA, req.SearchAttributes)
	}
	if req.Priority != nil {
		t.Errorf("zero priority sent: %v", req.Priority)
	}
}

// TestOfficialClientReadsOurSearchAttributes serves attributes encoded by us
// (including an unset one) to the official client's DescribeWorkflow.
func TestOfficialClientReadsOurSearchAttributes(t *testing.T) {
	c, frontend := newOfficialClient(t)
	encoded, err := searchattr.Encode(ourSearchAttributes())
	if err != nil {
		t.Fatal(err)
	}
	frontend.describes = encoded
	desc, err := c.DescribeWorkflow(context.Background(), "wf-1", "")
	if err != nil {
		t.Fatal(err)
	}
	got := desc.TypedSearchAttributes
	want := officialSearchAttributes()
	if got.Size() != want.Size() || got.Size() != 7 {
		t.Fatalf("official read %d attributes, want %d", got.Size(), want.Size())
	}
	for key, value := range want.GetUntypedValues() {
		if !reflect.DeepEqual(got.GetUntypedValues()[key], value) {
			t.Errorf("%s = %v, want %v", key.GetName(), got.GetUntypedValues()[key], value)
		}
	}
}
