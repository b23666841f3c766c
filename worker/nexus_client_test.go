package worker_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// standaloneService is the handler of the standalone operations the
// client starts: a synchronous echo, a synchronous failure, and a
// workflow-run operation whose workflow answers, or waits until
// canceled.
func standaloneService() *nexus.Service {
	svc := nexus.NewService("standalone")
	svc.MustRegister(
		nexus.NewSyncOperation("echo", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "echo: " + in, nil
		}),
		nexus.NewSyncOperation("fail", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewOperationFailedErrorf("no stock for %q", in)
		}),
		temporalnexus.NewWorkflowRunOperation("run", StandaloneBackingWorkflow,
			func(_ context.Context, _ string, o nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
				return client.StartWorkflowOptions{ID: "standalone-backing-" + o.RequestID}, nil
			}),
	)
	return svc
}

// StandaloneBackingWorkflow backs the "run" operation: it answers, or,
// given "wait", sleeps until canceled.
func StandaloneBackingWorkflow(ctx workflow.Context, in string) (string, error) {
	if in == "wait" {
		return "", workflow.Sleep(ctx, time.Hour)
	}
	return "ran: " + in, nil
}

// skipWithoutStandaloneNexus skips on the Temporal CLI's server 1.29,
// which has no standalone Nexus operations.
func skipWithoutStandaloneNexus(t *testing.T) {
	t.Helper()
	testharness.NeedsDevServer(t, "standalone Nexus operations")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: server 1.29 has no standalone Nexus operations; durable-devserver (server %s) has them", devserver.TargetEnv, devserver.DevServerVersion)
	}
}

// serveStandalone starts a handler worker of standaloneService on c and
// an endpoint to it, and returns a NexusClient of it made from caller.
func serveStandalone(t *testing.T, c, caller client.Client) (client.NexusClient, string) {
	t.Helper()
	skipWithoutStandaloneNexus(t)
	queue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterNexusService(standaloneService())
		w.RegisterWorkflow(StandaloneBackingWorkflow)
	})
	endpoint := unique(t, "ep")
	createEndpoint(t, c, endpoint, queue)
	nc, err := caller.NewNexusClient(client.NexusClientOptions{Endpoint: endpoint, Service: "standalone"})
	if err != nil {
		t.Fatal(err)
	}
	waitForEndpoint(t, testCtx(t), nc, unique(t, "probe"))
	return nc, endpoint
}

