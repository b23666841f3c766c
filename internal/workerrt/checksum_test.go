//lint:file-ignore SA1019 the binary checksum is deprecated, and still sent.

package workerrt

import (
	"context"
	"testing"

	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// checksumService records the binary checksum of the workflow polls and
// completions it is sent.
type checksumService struct {
	*memoryService
	polled, completed []string
}

func (s *checksumService) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest, opts ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	s.polled = append(s.polled, req.GetBinaryChecksum())
	return s.memoryService.PollWorkflowTaskQueue(ctx, req, opts...)
}

func (s *checksumService) RespondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest, opts ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	s.completed = append(s.completed, req.GetBinaryChecksum())
	return s.memoryService.RespondWorkflowTaskCompleted(ctx, req, opts...)
}

// Polls always carry the binary checksum; completions only when the
// server has no build-ID versioning (BinaryChecksumOnCompletion), as
// go.temporal.io/sdk sends them.
func TestBinaryChecksumGoesWithPollsAndOldServersCompletions(t *testing.T) {
	for _, onCompletion := range []bool{false, true} {
		svc := &checksumService{memoryService: &memoryService{}}
		w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
			FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
			BinaryChecksum: "sum-1", BinaryChecksumOnCompletion: onCompletion})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := w.pollWorkflowTask(context.Background(), &taskqueuepb.TaskQueue{Name: "tq"}); err != nil {
			t.Fatal(err)
		}
		w.handleWorkflowTask(workflowTask("r1", "Loop", firstEvents("Loop")))
		wantCompleted := ""
		if onCompletion {
			wantCompleted = "sum-1"
		}
		if len(svc.polled) != 1 || svc.polled[0] != "sum-1" || len(svc.completed) != 1 || svc.completed[0] != wantCompleted {
			t.Fatalf("on completion %v: polls sent %q, completions %q; want [sum-1] and [%s]", onCompletion, svc.polled, svc.completed, wantCompleted)
		}
	}
}
