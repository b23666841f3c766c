package workerrt

import (
	"os"
	"path/filepath"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// BenchmarkDecodePollResponse decodes a first workflow task's poll
// response on a new goroutine, as a poll does, with and without growing
// the goroutine's stack first.
func BenchmarkDecodePollResponse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "histories", "sequential3.json"))
	if err != nil {
		b.Fatal(err)
	}
	var history historypb.History
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &history); err != nil {
		b.Fatal(err)
	}
	raw, err := proto.Marshal(&workflowservice.PollWorkflowTaskQueueResponse{History: &history, TaskToken: make([]byte, 200)})
	if err != nil {
		b.Fatal(err)
	}
	for _, grow := range []bool{false, true} {
		name := map[bool]string{false: "fresh stack", true: "grown stack"}[grow]
		b.Run(name, func(b *testing.B) {
			failed := make(chan error)
			for b.Loop() {
				go func() {
					if grow {
						growStack()
					}
					var resp workflowservice.PollWorkflowTaskQueueResponse
					failed <- proto.Unmarshal(raw, &resp)
				}()
				if err := <-failed; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
