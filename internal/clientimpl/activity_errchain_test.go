package clientimpl

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// cyclicError's Unwrap returns itself.
type cyclicError struct{}

func (e *cyclicError) Error() string { return "cyclic" }
func (e *cyclicError) Unwrap() error { return e }

// failedCompleter keeps the failure an asynchronous completion reports.
type failedCompleter struct {
	activityCompleter
	failed *workflowservice.RespondActivityTaskFailedRequest
}

func (c *failedCompleter) RespondActivityTaskFailed(_ context.Context, in *workflowservice.RespondActivityTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	c.failed = in
	return &workflowservice.RespondActivityTaskFailedResponse{}, nil
}

// An activity completed asynchronously with an error whose chain is
// cyclic fails with a message that says so, as from a worker.
func TestAsyncCompletionWithACyclicErrorReportsAClearFailure(t *testing.T) {
	svc := &failedCompleter{}
	done := make(chan error, 1)
	go func() {
		done <- CompleteActivityByToken(context.Background(), svc, "ns", "me", converter.GetDefaultDataConverter(),
			failure.GetDefaultFailureConverter(), []byte("token"), nil, &cyclicError{})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("CompleteActivity did not return")
	}
	want := "the error (*clientimpl.cyclicError) cannot be reported: its chain of wrapped errors is cyclic"
	if got := svc.failed.GetFailure().GetMessage(); !strings.HasPrefix(got, want) {
		t.Errorf("reported %q, want a message that starts %q", got, want)
	}
}
