package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/historyfuzz"
)

// FuzzRun feeds damaged histories to a Run the three ways a
// worker and a replayer do: whole, task by task as a sticky cache does,
// and page by page. Its workflow is a mirror: at each workflow task it
// issues the commands history recorded for that task, so that the engine
// meets history disagreeing with itself in every way the damage allows,
// through every command kind, marker and SDK flag, without workflow code
// of its own getting in the way. Whatever the damage, each task ends in a
// result or an error that names its event, in bounded time.
//
//	go test -run '^$' -fuzz FuzzRun -fuzztime 10m ./internal/engine
func FuzzRun(f *testing.F) {
	histories := historyfuzz.LoadFixtures(f, "../../testdata/histories")
	for i := range histories {
		for mode := range uint8(numDeliveries) {
			f.Add(uint8(i), mode, []byte{})
			for _, edits := range historyfuzz.SeedEdits {
				f.Add(uint8(i), mode|uint8(len(edits))<<2, edits)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which, mode uint8, edits []byte) {
		before := runtime.NumGoroutine()
		events := historyfuzz.Edit(histories[int(which)%len(histories)].GetEvents(), edits)
		how := delivery(mode) % numDeliveries
		var err error
		historyfuzz.RunBounded(t, 10*time.Second, func() { err = deliver(events, how, int(mode>>2)) })
		if len(edits) == 0 && err != nil {
			t.Fatalf("an undamaged fixture must replay (%v): %v", how, err)
		}
		historyfuzz.RequireEventInError(t, err)
		historyfuzz.RequireNoGoroutineLeak(t, before)
	})
}

// delivery is how the events reach the Run.
type delivery uint8

const (
	whole   delivery = iota // all of history in one task, as the replayer does
	byTask                  // one task at a time, as a worker with the run cached
	inPages                 // whole, in pages of a few events
	numDeliveries
)

func (d delivery) String() string { return [...]string{"whole", "task by task", "in pages"}[d] }

// deliver processes events as how says (pageSize for inPages) on a new
// Run of a mirror of them.
func deliver(events []*historypb.HistoryEvent, how delivery, pageSize int) error {
	wf := &mirror{events: events, activities: map[int64]*commands.Activity{}, timers: map[string]*commands.Timer{}}
	x := NewRun(&Options{
		DataConverter:        converter.GetDefaultDataConverter(),
		FailureConverter:     failure.GetDefaultFailureConverter(),
		SDKMetadataSupported: true,
		NewWorkflow:          func(string) (Workflow, error) { return wf, nil },
	})
	x.SetRun("fuzz", "fuzz-run")
	defer x.Close()
	ctx := context.Background()
	switch how {
	case byTask:
		from := 0
		for i, ev := range events {
			if ev.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED && i < len(events)-1 {
				continue
			}
			if _, err := x.ProcessTask(Task{Events: NewEventSource(ctx, events[from:i+1], nil, nil)}); err != nil {
				return err
			}
			from = i + 1
		}
		return nil
	case inPages:
		size := max(pageSize%8, 1)
		fetch := func(_ context.Context, token []byte) (*historypb.History, []byte, error) {
			start, _ := strconv.Atoi(string(token))
			end := min(start+size, len(events))
			var next []byte
			if end < len(events) {
				next = []byte(strconv.Itoa(end))
			}
			return &historypb.History{Events: events[start:end]}, next, nil
		}
		first, next, _ := fetch(ctx, nil)
		_, err := x.ProcessTask(Task{Events: NewEventSource(ctx, first.GetEvents(), next, fetch)})
		return err
	default:
		_, err := x.ProcessTask(Task{Events: NewEventSource(ctx, events, nil, nil)})
		return err
	}
}

// mirror is a Workflow whose code, at each workflow task, issues the
// commands that history recorded after that task's WorkflowTaskStarted.
// Like the SDK's dispatcher, it turns a panic of the engine's calls (a
// nondeterminism the markers found) into the error of Run.
type mirror struct {
	x          *Run
	events     []*historypb.HistoryEvent
	activities map[int64]*commands.Activity // by the event ID predicted for them
	timers     map[string]*commands.Timer   // by timer ID
}

func (m *mirror) Start(x *Run, _ *historypb.WorkflowExecutionStartedEventAttributes) error {
	m.x = x
	return nil
}

func (m *mirror) Run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	started := m.x.LastStartedEventID()
	i := 0
	for i < len(m.events) && !(m.events[i].GetEventId() == started && m.events[i].GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
		i++
	}
	for _, ev := range m.events[min(i+1, len(m.events)):] {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			return nil
		default:
			if err := m.issue(ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// issue makes the command that ev records, if it records one.
func (m *mirror) issue(ev *historypb.HistoryEvent) error {
	x := m.x
	data := func(p *commonpb.Payloads) func() (*commonpb.Payloads, error) {
		return func() (*commonpb.Payloads, error) { return p, nil }
	}
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		a := ev.GetActivityTaskScheduledEventAttributes()
		seq := x.NextSeq()
		act, err := x.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{
			ActivityId: a.GetActivityId(), ActivityType: a.GetActivityType(), TaskQueue: a.GetTaskQueue(), Input: a.GetInput(),
			StartToCloseTimeout: a.GetStartToCloseTimeout(), ScheduleToCloseTimeout: a.GetScheduleToCloseTimeout(),
		}, "", false, nil, func(*commonpb.Payloads, error) {})
		if err != nil {
			return err
		}
		m.activities[seq] = act
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED:
		if a := m.activities[ev.GetActivityTaskCancelRequestedEventAttributes().GetScheduledEventId()]; a != nil {
			a.Cancel()
		}
	case enumspb.EVENT_TYPE_TIMER_STARTED:
		t, err := x.StartTimer(ev.GetTimerStartedEventAttributes().GetStartToFireTimeout().AsDuration(), "", func(error) {})
		if err != nil {
			return err
		}
		m.timers[strconv.FormatInt(x.NextSeq()-1, 10)] = t
	case enumspb.EVENT_TYPE_TIMER_CANCELED:
		if t := m.timers[ev.GetTimerCanceledEventAttributes().GetTimerId()]; t != nil {
			t.Cancel()
		}
	case enumspb.EVENT_TYPE_MARKER_RECORDED:
		a := ev.GetMarkerRecordedEventAttributes()
		details := a.GetDetails()
		switch a.GetMarkerName() {
		case MarkerSideEffect:
			_, err := x.SideEffect(data(details[detailData]))
			return err
		case MarkerMutableSideEffect:
			var id string // the call's ID and its command's sequence number: "config_5"
			_ = converter.GetDefaultDataConverter().FromPayloads(details[detailSideEffectID], &id)
			if i := strings.LastIndexByte(id, '_'); i >= 0 {
				id = id[:i]
			}
			_, err := x.MutableSideEffect(id, data(details[detailData]), func(*commonpb.Payloads) bool { return false })
			return err
		case MarkerVersion:
			var changeID string
			var version int
			dc := converter.GetDefaultDataConverter()
			_ = dc.FromPayloads(details[detailChangeID], &changeID)
			_ = dc.FromPayloads(details[detailVersion], &version)
			x.GetVersion(changeID, DefaultVersion, version)
		}
	case enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
		sa := ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes()
		if _, version := sa.GetIndexedFields()[ChangeVersionSearchAttribute]; !version {
			x.UpsertSearchAttributes(sa)
		}
	case enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED:
		x.UpsertMemo(ev.GetWorkflowPropertiesModifiedEventAttributes().GetUpsertedMemo())
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		x.CloseWorkflow(Close{Result: ev.GetWorkflowExecutionCompletedEventAttributes().GetResult()})
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		x.CloseWorkflow(Close{Err: errors.New(ev.GetWorkflowExecutionFailedEventAttributes().GetFailure().GetMessage())})
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
		x.CloseWorkflow(Close{Canceled: true, Details: ev.GetWorkflowExecutionCanceledEventAttributes().GetDetails()})
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		a := ev.GetWorkflowExecutionContinuedAsNewEventAttributes()
		x.CloseWorkflow(Close{ContinueAsNew: &commandpb.ContinueAsNewWorkflowExecutionCommandAttributes{
			WorkflowType: a.GetWorkflowType(), TaskQueue: a.GetTaskQueue(), Input: a.GetInput(),
		}})
	}
	return nil
}

func (m *mirror) Signal(string, *commonpb.Payloads, *commonpb.Header) error { return nil }
func (m *mirror) Cancel()                                                   {}
func (m *mirror) Update(u *Update)                                          { u.Reject(errors.New("the mirror takes no update")) }
func (m *mirror) Query(string, *commonpb.Payloads, *commonpb.Header) (*commonpb.Payloads, error) {
	return nil, errors.New("the mirror answers no query")
}
func (m *mirror) StackTrace() string { return "" }
func (m *mirror) Close()             {}
