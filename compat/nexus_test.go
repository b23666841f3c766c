package compat

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	officialclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporalnexus"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// nexusServiceName is the service the official handler worker serves.
const nexusServiceName = "compat-nexus"

// TestNexusCallerWorkflowIsOneSource: the Official half of
// nexus_workflows_test.go, with the SDK renamed, is its Ours half.
func TestNexusCallerWorkflowIsOneSource(t *testing.T) {
	src, err := os.ReadFile("nexus_workflows_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// NexusCallerWorkflowOurs")
	split := strings.Index(code, "// NexusCallerWorkflowOfficial")
	if start < 0 || split < start {
		t.Fatal("nexus_workflows_test.go: the Ours half must come first, then the Official half")
	}
	oursHalf, officialHalf := code[start:split], code[split:]
	renamed := strings.NewReplacer("officialtemporal.", "ourstemporal.", "official.", "ours.", "Official", "Ours").Replace(officialHalf)
	if strings.TrimSpace(renamed) != strings.TrimSpace(oursHalf) {
		t.Error("the two halves of nexus_workflows_test.go differ in more than the SDK they use; make them one source again")
	}
}

// NexusHandlerWorkflow is the workflow behind the handler's "run"
// operation: it answers at once, or, given "wait", waits until canceled.
func NexusHandlerWorkflow(ctx officialworkflow.Context, input string) (string, error) {
	if input == "wait" {
		return "", officialworkflow.Sleep(ctx, time.Hour)
	}
	return "ran: " + input, nil
}

// officialNexusService is the handler's service, on go.temporal.io/sdk: a
// synchronous operation, one that fails, one the handler refuses, and a
// workflow-run operation.
func officialNexusService(t *testing.T) *nexus.Service {
	svc := nexus.NewService(nexusServiceName)
	err := svc.Register(
		nexus.NewSyncOperation("echo", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "echo: " + in, nil
		}),
		nexus.NewSyncOperation("fail", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewOperationFailedErrorf("no stock for %q", in)
		}),
		nexus.NewSyncOperation("refuse", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "cannot take %q", in)
		}),
		temporalnexus.NewWorkflowRunOperation("run", NexusHandlerWorkflow,
			func(_ context.Context, _ string, o nexus.StartOperationOptions) (officialclient.StartWorkflowOptions, error) {
				return officialclient.StartWorkflowOptions{ID: "nexus-handler-" + o.RequestID}, nil
			}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// createNexusEndpoint creates an endpoint that sends its operations to the
// worker of namespace and taskQueue, and deletes it when the test ends.
func createNexusEndpoint(t *testing.T, oc officialclient.Client, name, namespace, taskQueue string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := oc.OperatorService().CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: name,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: namespace, TaskQueue: taskQueue}}},
	}})
	if err != nil {
		t.Fatalf("creating the Nexus endpoint %q: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = oc.OperatorService().DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{
			Id: resp.GetEndpoint().GetId(), Version: resp.GetEndpoint().GetVersion()})
	})
}

