package compat

import (
	"context"
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
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	ourtestsuite "github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Local activities on both SDKs: the scenarios of
// localactivities_workflows_test.go run on a worker of each, and in this
// SDK's test environment; the histories must record the same commands and
// the same markers (apart from times), and each must replay on the other
// SDK. Workers of both then share a task queue, and a run moves from one
// SDK's worker to the other's while its local activity runs.

// localActivityTaskTimeout is the runs' workflow task timeout: shorter than
// the backoffs of 1.5s (waited out on timers) and the local activity of
// 2.5s of "long" (which the worker keeps alive with heartbeats).
const localActivityTaskTimeout = time.Second

// scenarioTaskTimeout is a scenario's workflow task timeout in the
// comparison of histories: "long" runs with 2s, so that its heartbeat
// (at 1.6s) has 400ms to reach the server on a loaded machine; at 1s both
// SDKs' workers now and then heartbeat too late there.
func scenarioTaskTimeout(name string) time.Duration {
	if name == "long" {
		return 2 * time.Second
	}
	return localActivityTaskTimeout
}

func newOurLocalActivityWorker(c client.Client, tq, identity string) worker.Worker {
	w := worker.New(c, tq, worker.Options{Identity: identity})
	w.RegisterWorkflowWithOptions(localActivitiesOurs, workflow.RegisterOptions{Name: localActivitiesName})
	return w
}

func newOfficialLocalActivityWorker(oc officialclient.Client, tq, identity string) officialworker.Worker {
	w := officialworker.New(oc, tq, officialworker.Options{Identity: identity})
	w.RegisterWorkflowWithOptions(localActivitiesOfficial, officialworkflow.RegisterOptions{Name: localActivitiesName})
	return w
}

func replayOnTheOfficialSDK(h *historypb.History) error {
	r := officialworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(localActivitiesOfficial, officialworkflow.RegisterOptions{Name: localActivitiesName})
	return r.ReplayWorkflowHistory(quiet{}, h)
}

func replayHere(h *historypb.History) error {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(localActivitiesOurs, workflow.RegisterOptions{Name: localActivitiesName})
	return r.ReplayWorkflowHistory(nil, h)
}

// runLocalActivityScenarios runs every scenario at once on the task queue,
// checks each result, and returns each run's history by scenario.
func runLocalActivityScenarios(t *testing.T, c client.Client, tq string) map[string]*historypb.History {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ids := map[string]string{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, s := range localActivityScenarios {
		id := fmt.Sprintf("%s-%s-%d", tq, s.name, time.Now().UnixNano())
		ids[s.name] = id
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq, WorkflowTaskTimeout: scenarioTaskTimeout(s.name)},
			localActivitiesName, s.name)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			var got string
			err := run.Get(ctx, &got)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("%s: %v", s.name, err)
			case got != s.want:
				t.Errorf("%s: the workflow returned %q, want %q", s.name, got, s.want)
			}
		})
	}
	wg.Wait()
	histories := map[string]*historypb.History{}
	for name, id := range ids {
		histories[name] = fullHistory(t, c, id)
	}
	return histories
}

// runLocalActivityScenariosInTheTestEnvironment runs every scenario in
// this SDK's test environment and returns each run's history.
func runLocalActivityScenariosInTheTestEnvironment(t *testing.T) map[string]*historypb.History {
	t.Helper()
	histories := map[string]*historypb.History{}
	for _, s := range localActivityScenarios {
		var suite ourtestsuite.WorkflowTestSuite
		env := suite.NewTestWorkflowEnvironment()
		env.SetStartWorkflowOptions(client.StartWorkflowOptions{WorkflowTaskTimeout: scenarioTaskTimeout(s.name)})
		env.RegisterWorkflowWithOptions(localActivitiesOurs, workflow.RegisterOptions{Name: localActivitiesName})
		env.ExecuteWorkflow(localActivitiesName, s.name)
		var got string
		if err := env.GetWorkflowResult(&got); err != nil || got != s.want {
			t.Errorf("%s in the test environment: %q, %v; want %q", s.name, got, err, s.want)
		}
		h, err := env.GetHistory()
		if err != nil {
			t.Fatal(err)
		}
		histories[s.name] = h
	}
	return histories
}

// recordedCommands is what a history records of the workflow's commands,
// one line an event, without the workflow task events and the times;
// tasks counts the completed workflow tasks. A workflow task that failed
// or timed out is an error.
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
			lines = append(lines, describeLocalActivityMarker(t, ev))
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

// describeLocalActivityMarker shows a LocalActivity marker: its name,
// its data but the replay time, its result and its failure.
func describeLocalActivityMarker(t *testing.T, ev *historypb.HistoryEvent) string {
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

// TestLocalActivitiesRecordTheSameHistoriesOnBothSDKs runs the scenarios
// on a worker of each SDK and in the test environment: the histories
// record the same commands and markers, as many workflow tasks on both workers (but
// for "long", whose heartbeats depend on timing), and each replays on the
// other SDK.
func TestLocalActivitiesRecordTheSameHistoriesOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	officialTQ, oursTQ := fmt.Sprintf("la-official-%d", stamp), fmt.Sprintf("la-ours-%d", stamp)
	ow := newOfficialLocalActivityWorker(oc, officialTQ, "official-worker")
	w := newOurLocalActivityWorker(c, oursTQ, "durable-go-worker")
	startBoth(t, w, ow)
	byOfficial := runLocalActivityScenarios(t, c, officialTQ)
	byOurs := runLocalActivityScenarios(t, c, oursTQ)
	byTestEnv := runLocalActivityScenariosInTheTestEnvironment(t)
	for _, s := range localActivityScenarios {
		t.Run(s.name, func(t *testing.T) {
			want, officialTasks := recordedCommands(t, byOfficial[s.name])
			got, ourTasks := recordedCommands(t, byOurs[s.name])
			if s.name == "parallel" {
				// Markers are recorded as the local activities finish, 50ms
				// apart: a loaded machine may swap two.
				slices.Sort(want)
				slices.Sort(got)
			}
			if !slices.Equal(got, want) {
				t.Errorf("our worker recorded\n  %s\nthe official worker\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if s.name == "long" {
				if officialTasks < 2 || ourTasks < 2 {
					t.Errorf("a local activity of 2.5s with a task timeout of 2s: %d workflow tasks here, %d on the official SDK; want at least 2 (a heartbeat)", ourTasks, officialTasks)
				}
			} else if ourTasks != officialTasks {
				t.Errorf("%d workflow tasks here, %d on the official SDK", ourTasks, officialTasks)
			}
			if err := replayOnTheOfficialSDK(byOurs[s.name]); err != nil {
				t.Errorf("the official replayer rejects our worker's history: %v", err)
			}
			if h := byTestEnv[s.name]; h != nil {
				inTestEnv, _ := recordedCommands(t, h)
				if s.name == "parallel" {
					slices.Sort(inTestEnv)
				}
				if !slices.Equal(inTestEnv, want) {
					t.Errorf("the test environment recorded\n  %s\nthe official worker\n  %s", strings.Join(inTestEnv, "\n  "), strings.Join(want, "\n  "))
				}
				if err := replayOnTheOfficialSDK(h); err != nil {
					t.Errorf("the official replayer rejects the test environment's history: %v", err)
				}
			}
			if err := replayHere(byOfficial[s.name]); err != nil {
				t.Errorf("the official worker's history does not replay here: %v", err)
			}
		})
	}
}
