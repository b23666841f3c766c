package devserver_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/testharness"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func startServer(t *testing.T, opts devserver.Options) *devserver.Server {
	t.Helper()
	// Shown with -v or on failure only.
	opts.Stderr = t.Output()
	s, err := devserver.Start(context.Background(), opts)
	must(t, err)
	t.Cleanup(func() { _ = s.Stop() })
	return s
}

func dial(t *testing.T, hostPort string) *rpc.Conn {
	t.Helper()
	c, err := rpc.Dial(context.Background(), rpc.Options{HostPort: hostPort})
	must(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func registerNamespace(t *testing.T, c *rpc.Conn, name string) {
	t.Helper()
	_, err := c.WorkflowService().RegisterNamespace(context.Background(), &workflowservice.RegisterNamespaceRequest{
		Namespace:                        name,
		WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
	})
	must(t, err)
	must(t, c.CheckNamespace(context.Background(), name))
}

func requirePortFree(t *testing.T, hostPort string) {
	t.Helper()
	lis, err := net.Listen("tcp", hostPort)
	if err != nil {
		t.Fatalf("port of the stopped server is still taken: %v", err)
	}
	must(t, lis.Close())
}

func TestStartStopRestartWithDatabase(t *testing.T) {
	cli := testharness.RequireCLI(t)
	db := filepath.Join(t.TempDir(), "state.db")

	// In memory: answers, registers the options' search attribute, and
	// releases its port on stop.
	first := startServer(t, devserver.Options{
		ExistingPath:     cli,
		Namespace:        "orders",
		SearchAttributes: map[string]string{"CustomerId": "Keyword"},
	})
	hostPort := first.HostPort()
	c := dial(t, hostPort)
	info, err := c.SystemInfo(context.Background())
	must(t, err)
	if info.GetServerVersion() == "" {
		t.Error("GetSystemInfo returned no server version")
	}
	must(t, c.CheckHealth(context.Background()))
	must(t, c.CheckNamespace(context.Background(), "orders"))
	attrs, err := c.OperatorService().ListSearchAttributes(context.Background(),
		&operatorservice.ListSearchAttributesRequest{Namespace: "orders"})
	must(t, err)
	if got := attrs.GetCustomAttributes()["CustomerId"]; got != enumspb.INDEXED_VALUE_TYPE_KEYWORD {
		t.Errorf("search attribute CustomerId has type %v, want Keyword", got)
	}
	registerNamespace(t, c, "ephemeral")
	must(t, first.Stop())
	requirePortFree(t, hostPort)
	must(t, first.Stop()) // stopping twice is harmless

	// Same port, with a database: the in-memory namespace is gone.
	second := startServer(t, devserver.Options{ExistingPath: cli, HostPort: hostPort, DBFilename: db})
	c = dial(t, hostPort)
	err = c.CheckNamespace(context.Background(), "ephemeral")
	var notFound *rpc.NamespaceNotFoundError
	if !errors.As(err, &notFound) {
		t.Fatalf("got %v, want *rpc.NamespaceNotFoundError", err)
	}
	if want := `namespace "ephemeral" not found on server ` + hostPort +
		`: create it with 'temporal operator namespace create ephemeral --address ` + hostPort + `'`; err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	registerNamespace(t, c, "durable")
	must(t, second.Stop())
	requirePortFree(t, hostPort)

	// Restarted on the same database: the namespace survived.
	startServer(t, devserver.Options{ExistingPath: cli, HostPort: hostPort, DBFilename: db})
	c = dial(t, hostPort)
	must(t, c.CheckNamespace(context.Background(), "durable"))
}

func TestStartOnTakenPortFails(t *testing.T) {
	cli := testharness.RequireCLI(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer lis.Close()

	_, err = devserver.Start(context.Background(), devserver.Options{ExistingPath: cli, HostPort: lis.Addr().String(), Stderr: t.Output()})

	for _, want := range []string{"exited before it was ready", "address already in use"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
