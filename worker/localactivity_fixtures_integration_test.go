package worker_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// TestOurWorkerRecordsWhatTheOfficialSDKRecordedForLocalActivities runs
// each scenario of the local activity fixtures (testdata/histories/
// localactivity-*.json, recorded with go.temporal.io/sdk) on this SDK's
// worker, with the fixtures' workflow task timeout of 1s, and compares
// the two histories: the same commands, the same markers (data but the
// replay time, result, failure), as many workflow tasks (but for "long",
// whose heartbeats depend on timing: it runs here with a 2s task timeout,
// so that its heartbeat has 400ms to reach the server on a loaded
// machine, and needs at least 2 tasks here, 3 in the fixture). So a local
// activity's failure with no retry left records Backoff -1; a canceled or
// timed-out attempt whose code ignores its context ends at once, without
// heartbeats; an attempt canceled during a backoff timer is recorded.
func TestOurWorkerRecordsWhatTheOfficialSDKRecordedForLocalActivities(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(LocalActivitiesWorkflow) })
	var fixtures []manifestEntry
	for _, m := range loadManifest(t) {
		if strings.HasPrefix(m.File, "localactivity-") {
			fixtures = append(fixtures, m)
		}
	}
	if len(fixtures) < 9 {
		t.Fatalf("%d local activity fixtures in the manifest, want 9", len(fixtures))
	}
	// All at once: most of them wait on timers or sleeping local activities.
	ours := make([]*historypb.History, len(fixtures))
	var wg sync.WaitGroup
	for i, m := range fixtures {
		scenario := strings.TrimSuffix(strings.TrimPrefix(m.File, "localactivity-"), ".json")
		taskTimeout := time.Second
		if scenario == "long" {
			taskTimeout = 2 * time.Second
		}
		run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, scenario), TaskQueue: taskQueue,
			WorkflowTaskTimeout: taskTimeout}, LocalActivitiesWorkflow, scenario)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if err := run.Get(testCtx(t), nil); err != nil {
				t.Errorf("%s: %v", scenario, err)
				return
			}
			ours[i] = serverHistory(t, c, run)
		})
	}
	wg.Wait()
	for i, m := range fixtures {
		t.Run(m.File, func(t *testing.T) {
			if ours[i] == nil {
				t.Skip("the run failed")
			}
			want, officialTasks := recordedCommands(t, readHistory(t, m.File))
			got, ourTasks := recordedCommands(t, ours[i])
			if m.File == "localactivity-parallel.json" {
				// Markers are recorded as the local activities finish, 50ms
				// apart: a loaded machine may swap two.
				slices.Sort(want)
				slices.Sort(got)
			}
			if !slices.Equal(got, want) {
				t.Errorf("this SDK recorded\n  %s\ngo.temporal.io/sdk recorded\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if m.File == "localactivity-long.json" {
				if ourTasks < 2 || officialTasks < 3 {
					t.Errorf("%d workflow tasks here, %d recorded; want at least 2 here (a heartbeat) and 3 recorded", ourTasks, officialTasks)
				}
				checkHeartbeatTimes(t, "this SDK", ours[i])
				checkHeartbeatTimes(t, "go.temporal.io/sdk", readHistory(t, m.File))
			} else if ourTasks != officialTasks {
				t.Errorf("%d workflow tasks here, %d recorded", ourTasks, officialTasks)
			}
		})
	}
}

// checkHeartbeatTimes checks when the worker that wrote h completed the
// workflow tasks that waited for a local activity with no commands (its
// heartbeats): at 80% of the run's workflow task timeout after each
// started, as go.temporal.io/sdk does; the machine's load may delay them a
// little.
func checkHeartbeatTimes(t *testing.T, who string, h *historypb.History) {
	t.Helper()
	var timeout time.Duration
	var started time.Time
	var took []time.Duration
	for _, ev := range h.GetEvents() {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			timeout = ev.GetWorkflowExecutionStartedEventAttributes().GetWorkflowTaskTimeout().AsDuration()
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			started = ev.GetEventTime().AsTime()
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			took = append(took, ev.GetEventTime().AsTime().Sub(started))
		}
	}
	if len(took) < 2 {
		return // no heartbeat: the count of tasks says so
	}
	// The last task is the one that recorded the outcome.
	for _, d := range took[:len(took)-1] {
		if d < timeout*75/100 || d > timeout*95/100 {
			t.Errorf("%s: workflow tasks took %v; want about %v for all but the last (heartbeats at 80%% of the %v task timeout)", who, took, timeout*8/10, timeout)
			return
		}
	}
}

// recordedCommands is what a history records of the workflow's commands,
// one line an event, without the workflow task events and times; tasks
// counts the completed workflow tasks. A workflow task that failed or
// timed out is an error.
func recordedCommands(t *testing.T, h *historypb.History) (lines []string, tasks int) {
	t.Helper()
	for _, ev := range h.GetEvents() {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			tasks++
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
			t.Errorf("event %d: a workflow task failed or timed out: %v", ev.GetEventId(), ev)
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			lines = append(lines, describeMarker(t, ev))
		case enumspb.EVENT_TYPE_TIMER_STARTED:
			a := ev.GetTimerStartedEventAttributes()
			lines = append(lines, fmt.Sprintf("TimerStarted %s %v", a.GetTimerId(), a.GetStartToFireTimeout().AsDuration()))
		case enumspb.EVENT_TYPE_TIMER_FIRED:
			lines = append(lines, "TimerFired "+ev.GetTimerFiredEventAttributes().GetTimerId())
		case enumspb.EVENT_TYPE_TIMER_CANCELED:
			lines = append(lines, "TimerCanceled "+ev.GetTimerCanceledEventAttributes().GetTimerId())
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			lines = append(lines, "Completed "+payloadsText(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult()))
		default:
			lines = append(lines, ev.GetEventType().String())
		}
	}
	return lines, tasks
}

// describeMarker shows a marker: its name, detail keys, data but the
// replay time, result and failure.
func describeMarker(t *testing.T, ev *historypb.HistoryEvent) string {
	t.Helper()
	a := ev.GetMarkerRecordedEventAttributes()
	var data map[string]any
	if p := a.GetDetails()["data"].GetPayloads(); len(p) == 1 {
		if err := json.Unmarshal(p[0].GetData(), &data); err != nil {
			t.Errorf("event %d: marker data %q: %v", ev.GetEventId(), p[0].GetData(), err)
		}
	}
	delete(data, "ReplayTime")
	var keys []string
	for k := range a.GetDetails() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := fmt.Sprintf("Marker %s details=%v data=%v", a.GetMarkerName(), keys, data)
	if r, ok := a.GetDetails()["result"]; ok {
		s += " result=" + payloadsText(r)
	}
	if f := a.GetFailure(); f != nil {
		// The text format spaces its output at random; compare the words.
		s += " failure=" + strings.Join(strings.Fields(f.String()), " ")
	}
	return s
}

func payloadsText(p *commonpb.Payloads) string {
	var parts []string
	for _, pl := range p.GetPayloads() {
		parts = append(parts, string(pl.GetMetadata()["encoding"])+":"+string(pl.GetData()))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
