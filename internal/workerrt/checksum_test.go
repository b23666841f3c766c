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

// Polls and completions carry the binary checksum only when the server
// has no build-ID versioning (SendBinaryChecksum), as go.temporal.io/sdk
// v1.51 sends them.
func TestBinaryChecksumGoesOnlyToOldServers(t *testing.T) {
	for _, send := range []bool{false, true} {
		svc := &checksumService{memoryService: &memoryService{}}
		w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
			FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
			BinaryChecksum: "sum-1", SendBinaryChecksum: send})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := w.pollWorkflowTask(context.Background(), &taskqueuepb.TaskQueue{Name: "tq"}); err != nil {
			t.Fatal(err)
		}
		w.handleWorkflowTask(workflowTask("r1", "Loop", firstEvents("Loop")))
		want := ""
		if send {
			want = "sum-1"
		}
		if len(svc.polled) != 1 || svc.polled[0] != want || len(svc.completed) != 1 || svc.completed[0] != want {
			t.Fatalf("send %v: polls sent %q, completions %q; want [%s] for both", send, svc.polled, svc.completed, want)
		}
	}
}