// waitForEndpoint waits until the server's frontend knows the endpoint
// just created (it refreshes its registry in the background): until a
// start is not refused for want of it. The probe's ID is probeID.
func waitForEndpoint(t *testing.T, ctx context.Context, nc client.NexusClient, probeID string) {
	t.Helper()
	for {
		_, err := nc.ExecuteOperation(ctx, "echo", "probe", client.StartNexusOperationOptions{ID: probeID})
		var notFound *serviceerror.NotFound
		if !errors.As(err, &notFound) {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the endpoint never became usable: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitStarted waits until the handler has started the asynchronous
// operation of h (its description has a token).
func waitStarted(t *testing.T, ctx context.Context, h client.NexusOperationHandle) *client.NexusOperationExecutionDescription {
	t.Helper()
	for {
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.OperationToken != "" {
			return d
		}
		select {
		case <-ctx.Done():
			t.Fatalf("operation %s never started: state %v", h.GetID(), d.State)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestStandaloneNexusOperations starts operations from the client, not
// from a workflow: a synchronous one, a workflow-run one, a failing one,
// one canceled and one terminated while their workflows run; reads them
// back by ID, describes, lists and counts them, and applies the ID
// policies.
func TestStandaloneNexusOperations(t *testing.T) {
	c := dial(t)
	nc, endpoint := serveStandalone(t, c, c)
	ctx := testCtx(t)

	if _, err := c.NewNexusClient(client.NexusClientOptions{Service: "standalone"}); err == nil || !strings.Contains(err.Error(), "Endpoint") {
		t.Errorf("NewNexusClient without an endpoint: %v", err)
	}
	if _, err := nc.ExecuteOperation(ctx, "echo", "hi", client.StartNexusOperationOptions{}); err == nil || !strings.Contains(err.Error(), "ID") {
		t.Errorf("ExecuteOperation without an ID: %v", err)
	}
	if _, err := nc.ExecuteOperation(ctx, "", "hi", client.StartNexusOperationOptions{ID: "x"}); err == nil || !strings.Contains(err.Error(), "operation name") {
		t.Errorf("ExecuteOperation without an operation name: %v", err)
	}
	typed := nexus.NewOperationReference[int, string]("echo")
	if _, err := nc.ExecuteOperation(ctx, typed, "hi", client.StartNexusOperationOptions{ID: "x"}); err == nil || !strings.Contains(err.Error(), "cannot assign argument") {
		t.Errorf("ExecuteOperation with an input its reference does not take: %v", err)
	}

	t.Run("sync", func(t *testing.T) {
		id := unique(t, "op")
		h, err := nc.ExecuteOperation(ctx, "echo", "hi", client.StartNexusOperationOptions{
			ID: id, ScheduleToCloseTimeout: time.Minute, StartToCloseTimeout: 40 * time.Second, Summary: "an echo"})
		if err != nil {
			t.Fatal(err)
		}
		if h.GetID() != id || h.GetRunID() == "" {
			t.Errorf("handle %q run %q", h.GetID(), h.GetRunID())
		}
		var out string
		if err := h.Get(ctx, &out); err != nil || out != "echo: hi" {
			t.Fatalf("Get: %q, %v", out, err)
		}
		if err := h.Get(ctx, nil); err != nil { // the outcome is kept
			t.Errorf("second Get: %v", err)
		}
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		summary, err := d.GetSummary()
		if err != nil || summary != "an echo" {
			t.Errorf("summary %q, %v", summary, err)
		}
		m := d.ClientNexusOperationMetadata
		if m.OperationID != id || m.OperationRunID != h.GetRunID() || m.Endpoint != endpoint || m.Service != "standalone" || m.Operation != "echo" ||
			m.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_COMPLETED || m.ScheduledTime.Unix() <= 0 || m.CloseTime.Before(m.ScheduledTime) {
			t.Errorf("metadata %+v", m)
		}
		if d.ScheduleToCloseTimeout != time.Minute || d.StartToCloseTimeout != 40*time.Second || d.OperationToken != "" ||
			d.RawInfo == nil || d.CancellationInfo != nil || d.GetLastAttemptFailure() != nil {
			t.Errorf("description %+v", d)
		}
		if !strings.Contains(d.Identity, "@") {
			t.Errorf("identity %q, want the client's", d.Identity)
		}
		// A typed reference names the operation too.
		typed, err := nc.ExecuteOperation(ctx, nexus.NewOperationReference[string, string]("echo"), "typed", client.StartNexusOperationOptions{ID: unique(t, "op")})
		if err != nil {
			t.Fatal(err)
		}
		if err := typed.Get(ctx, &out); err != nil || out != "echo: typed" {
			t.Errorf("typed reference: %q, %v", out, err)
		}
	})

	t.Run("workflow-run", func(t *testing.T) {
		h, err := nc.ExecuteOperation(ctx, "run", "hi", client.StartNexusOperationOptions{ID: unique(t, "op")})
		if err != nil {
			t.Fatal(err)
		}
		var out string
		if err := h.Get(ctx, &out); err != nil || out != "ran: hi" {
			t.Fatalf("Get: %q, %v", out, err)
		}
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.OperationToken == "" || d.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_COMPLETED {
			t.Errorf("token %q, status %v", d.OperationToken, d.Status)
		}
		// A handle by ID, of the latest run and of this run, reads the
		// same result.
		for _, runID := range []string{"", h.GetRunID()} {
			var again string
			byID := c.GetNexusOperationHandle(client.GetNexusOperationHandleOptions{OperationID: h.GetID(), RunID: runID})
			if err := byID.Get(ctx, &again); err != nil || again != "ran: hi" || byID.GetRunID() != runID {
				t.Errorf("handle by ID (run %q): %q, %v", runID, again, err)
			}
		}
	})

	t.Run("fail", func(t *testing.T) {
		h, err := nc.ExecuteOperation(ctx, "fail", "tea", client.StartNexusOperationOptions{ID: unique(t, "op")})
		if err != nil {
			t.Fatal(err)
		}
		// The operation's failure itself, as go.temporal.io/sdk gives it
		// (compat/nexus_client_test.go compares the chains).
		err = h.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Message() != `no stock for "tea"` || appErr.Type() != "OperationError" || !appErr.NonRetryable() {
			t.Fatalf("Get: %s", describeErrorChain(err))
		}
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil || d.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_FAILED {
			t.Errorf("describe: %v, %v", d, err)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		h, err := nc.ExecuteOperation(ctx, "run", "wait", client.StartNexusOperationOptions{ID: unique(t, "op")})
		if err != nil {
			t.Fatal(err)
		}
		waitStarted(t, ctx, h)
		if err := h.Cancel(ctx, client.CancelNexusOperationOptions{Reason: "no longer needed"}); err != nil {
			t.Fatal(err)
		}
		err = h.Get(ctx, nil)
		var canceled *temporal.CanceledError
		if !errors.As(err, &canceled) {
			t.Fatalf("Get: %s", describeErrorChain(err))
		}
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// (The cancellation's State may still say the request is on its way:
		// the handler's workflow may complete before its answer is recorded.)
		if d.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_CANCELED || d.CancellationInfo == nil || d.CancellationInfo.Reason != "no longer needed" ||
			d.CancellationInfo.State == enumspb.NEXUS_OPERATION_CANCELLATION_STATE_UNSPECIFIED || d.CancellationInfo.RawInfo == nil {
			t.Errorf("status %v, cancellation %+v", d.Status, d.CancellationInfo)
		}
	})

	t.Run("terminate", func(t *testing.T) {
		h, err := nc.ExecuteOperation(ctx, "run", "wait", client.StartNexusOperationOptions{ID: unique(t, "op")})
		if err != nil {
			t.Fatal(err)
		}
		waitStarted(t, ctx, h)
		if err := h.Terminate(ctx, client.TerminateNexusOperationOptions{Reason: "enough"}); err != nil {
			t.Fatal(err)
		}
		err = h.Get(ctx, nil)
		var terminated *temporal.TerminatedError
		if !errors.As(err, &terminated) {
			t.Fatalf("Get: %s", describeErrorChain(err))
		}
		d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
		if err != nil || d.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_TERMINATED {
			t.Errorf("describe: %v, %v", d, err)
		}
	})

	t.Run("id-policies", func(t *testing.T) {
		id := unique(t, "op")
		first, err := nc.ExecuteOperation(ctx, "run", "wait", client.StartNexusOperationOptions{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		// Running: the default conflict policy refuses a second start,
		// UseExisting returns the running one.
		_, err = nc.ExecuteOperation(ctx, "run", "wait", client.StartNexusOperationOptions{ID: id})
		var started *serviceerror.NexusOperationExecutionAlreadyStarted
		if !errors.As(err, &started) {
			t.Errorf("second start: %s", describeErrorChain(err))
		}
		existing, err := nc.ExecuteOperation(ctx, "run", "wait", client.StartNexusOperationOptions{ID: id,
			IDConflictPolicy: enumspb.NEXUS_OPERATION_ID_CONFLICT_POLICY_USE_EXISTING})
		if err != nil || existing.GetRunID() != first.GetRunID() {
			t.Errorf("UseExisting: run %v, %v (first %q)", existing, err, first.GetRunID())
		}
		if err := first.Terminate(ctx, client.TerminateNexusOperationOptions{}); err != nil {
			t.Fatal(err)
		}
		// Closed: RejectDuplicate refuses the ID, the default allows it.
		_, err = nc.ExecuteOperation(ctx, "echo", "again", client.StartNexusOperationOptions{ID: id,
			IDReusePolicy: enumspb.NEXUS_OPERATION_ID_REUSE_POLICY_REJECT_DUPLICATE})
		if !errors.As(err, &started) {
			t.Errorf("RejectDuplicate: %s", describeErrorChain(err))
		}
		again, err := nc.ExecuteOperation(ctx, "echo", "again", client.StartNexusOperationOptions{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		if again.GetRunID() == first.GetRunID() {
			t.Error("the reused ID got the first run")
		}
	})

	t.Run("list-and-count", func(t *testing.T) {
		query := fmt.Sprintf("Endpoint = '%s' AND ExecutionStatus = 'Completed'", endpoint)
		var listed []*client.NexusOperationMetadata
		for {
			// Visibility follows the operations' closes by a moment.
			count, err := c.CountNexusOperations(ctx, client.CountNexusOperationsOptions{Query: query})
			if err != nil {
				t.Fatal(err)
			}
			list, err := c.ListNexusOperations(ctx, client.ListNexusOperationsOptions{Query: query})
			if err != nil {
				t.Fatal(err)
			}
			listed = listed[:0]
			for m, err := range list.Results {
				if err != nil {
					t.Fatal(err)
				}
				listed = append(listed, m)
			}
			// the probe, sync and its typed echo, workflow-run, and the echo
			// of id-policies.
			if count.Count == 5 && len(listed) == 5 {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("count %d, listed %d; want 5", count.Count, len(listed))
			case <-time.After(100 * time.Millisecond):
			}
		}
		var ops []string
		for _, m := range listed {
			if m.Endpoint != endpoint || m.Service != "standalone" || m.RawExecutionListInfo == nil || m.OperationRunID == "" ||
				m.Status != enumspb.NEXUS_OPERATION_EXECUTION_STATUS_COMPLETED {
				t.Errorf("listed %+v", m)
			}
			ops = append(ops, m.Operation)
		}
		slices.Sort(ops)
		if !slices.Equal(ops, []string{"echo", "echo", "echo", "echo", "run"}) {
			t.Errorf("listed operations %v", ops)
		}
		grouped, err := c.CountNexusOperations(ctx, client.CountNexusOperationsOptions{
			Query: fmt.Sprintf("Endpoint = '%s' GROUP BY ExecutionStatus", endpoint)})
		if err != nil {
			t.Fatal(err)
		}
		groups := map[string]int64{}
		for _, g := range grouped.Groups {
			if len(g.GroupValues) != 1 {
				t.Fatalf("group %+v", g)
			}
			groups[fmt.Sprint(g.GroupValues[0])] = g.Count
		}
		if groups["Completed"] != 5 || groups["Failed"] != 1 || groups["Canceled"] != 1 || groups["Terminated"] != 2 {
			t.Errorf("groups %v (total %d)", groups, grouped.Count)
		}
	})
}

// describeErrorChain renders each link of err's chain with its type.
func describeErrorChain(err error) string {
	if err == nil {
		return "no error"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		parts = append(parts, fmt.Sprintf("%T(%q)", e, e.Error()))
	}
	return strings.Join(parts, " <- ")
}

// reversingCodec reverses the bytes of every payload, marking it.
type reversingCodec struct{}

func (reversingCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		data, _ := p.Marshal()
		slices.Reverse(data)
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte("binary/reversed")}, Data: data}
	}
	return out, nil
}

func (reversingCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != "binary/reversed" {
			out[i] = p
			continue
		}
		data := slices.Clone(p.GetData())
		slices.Reverse(data)
		out[i] = &commonpb.Payload{}
		if err := out[i].Unmarshal(data); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TestStandaloneNexusOperationWithCodec: the input, result and summary
// of a standalone operation pass through the client's codec (the server
// stores them encoded), and the handler, with the same codec, reads the
// input.
func TestStandaloneNexusOperationWithCodec(t *testing.T) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), reversingCodec{})
	c := dialWith(t, client.Options{DataConverter: dc})
	nc, _ := serveStandalone(t, c, c)
	ctx := testCtx(t)
	h, err := nc.ExecuteOperation(ctx, "run", "secret", client.StartNexusOperationOptions{ID: unique(t, "op"), Summary: "hidden"})
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := h.Get(ctx, &out); err != nil || out != "ran: secret" {
		t.Fatalf("Get: %q, %v", out, err)
	}
	raw, err := c.WorkflowService().PollNexusOperationExecution(ctx, &workflowservice.PollNexusOperationExecutionRequest{
		Namespace: testharness.Namespace(t), OperationId: h.GetID(), WaitStage: enumspb.NEXUS_OPERATION_WAIT_STAGE_CLOSED})
	if err != nil {
		t.Fatal(err)
	}
	if enc := string(raw.GetResult().GetMetadata()[converter.MetadataEncoding]); enc != "binary/reversed" {
		t.Errorf("the server holds the result with encoding %q, want it encoded by the codec", enc)
	}
	d, err := h.Describe(ctx, client.DescribeNexusOperationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if enc := string(d.RawInfo.GetUserMetadata().GetSummary().GetMetadata()[converter.MetadataEncoding]); enc != "binary/reversed" {
		t.Errorf("the summary's encoding is %q", enc)
	}
	if s, err := d.GetSummary(); err != nil || s != "hidden" {
		t.Errorf("summary %q, %v", s, err)
	}
}

// nexusCallLog records the client interceptor's Nexus calls.
type nexusCallLog struct {
	interceptor.ClientInterceptorBase
	calls []string
}

func (l *nexusCallLog) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &nexusCallRecorder{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, log: l}
}

type nexusCallRecorder struct {
	interceptor.ClientOutboundInterceptorBase
	log *nexusCallLog
}

func (r *nexusCallRecorder) ExecuteNexusOperation(ctx context.Context, in *interceptor.ClientExecuteNexusOperationInput) (client.NexusOperationHandle, error) {
	r.log.calls = append(r.log.calls, fmt.Sprintf("Execute %s/%s %v id-set=%v", in.Service, in.OperationType, in.Input, in.Options.ID != ""))
	in.NexusHeader["x-from-interceptor"] = "yes"
	return r.Next.ExecuteNexusOperation(ctx, in)
}

func (r *nexusCallRecorder) GetNexusOperationHandle(in *interceptor.ClientGetNexusOperationHandleInput) client.NexusOperationHandle {
	r.log.calls = append(r.log.calls, "GetHandle run-set="+fmt.Sprint(in.RunID != ""))
	return r.Next.GetNexusOperationHandle(in)
}

func (r *nexusCallRecorder) PollNexusOperationResult(ctx context.Context, in *interceptor.ClientPollNexusOperationResultInput) (*interceptor.ClientPollNexusOperationResultOutput, error) {
	out, err := r.Next.PollNexusOperationResult(ctx, in)
	if err == nil {
		r.log.calls = append(r.log.calls, fmt.Sprintf("Poll result=%v error=%v", out.Result != nil, out.Error))
	}
	return out, err
}

func (r *nexusCallRecorder) DescribeNexusOperation(ctx context.Context, in *interceptor.ClientDescribeNexusOperationInput) (*interceptor.ClientDescribeNexusOperationOutput, error) {
	out, err := r.Next.DescribeNexusOperation(ctx, in)
	if err == nil {
		r.log.calls = append(r.log.calls, "Describe "+out.Description.Status.String())
	}
	return out, err
}

func (r *nexusCallRecorder) CancelNexusOperation(ctx context.Context, in *interceptor.ClientCancelNexusOperationInput) error {
	r.log.calls = append(r.log.calls, "Cancel "+in.Reason)
	return r.Next.CancelNexusOperation(ctx, in)
}

func (r *nexusCallRecorder) TerminateNexusOperation(ctx context.Context, in *interceptor.ClientTerminateNexusOperationInput) error {
	r.log.calls = append(r.log.calls, "Terminate "+in.Reason)
	return r.Next.TerminateNexusOperation(ctx, in)
}

// TestStandaloneNexusOperationInterceptors: each handle call and the
// start pass through the client's interceptors, and the Nexus header an
// interceptor writes reaches the handler.
func TestStandaloneNexusOperationInterceptors(t *testing.T) {
	skipWithoutStandaloneNexus(t)
	log := &nexusCallLog{}
	c := dial(t)
	caller := dialWith(t, client.Options{Interceptors: []interceptor.ClientInterceptor{log}})
	var header string
	queue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		svc := nexus.NewService("standalone")
		svc.MustRegister(nexus.NewSyncOperation("echo", func(_ context.Context, in string, o nexus.StartOperationOptions) (string, error) {
			header = o.Header.Get("x-from-interceptor")
			return "echo: " + in, nil
		}))
		w.RegisterNexusService(svc)
	})
	endpoint := unique(t, "ep")
	createEndpoint(t, c, endpoint, queue)
	nc, err := caller.NewNexusClient(client.NexusClientOptions{Endpoint: endpoint, Service: "standalone"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	waitForEndpoint(t, ctx, nc, unique(t, "probe"))
	log.calls = nil
	h, err := nc.ExecuteOperation(ctx, "echo", "hi", client.StartNexusOperationOptions{ID: unique(t, "op")})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	byID := caller.GetNexusOperationHandle(client.GetNexusOperationHandleOptions{OperationID: h.GetID(), RunID: h.GetRunID()})
	if _, err := byID.Describe(ctx, client.DescribeNexusOperationOptions{}); err != nil {
		t.Fatal(err)
	}
	// Cancel and Terminate of a closed operation pass through, and the
	// server refuses them.
	if err := byID.Cancel(ctx, client.CancelNexusOperationOptions{Reason: "late"}); err == nil {
		t.Error("Cancel of a completed operation succeeded")
	}
	if err := byID.Terminate(ctx, client.TerminateNexusOperationOptions{Reason: "later"}); err == nil {
		t.Error("Terminate of a completed operation succeeded")
	}
	want := []string{
		"Execute standalone/echo hi id-set=true",
		"Poll result=true error=<nil>",
		"GetHandle run-set=true",
		"Describe Completed",
		"Cancel late",
		"Terminate later",
	}
	if !slices.Equal(log.calls, want) {
		t.Errorf("calls\n  %q\nwant\n  %q", log.calls, want)
	}
	if header != "yes" {
		t.Errorf("the handler saw the header %q", header)
	}
}
