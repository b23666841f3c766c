package worker_test

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strconv"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/historyfuzz"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

// The history fuzz targets feed damaged histories to the replayer, which
// runs them through the workflow engine with the fixtures' workflow code.
// Whatever the damage, a replay ends — in a result or in an error that
// names the event it is about — without panicking, hanging or leaving a
// goroutine behind.
//
// The seed corpus (every fixture undamaged, and each kind of damage) runs
// with plain go test. To fuzz, for a bounded time:
//
//	go test -run '^$' -fuzz FuzzReplayHistory -fuzztime 10m ./worker
//	go test -run '^$' -fuzz FuzzReplayHistoryPages -fuzztime 10m ./worker

// replayTimeLimit bounds one replay: the fixtures replay in milliseconds,
// and a workflow stuck in code is stopped by deadlock detection in one
// second.
const replayTimeLimit = 10 * time.Second

var quietLogger = log.NewStructuredLogger(slog.New(slog.DiscardHandler))

func addHistorySeeds(f *testing.F, n int) {
	for i := range n {
		f.Add(uint8(i), []byte{})
		for _, edits := range historyfuzz.SeedEdits {
			f.Add(uint8(i), edits)
		}
	}
}

func FuzzReplayHistory(f *testing.F) {
	histories := historyfuzz.LoadFixtures(f, fixtures)
	addHistorySeeds(f, len(histories))
	r := newReplayer()
	f.Fuzz(func(t *testing.T, which uint8, edits []byte) {
		before := runtime.NumGoroutine()
		events := historyfuzz.Edit(histories[int(which)%len(histories)].GetEvents(), edits)
		var err error
		historyfuzz.RunBounded(t, replayTimeLimit, func() {
			err = r.ReplayWorkflowHistory(quietLogger, &historypb.History{Events: events})
		})
		if len(edits) == 0 && err != nil {
			t.Fatalf("an undamaged fixture must replay: %v", err)
		}
		historyfuzz.RequireEventInError(t, err)
		historyfuzz.RequireNoGoroutineLeak(t, before)
	})
}

// FuzzReplayHistoryPages replays through the paging path a worker uses,
// from a server whose pages are damaged too: cut at odd places, empty,
// lost, repeated, or ending early.
func FuzzReplayHistoryPages(f *testing.F) {
	histories := historyfuzz.LoadFixtures(f, fixtures)
	for i := range histories {
		for _, paging := range []uint16{0x0001, 0x0003, 0x0102, 0x0202, 0x0302, 0x0402, 0x0502, 0x0602} {
			f.Add(uint8(i), paging, []byte{})
		}
		f.Add(uint8(i), uint16(0x0003), []byte{historyfuzz.OpDrop, 0, 4, historyfuzz.OpRenumber})
	}
	r := newReplayer()
	f.Fuzz(func(t *testing.T, which uint8, paging uint16, edits []byte) {
		before := runtime.NumGoroutine()
		events := historyfuzz.Edit(histories[int(which)%len(histories)].GetEvents(), edits)
		server := &pagingServer{events: events, pageSize: int(paging&0xff) % 16, fault: pageFault(paging>>8) % numPageFaults}
		ctx, cancel := context.WithTimeout(context.Background(), replayTimeLimit/2)
		defer cancel()
		var err error
		historyfuzz.RunBounded(t, replayTimeLimit, func() {
			err = r.ReplayWorkflowExecution(ctx, server, quietLogger, "default", workflow.Execution{ID: "fuzz", RunID: "fuzz-run"})
		})
		if len(edits) == 0 && server.fault == pageFaultNone && server.pageSize > 0 && err != nil {
			t.Fatalf("an undamaged fixture must replay page by page: %v", err)
		}
		if err != nil && server.fault != pageFaultNone && errors.Is(err, errPageFault) {
			return // the page's loss is the error, and it says so
		}
		historyfuzz.RequireEventInError(t, err)
		historyfuzz.RequireNoGoroutineLeak(t, before)
	})
}

// pageFault is how a pagingServer misbehaves.
type pageFault uint8

const (
	pageFaultNone     pageFault = iota
	pageFaultError              // the second page cannot be read
	pageFaultEmpty              // every other page is empty, with a token to the rest
	pageFaultRepeat             // the second page's token leads back to the first page
	pageFaultEndSoon            // the last page is missing: the token of the one before is empty
	pageFaultBadToken           // the server does not know the token it gave
	pageFaultLoop               // from the second page on, every token leads back to the first page
	numPageFaults
)

var errPageFault = errors.New("the history page is unavailable")

// pagingServer serves events pageSize at a time (all at once when 0); the
// page token is the index of the page's first event.
type pagingServer struct {
	workflowservice.WorkflowServiceClient // only GetWorkflowExecutionHistory is called
	events                                []*historypb.HistoryEvent
	pageSize                              int
	fault                                 pageFault
	calls                                 int
}

func (s *pagingServer) GetWorkflowExecutionHistory(ctx context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.calls++
	if req.GetWaitNewEvent() || req.GetHistoryEventFilterType() == enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT {
		return nil, serviceerror.NewInvalidArgument("the replayer asked for a filtered or waiting read")
	}
	start := 0
	if tok := req.GetNextPageToken(); len(tok) > 0 {
		n, err := strconv.Atoi(string(tok))
		if err != nil || s.fault == pageFaultBadToken {
			return nil, serviceerror.NewInvalidArgument("invalid NextPageToken")
		}
		start = n
	}
	if s.fault == pageFaultError && s.calls == 2 {
		return nil, errPageFault
	}
	size := s.pageSize
	if size == 0 {
		size = len(s.events)
	}
	if s.fault == pageFaultEmpty && s.calls%2 == 1 && start < len(s.events) {
		return &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: []byte(strconv.Itoa(start))}, nil
	}
	end := min(start+size, len(s.events))
	resp := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: s.events[start:end]}}
	next := end
	if (s.fault == pageFaultRepeat && s.calls == 2) || (s.fault == pageFaultLoop && s.calls >= 2) {
		next = 0
	}
	if end < len(s.events) && !(s.fault == pageFaultEndSoon && end+size >= len(s.events)) {
		resp.NextPageToken = []byte(strconv.Itoa(next))
	}
	return resp, nil
}
