package workerrt

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// debugLines keeps the debug lines logged.
type debugLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *debugLines) Debug(msg string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(fmt.Sprintln(append([]any{msg}, kv...)...)))
}
func (l *debugLines) Info(string, ...any)  {}
func (l *debugLines) Warn(string, ...any)  {}
func (l *debugLines) Error(string, ...any) {}

func (l *debugLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// With verbose logging, every empty poll and every task a poll brings is
// a debug line, naming the task's workflow and activity; without it, none.
func TestVerboseLogging(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		SetVerboseLogging(verbose)
		logs := &debugLines{}
		var polls atomic.Int32
		var group taskGroup
		ctx, cancel := context.WithCancel(context.Background())
		handled := make(chan struct{}, 10)
		g := &pollGroup[*workflowservice.PollActivityTaskQueueResponse]{what: "activity", kind: enumspb.TASK_QUEUE_KIND_NORMAL,
			slots: newSlots(NewFixedSlots(1), "tq", "me", nil), pollers: fixedPollers(1), logger: logs, running: &group,
			poll: func(ctx context.Context) (*workflowservice.PollActivityTaskQueueResponse, bool, error) {
				if polls.Add(1) == 1 {
					return nil, false, nil // expired empty
				}
				return &workflowservice.PollActivityTaskQueueResponse{
					WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "order-7", RunId: "run-1"},
					ActivityType:      &commonpb.ActivityType{Name: "Charge"}, Attempt: 2,
				}, true, nil
			},
			// Never blocks: the poller goes on bringing tasks until the
			// test cancels it, and a handler stuck on a full channel
			// would keep group.Wait from returning.
			handle: func(*workflowservice.PollActivityTaskQueueResponse) {
				select {
				case handled <- struct{}{}:
				default:
				}
			},
		}
		done := make(chan struct{})
		go func() { g.run(ctx); close(done) }()
		select {
		case <-handled:
		case <-time.After(10 * time.Second):
			t.Fatal("no task handled")
		}
		cancel()
		<-done
		group.Wait()
		text := logs.text()
		if !verbose {
			if text != "" {
				t.Errorf("debug lines without verbose logging:\n%s", text)
			}
			continue
		}
		for _, want := range []string{"long poll expired without a task TaskKind activity",
			"processing a task TaskKind activity", "WorkflowID order-7 RunID run-1 Attempt 2 ActivityType Charge"} {
			if !strings.Contains(text, want) {
				t.Errorf("no %q in the debug lines:\n%s", want, text)
			}
		}
	}
	SetVerboseLogging(false)
}