// TestNexusCallerSideMatchesTheOfficialSDK runs one caller workflow, on a
// worker of each SDK, against a handler served by go.temporal.io/sdk's
// worker behind an endpoint on the dev server: a synchronous result, a
// workflow-run result, a failed operation, a refused one, a timed-out one,
// and operations canceled by their context with each cancellation type.
// What the workflow sees (results, error chains, tokens, the execution
// future) must be the same on both SDKs; the summary and the event groups
// go with the commands on both; and the history each SDK's caller wrote must
// replay on the other SDK's replayer.
func TestNexusCallerSideMatchesTheOfficialSDK(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	handlerQueue := fmt.Sprintf("nexus-handler-%d", stamp)
	oursQueue, officialQueue := fmt.Sprintf("nexus-caller-ours-%d", stamp), fmt.Sprintf("nexus-caller-official-%d", stamp)
	endpoint := fmt.Sprintf("compat-endpoint-%d", stamp)
	createNexusEndpoint(t, oc, endpoint, testharness.Namespace(t), handlerQueue)

	hw := officialworker.New(oc, handlerQueue, officialworker.Options{})
	hw.RegisterNexusService(officialNexusService(t))
	hw.RegisterWorkflowWithOptions(NexusHandlerWorkflow, officialworkflow.RegisterOptions{Name: "NexusHandlerWorkflow"})
	if err := hw.Start(); err != nil {
		t.Fatal(err)
	}
	defer hw.Stop()
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(NexusCallerWorkflowOurs, workflow.RegisterOptions{Name: "NexusCallerWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(NexusCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "NexusCallerWorkflow"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	oursReplayer := worker.NewWorkflowReplayer()
	oursReplayer.RegisterWorkflowWithOptions(NexusCallerWorkflowOurs, workflow.RegisterOptions{Name: "NexusCallerWorkflow"})
	officialReplayer := officialworker.NewWorkflowReplayer()
	officialReplayer.RegisterWorkflowWithOptions(NexusCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "NexusCallerWorkflow"})
	var replayMu sync.Mutex // a replayer replays one history at a time

	scenarios := []struct {
		name string
		// want are parts the description must hold (on both SDKs): the
		// test's own check that the scenario happened as it means.
		want []string
	}{
		{"sync", []string{`result "echo: hi", error none; execution: token set false, error none`}},
		{"workflow", []string{`result "ran: hi", error none; execution: token set true, error none`}},
		{"fail", []string{"NexusOperationError", "ApplicationError", "no stock"}},
		{"refuse", []string{"NexusOperationError", "HandlerError{BAD_REQUEST"}},
		{"timeout", []string{"NexusOperationError", "TimeoutError"}},
		{"abandon", []string{"started: token set true, error none", `error CanceledError{"canceled"}`}},
		{"try-cancel", []string{"started: token set true, error none", `error CanceledError{"canceled"}`}},
		{"wait-requested", []string{"started: token set true, error none", `error CanceledError{"canceled"}`}},
		{"wait-completed", []string{"started: token set true, error none", "NexusOperationError", "CanceledError"}},
		{"canceled-unsent", []string{`second: CanceledError{"canceled"}; result "", error CanceledError{"canceled"}; execution: token set false, error CanceledError{"canceled"}`}},
	}
	// The scenarios run in parallel, in a group that ends before the
	// workers stop.
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				var descriptions [2]string
				var histories [2]*historypb.History
				var wg sync.WaitGroup
				for i, queue := range []string{oursQueue, officialQueue} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						descriptions[i], histories[i] = runNexusCaller(t, c, queue, endpoint, sc.name)
					}()
				}
				wg.Wait()
				if t.Failed() {
					return
				}
				ours, official := descriptions[0], descriptions[1]
				t.Logf("the official SDK's caller saw: %s", official)
				if ours != official {
					t.Errorf("the workflows saw different things:\n ours:     %s\n official: %s", ours, official)
				}
				for _, want := range sc.want {
					if !strings.Contains(official, want) {
						t.Errorf("the official SDK's caller saw %s, without %q: the scenario did not happen as meant", official, want)
					}
				}
				unsent := sc.name == "canceled-unsent" // no schedule event, no groups
				if o, of := nexusSummaries(histories[0]), nexusSummaries(histories[1]); o != of || (of == "") != unsent {
					t.Errorf("the schedule commands' summaries differ: ours %q, official %q", o, of)
				}
				if o, of := groupedEvents(histories[0]), groupedEvents(histories[1]); strings.Join(o, "\n") != strings.Join(of, "\n") || (len(of) == 0) != unsent {
					t.Errorf("the events with event groups differ:\n ours:\n  %s\n official:\n  %s", strings.Join(o, "\n  "), strings.Join(of, "\n  "))
				}
				replayMu.Lock()
				defer replayMu.Unlock()
				if err := oursReplayer.ReplayWorkflowHistory(nil, histories[1]); err != nil {
					t.Errorf("this SDK's replayer fails on the official SDK's history: %v", err)
				}
				if err := officialReplayer.ReplayWorkflowHistory(quiet{}, histories[0]); err != nil {
					t.Errorf("the official replayer fails on this SDK's history: %v", err)
				}
			})
		}
	})
}

// runNexusCaller runs NexusCallerWorkflow on taskQueue and returns what it
// described and its history.
func runNexusCaller(t *testing.T, c client.Client, taskQueue, endpoint, scenario string) (string, *historypb.History) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%s", taskQueue, scenario)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "NexusCallerWorkflow", endpoint, scenario)
	if err != nil {
		t.Errorf("starting %s: %v", id, err)
		return "", nil
	}
	var described string
	if err := run.Get(ctx, &described); err != nil {
		t.Errorf("%s: %v", id, err)
		return "", nil
	}
	return described, runHistoryOf(t, c, id)
}

// runHistoryOf is the workflow's history, read without t.Fatal (the
// caller runs in a goroutine of its own).
func runHistoryOf(t *testing.T, c client.Client, id string) *historypb.History {
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Errorf("history of %s: %v", id, err)
			return h
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// nexusSummaries are the summaries of a history's NexusOperationScheduled
// events, as recorded (encoded payload data).
func nexusSummaries(h *historypb.History) string {
	var out []string
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED {
			out = append(out, payloadText(ev.GetUserMetadata().GetSummary()))
		}
	}
	return strings.Join(out, ",")
}

func payloadText(p *commonpb.Payload) string { return string(p.GetData()) }
