package workerrt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
)

// failureService is a memoryService that keeps the failures activities
// report.
type failureService struct {
	memoryService
	failedMu sync.Mutex
	failed   []*failurepb.Failure
}

func (s *failureService) RespondActivityTaskFailed(ctx context.Context, req *workflowservice.RespondActivityTaskFailedRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	s.failedMu.Lock()
	s.failed = append(s.failed, req.GetFailure())
	s.failedMu.Unlock()
	return s.memoryService.RespondActivityTaskFailed(ctx, req, opts...)
}

// typicalActivityError is what a failing activity returns: an application
// error that wraps a Go error that wraps a sentinel.
var typicalActivityError = failure.NewApplicationErrorWithCause("charge failed", "CardDeclined",
	fmt.Errorf("bank: %w", errors.New("insufficient funds")))

// BenchmarkActivityTaskFailure is one activity attempt that fails with a
// typical error, through the worker, from its poll to its report.
func BenchmarkActivityTaskFailure(b *testing.B) {
	svc := &failureService{}
	task := activityTask("fails", time.Now())
	w := newMetricsWorker(b, &svc.memoryService, nil, 0, activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
		return nil, typicalActivityError
	}))
	w.workCtx = context.Background()
	b.ReportAllocs()
	for b.Loop() {
		svc.activityTasks = append(svc.activityTasks[:0], task)
		polled, ok, err := w.pollActivityTask(context.Background())
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
		w.handleActivityTask(polled)
		svc.reports, svc.reportTags = svc.reports[:0], svc.reportTags[:0]
	}
}

// selfWrapping's Unwrap returns itself.
type selfWrapping struct{}

func (e *selfWrapping) Error() string { return "self-wrapping" }
func (e *selfWrapping) Unwrap() error { return e }

// An activity that returns an error whose chain is cyclic, directly or
// from an interceptor, is reported failed with a message that says so:
// the report no longer spins in errors.Is, and the task ends.
func TestAnActivityErrorWithACyclicChainIsReportedFailed(t *testing.T) {
	svc := &failureService{}
	w := newMetricsWorker(t, &svc.memoryService, nil, 0, activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
		return nil, fmt.Errorf("charging: %w", &selfWrapping{})
	}))
	w.opts.Service = svc
	w.workCtx = context.Background()
	svc.activityTasks = append(svc.activityTasks, activityTask("cyclic", time.Now()))
	polled, ok, err := w.pollActivityTask(context.Background())
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	done := make(chan struct{})
	go func() {
		w.handleActivityTask(polled)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the activity's report did not end")
	}
	if len(svc.failed) != 1 {
		t.Fatalf("%d failures reported (%v), want 1", len(svc.failed), svc.reports)
	}
	f := svc.failed[0]
	want := "the error (*fmt.wrapError) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *workerrt.selfWrapping returns that very error"
	if !strings.HasPrefix(f.GetMessage(), want) || f.GetApplicationFailureInfo().GetType() != "wrapError" || f.GetCause() != nil {
		t.Errorf("reported %q (type %q, cause %v), want a message that starts %q, of type wrapError, without cause",
			f.GetMessage(), f.GetApplicationFailureInfo().GetType(), f.GetCause(), want)
	}
}
