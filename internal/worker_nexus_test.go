package internal

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// recordingNexusInterceptor records the calls it sees under its name, and
// wraps the outbound interceptor to change the operation info.
type recordingNexusInterceptor struct {
	WorkerInterceptorBase
	name  string
	calls *[]string
}

func (r *recordingNexusInterceptor) InterceptNexusOperation(_ context.Context, next NexusOperationInboundInterceptor) NexusOperationInboundInterceptor {
	return &recordingNexusInbound{NexusOperationInboundInterceptorBase{Next: next}, r}
}

type recordingNexusInbound struct {
	NexusOperationInboundInterceptorBase
	r *recordingNexusInterceptor
}

func (i *recordingNexusInbound) Init(ctx context.Context, outbound NexusOperationOutboundInterceptor) error {
	*i.r.calls = append(*i.r.calls, i.r.name+" init")
	return i.Next.Init(ctx, &renamingNexusOutbound{NexusOperationOutboundInterceptorBase{Next: outbound}, i.r.name})
}

func (i *recordingNexusInbound) StartOperation(ctx context.Context, in NexusStartOperationInput) (nexus.HandlerStartOperationResult[any], error) {
	*i.r.calls = append(*i.r.calls, i.r.name+" start "+in.Input.(string))
	return i.Next.StartOperation(ctx, in)
}

func (i *recordingNexusInbound) CancelOperation(ctx context.Context, in NexusCancelOperationInput) error {
	*i.r.calls = append(*i.r.calls, i.r.name+" cancel "+in.Token)
	return i.Next.CancelOperation(ctx, in)
}

// renamingNexusOutbound appends its name to the task queue the operation
// info gives.
type renamingNexusOutbound struct {
	NexusOperationOutboundInterceptorBase
	name string
}

func (o *renamingNexusOutbound) GetOperationInfo(ctx context.Context) NexusOperationInfo {
	info := o.Next.GetOperationInfo(ctx)
	info.TaskQueue += "+" + o.name
	return info
}

type cancelRecorder struct {
	nexus.UnimplementedOperation[string, string]
	canceled *string
}

func (*cancelRecorder) Name() string { return "op" }

func (*cancelRecorder) Start(ctx context.Context, in string, _ nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[string], error) {
	if !IsNexusOperation(ctx) {
		return nil, errors.New("not a Nexus operation's context")
	}
	info := GetNexusOperationInfo(ctx)
	GetNexusOperationLogger(ctx).Info("started")
	GetNexusOperationMetricsHandler(ctx).Counter("c").Inc(1)
	return &nexus.HandlerStartOperationResultSync[string]{Value: in + " on " + info.TaskQueue + " in " + info.Namespace}, nil
}

func (c *cancelRecorder) Cancel(_ context.Context, token string, _ nexus.CancelOperationOptions) error {
	*c.canceled = token
	return nil
}

// TestNexusInterceptorChain runs an operation's start and cancel through
// two worker interceptors: each sees Init, then the call, outermost
// first; each Init wraps the outbound interceptor it was given, so the
// operation's temporalnexus calls reach the inner one's wrapper first.
func TestNexusInterceptorChain(t *testing.T) {
	var calls []string
	var canceled string
	svc := nexus.NewService("svc")
	svc.MustRegister(&cancelRecorder{canceled: &canceled})
	reg := nexus.NewServiceRegistry()
	reg.MustRegister(svc)
	reg.Use(NexusMiddleware([]WorkerInterceptor{
		&recordingNexusInterceptor{name: "outer", calls: &calls},
		&recordingNexusInterceptor{name: "inner", calls: &calls},
	}))
	h, err := reg.NewHandler()
	if err != nil {
		t.Fatal(err)
	}
	ctx := nexushandler.WithOperationContext(context.Background(), &nexushandler.OperationContext{
		Namespace: "ns", TaskQueue: "tq",
		Logger: logging.NewTextLogger(io.Discard, slog.LevelError), Metrics: sdkmetrics.NopHandler,
	})
	ctx = nexus.WithHandlerContext(ctx, nexus.HandlerInfo{Service: "svc", Operation: "op"})
	input := nexus.NewLazyValue(stringSerializer("x"), &nexus.Reader{ReadCloser: io.NopCloser(strings.NewReader(""))})
	result, err := h.StartOperation(ctx, "svc", "op", input, nexus.StartOperationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := result.(interface{ ValueAsAny() any }).ValueAsAny(); got != "x on tq+outer+inner in ns" {
		t.Errorf("result %q: the outbound interceptors did not answer GetOperationInfo in order", got)
	}
	if err := h.CancelOperation(ctx, "svc", "op", "tok", nexus.CancelOperationOptions{}); err != nil || canceled != "tok" {
		t.Fatalf("cancel: %v, canceled %q", err, canceled)
	}
	want := "outer init, inner init, outer start x, inner start x, outer init, inner init, outer cancel tok, inner cancel tok"
	if got := strings.Join(calls, ", "); got != want {
		t.Errorf("calls\n  %s\nwant\n  %s", got, want)
	}
}

func TestNexusCallsOutsideAnOperationPanic(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "not a Nexus operation's context") {
			t.Errorf("recovered %v, want the error that names the mistake", r)
		}
	}()
	GetNexusOperationInfo(context.Background())
}

// stringSerializer deserializes any content as the string it is.
type stringSerializer string

func (s stringSerializer) Deserialize(_ *nexus.Content, v any) error {
	*(v.(*string)) = string(s)
	return nil
}

func (s stringSerializer) Serialize(any) (*nexus.Content, error) { return nil, errors.New("unused") }
