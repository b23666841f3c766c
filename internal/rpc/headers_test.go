package rpc

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/metadata"
)

type headersFunc func(context.Context) (map[string]string, error)

func (f headersFunc) GetHeaders(ctx context.Context) (map[string]string, error) { return f(ctx) }

func lastCall(t *testing.T, f *fakeServer) received {
	t.Helper()
	calls := f.received()
	if len(calls) == 0 {
		t.Fatal("server received no call")
	}
	return calls[len(calls)-1]
}

func getSystemInfo(ctx context.Context, c *Conn) error {
	_, err := c.WorkflowService().GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
	return err
}

func TestIdentificationHeadersOnEveryCall(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})

	must(t, getSystemInfo(context.Background(), c))
	_, err := c.OperatorService().ListSearchAttributes(context.Background(), &operatorservice.ListSearchAttributesRequest{Namespace: "ops"})
	must(t, err)

	calls := f.received()
	if len(calls) != 2 {
		t.Fatalf("server received %d calls, want 2", len(calls))
	}
	for _, call := range calls {
		wantHeader(t, call.md, "client-name", DefaultClientName)
		wantHeader(t, call.md, "client-version", DefaultClientVersion)
		wantHeader(t, call.md, "supported-server-versions", ">=1.0.0 <2.0.0")
	}
	// A request without a namespace gets the default; a request's own wins.
	wantHeader(t, calls[0].md, "temporal-namespace", "default")
	wantHeader(t, calls[1].md, "temporal-namespace", "ops")
}

func TestConfiguredNamespaceAndClientNameAreSent(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Namespace: "orders", ClientName: "custom", ClientVersion: "9.9.9"})

	must(t, getSystemInfo(context.Background(), c))
	_, err := c.WorkflowService().StartWorkflowExecution(context.Background(),
		&workflowservice.StartWorkflowExecutionRequest{Namespace: "billing", WorkflowId: "wf-9"})
	must(t, err)

	calls := f.received()
	wantHeader(t, calls[0].md, "temporal-namespace", "orders")
	wantHeader(t, calls[0].md, "client-name", "custom")
	wantHeader(t, calls[0].md, "client-version", "9.9.9")
	wantHeader(t, calls[1].md, "temporal-namespace", "billing")
	wantHeader(t, calls[1].md, "temporal-resource-id", "workflow:wf-9")
}

func TestAPIKeyAndHeadersProvider(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{
		APIKey: func(context.Context) (string, error) { return "secret", nil },
		HeadersProvider: headersFunc(func(context.Context) (map[string]string, error) {
			return map[string]string{"X-Tenant": "acme"}, nil
		}),
	})

	must(t, getSystemInfo(context.Background(), c))

	md := lastCall(t, f).md
	wantHeader(t, md, "authorization", "Bearer secret")
	wantHeader(t, md, "x-tenant", "acme")
}

func TestContextHeadersOverrideConfiguredOnes(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{
		APIKey: func(context.Context) (string, error) { return "configured", nil },
		HeadersProvider: headersFunc(func(context.Context) (map[string]string, error) {
			return map[string]string{"x-tenant": "from-provider"}, nil
		}),
	})
	ctx := metadata.AppendToOutgoingContext(context.Background(),
		"authorization", "Bearer from-ctx", "x-tenant", "from-ctx", "temporal-namespace", "ns-ctx")

	must(t, getSystemInfo(ctx, c))

	md := lastCall(t, f).md
	wantHeader(t, md, "authorization", "Bearer from-ctx")
	wantHeader(t, md, "x-tenant", "from-ctx")
	wantHeader(t, md, "temporal-namespace", "ns-ctx")
}

func TestEmptyAPIKeySendsNoAuthorization(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{APIKey: func(context.Context) (string, error) { return "", nil }})

	must(t, getSystemInfo(context.Background(), c))

	wantHeader(t, lastCall(t, f).md, "authorization")
}

func TestHeadersAreRecomputedPerAttemptWithoutDuplicates(t *testing.T) {
	f := startFakeServer(t)
	var n atomic.Int32
	keys := []string{"k1", "k2", "k3"}
	c := dialFake(t, f, Options{
		Retry:  fastRetries,
		APIKey: func(context.Context) (string, error) { return keys[n.Add(1)-1], nil },
	})
	f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))

	must(t, startWorkflow(c, context.Background()))

	calls := f.received()
	if len(calls) != 2 {
		t.Fatalf("server received %d calls, want 2", len(calls))
	}
	wantHeader(t, calls[0].md, "authorization", "Bearer k1")
	wantHeader(t, calls[1].md, "authorization", "Bearer k2") // the rotated key
	wantHeader(t, calls[1].md, "client-name", DefaultClientName)
	wantHeader(t, calls[1].md, "temporal-namespace", "default")
}

func TestCredentialErrorsFailTheCallAtOnce(t *testing.T) {
	f := startFakeServer(t)
	boom := errors.New("token service down")
	c := dialFake(t, f, Options{
		HeadersProvider: headersFunc(func(context.Context) (map[string]string, error) { return nil, boom }),
	})

	start := time.Now()
	err := getSystemInfo(context.Background(), c)

	if !errors.Is(err, boom) {
		t.Errorf("got %v, want the provider's error", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("took %v: a local failure must not be retried", elapsed)
	}
	if n := len(f.received()); n != 0 {
		t.Errorf("%d calls sent without credentials", n)
	}
}

func TestAPIKeyErrorFailsTheCall(t *testing.T) {
	f := startFakeServer(t)
	boom := errors.New("vault sealed")
	c := dialFake(t, f, Options{APIKey: func(context.Context) (string, error) { return "", boom }})

	if err := getSystemInfo(context.Background(), c); !errors.Is(err, boom) {
		t.Errorf("got %v, want the API key error", err)
	}
}
