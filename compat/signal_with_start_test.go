package compat

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// signalWithStartSignal is the signal the callers send their targets.
const signalWithStartSignal = "sws-signal"

// TestSignalWithStartWorkflowIsOneSource: the Official half of
// signal_with_start_workflows_test.go, with the SDK renamed, is its Ours
// half.
func TestSignalWithStartWorkflowIsOneSource(t *testing.T) {
	src, err := os.ReadFile("signal_with_start_workflows_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// SignalWithStartTargetWorkflowOurs")
	split := strings.Index(code, "// SignalWithStartTargetWorkflowOfficial")
	if start < 0 || split < start {
		t.Fatal("signal_with_start_workflows_test.go: the Ours half must come first, then the Official half")
	}
	oursHalf, officialHalf := code[start:split], code[split:]
	renamed := strings.NewReplacer("officialtemporal.", "ourstemporal.", "official.", "ours.", "Official", "Ours").Replace(officialHalf)
	if strings.TrimSpace(renamed) != strings.TrimSpace(oursHalf) {
		t.Error("the two halves of signal_with_start_workflows_test.go differ in more than the SDK they use; make them one source again")
	}
}

// workflow.SignalWithStartWorkflow, on a worker of each SDK against the
// dev server (which runs it as a Nexus operation of its system endpoint):
// a target started by the call, one already running (which gets the
// signal), and one that closed, which the reuse policy refuses to start
// again. Both SDKs' callers see the
// same execution or error, their targets the same start input and signal,
// they send the same request, and each SDK's caller history replays on the
// other's replayer.
func TestSignalWithStartWorkflowMatchesTheOfficialSDK(t *testing.T) {
	c, oc := dialBoth(t)
	requireSignalWithStartServer(t, c)
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("sws-ours-%d", stamp), fmt.Sprintf("sws-official-%d", stamp)
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	w.RegisterWorkflowWithOptions(SignalWithStartTargetWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartTargetWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	ow.RegisterWorkflowWithOptions(SignalWithStartTargetWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartTargetWorkflow"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	oursReplayer := worker.NewWorkflowReplayer()
	oursReplayer.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	officialReplayer := officialworker.NewWorkflowReplayer()
	officialReplayer.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	var replayMu sync.Mutex // a replayer replays one history at a time

	scenarios := []struct {
		name string
		// want are parts of what the official SDK's caller must see (the
		// test's own check that the scenario happened as meant); target,
		// what its target must return.
		want   []string
		target string
	}{
		{"new", []string{"id <target>, run <run>, error none, a server error false"}, `started with "input of new", signaled "signal of new"`},
		{"running", []string{"id <target>, run <run>, error none, a server error false"}, `started with "pre", signaled "signal of running"`},
		{"reject-duplicate", []string{"id , run , error NexusOperationError", "WorkflowExecutionAlreadyStarted", "a server error true"}, `started with "pre", signaled "done"`},
	}
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				var outcomes [2]signalWithStartOutcome
				var wg sync.WaitGroup
				for i, queue := range []string{oursQueue, officialQueue} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						outcomes[i] = runSignalWithStart(t, context.Background(), c, queue, sc.name)
					}()
				}
				wg.Wait()
				if t.Failed() {
					return
				}
				ours, official := outcomes[0], outcomes[1]
				t.Logf("the official SDK's caller saw: %s", official.described)
				if ours.described != official.described {
					t.Errorf("the callers saw different things:\n ours:     %s\n official: %s", ours.described, official.described)
				}
				for _, want := range sc.want {
					if !strings.Contains(official.described, want) {
						t.Errorf("the official SDK's caller saw %s, without %q: the scenario did not happen as meant", official.described, want)
					}
				}
				if ours.target != official.target || official.target != sc.target {
					t.Errorf("the targets returned:\n ours:     %s\n official: %s\n want:     %s", ours.target, official.target, sc.target)
				}
				if o, of := eventTypes(ours.history.GetEvents()), eventTypes(official.history.GetEvents()); o != of {
					t.Errorf("the callers' histories differ:\n ours:     %s\n official: %s", o, of)
				}
				if ours.metadata != official.metadata {
					t.Errorf("the requests' payload metadata differ:\n ours:     %s\n official: %s", ours.metadata, official.metadata)
				}
				if !proto.Equal(ours.request, official.request) {
					t.Errorf("the requests differ:\n ours:     %s\n official: %s", protojson.Format(ours.request), protojson.Format(official.request))
				}
				replayMu.Lock()
				defer replayMu.Unlock()
				if err := oursReplayer.ReplayWorkflowHistory(nil, official.history); err != nil {
					t.Errorf("this SDK's replayer fails on the official SDK's history: %v", err)
				}
				if err := officialReplayer.ReplayWorkflowHistory(quiet{}, ours.history); err != nil {
					t.Errorf("the official replayer fails on this SDK's history: %v", err)
				}
			})
		}
	})
}

// signalWithStartOutcome is what one SDK's run of a scenario gave.
type signalWithStartOutcome struct {
	described string // the caller's description, IDs replaced by <target> and <run>
	target    string // the target's result
	history   *historypb.History
	request   *workflowservice.SignalWithStartWorkflowExecutionRequest // as scheduled, IDs replaced
	metadata  string                                                   // the scheduled input's metadata
}

// runSignalWithStart runs the caller of scenario on taskQueue, started
// with parent's values, its target too (started first, with "pre", unless the scenario is "new"; run to its
// end first for "reject-duplicate").
func runSignalWithStart(t *testing.T, parent context.Context, c client.Client, taskQueue, scenario string) signalWithStartOutcome {
	ctx, cancel := context.WithTimeout(parent, 2*time.Minute)
	defer cancel()
	callerID, targetID := taskQueue+"-caller-"+scenario, taskQueue+"-target-"+scenario
	var out signalWithStartOutcome
	if scenario != "new" {
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: targetID, TaskQueue: taskQueue}, "SignalWithStartTargetWorkflow", "pre"); err != nil {
			t.Errorf("starting %s: %v", targetID, err)
			return out
		}
	}
	if scenario == "reject-duplicate" {
		if err := c.SignalWorkflow(ctx, targetID, "", signalWithStartSignal, "done"); err != nil {
			t.Errorf("signaling %s: %v", targetID, err)
			return out
		}
		if err := c.GetWorkflow(ctx, targetID, "").Get(ctx, &out.target); err != nil {
			t.Errorf("%s: %v", targetID, err)
			return out
		}
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: callerID, TaskQueue: taskQueue}, "SignalWithStartCallerWorkflow", targetID, scenario)
	if err != nil {
		t.Errorf("starting %s: %v", callerID, err)
		return out
	}
	if err := run.Get(ctx, &out.described); err != nil {
		t.Errorf("%s: %v", callerID, err)
		return out
	}
	desc, err := c.DescribeWorkflowExecution(ctx, targetID, "")
	if err != nil {
		t.Errorf("describing %s: %v", targetID, err)
		return out
	}
	targetRun := desc.GetWorkflowExecutionInfo().GetExecution().GetRunId()
	out.described = strings.NewReplacer(targetID, "<target>", targetRun, "<run>").Replace(out.described)
	if scenario != "reject-duplicate" {
		if err := c.GetWorkflow(ctx, targetID, "").Get(ctx, &out.target); err != nil {
			t.Errorf("%s: %v", targetID, err)
		}
	}
	out.history = runHistoryOf(t, c, callerID)
	for _, ev := range out.history.GetEvents() {
		if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
			if a.GetEndpoint() != "__temporal_system" || a.GetService() != "temporal.api.workflowservice.v1.WorkflowService" || a.GetOperation() != "SignalWithStartWorkflowExecution" {
				t.Errorf("%s scheduled %s/%s/%s", callerID, a.GetEndpoint(), a.GetService(), a.GetOperation())
			}
			out.metadata = fmt.Sprintf("%q", a.GetInput().GetMetadata())
			out.request = &workflowservice.SignalWithStartWorkflowExecutionRequest{}
			if err := proto.Unmarshal(a.GetInput().GetData(), out.request); err != nil {
				t.Errorf("%s: the scheduled input is not the request: %v", callerID, err)
			}
			out.request.WorkflowId = "<target>"
			out.request.TaskQueue.Name = "<queue>"
		}
	}
	if out.request == nil {
		t.Errorf("%s scheduled no Nexus operation", callerID)
	}
	return out
}

// With a payload codec and a context propagator that asks for it on both
// SDKs' clients and workers, workflow.SignalWithStartWorkflow sends the
// same request: the user payloads inside it encoded with the codec, the
// propagator's header field too, the request itself given to no codec;
// the target decodes its input and signal, and the histories replay across
// SDKs.
func TestSignalWithStartWorkflowSendsCodecAndHeaderAlike(t *testing.T) {
	hp := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hp,
		DataConverter:      converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []workflow.ContextPropagator{tenantPropagatorOurs{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	requireSignalWithStartServer(t, c)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{},
		DataConverter:      officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []officialworkflow.ContextPropagator{tenantPropagatorOfficial{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("sws-codec-ours-%d", stamp), fmt.Sprintf("sws-codec-official-%d", stamp)
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	w.RegisterWorkflowWithOptions(SignalWithStartTargetWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartTargetWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	ow.RegisterWorkflowWithOptions(SignalWithStartTargetWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartTargetWorkflow"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	tenant := context.WithValue(context.Background(), tenantKey{}, "acme")
	ours, official := runSignalWithStart(t, tenant, c, oursQueue, "new"), runSignalWithStart(t, tenant, c, officialQueue, "new")
	if t.Failed() {
		return
	}
	if want := `started with "input of new", signaled "signal of new"`; ours.target != want || official.target != want {
		t.Errorf("the targets returned:\n ours:     %s\n official: %s\n want:     %s", ours.target, official.target, want)
	}
	if ours.metadata != official.metadata {
		t.Errorf("the requests' payload metadata differ:\n ours:     %s\n official: %s", ours.metadata, official.metadata)
	}
	if !proto.Equal(ours.request, official.request) {
		t.Errorf("the requests differ:\n ours:     %s\n official: %s", protojson.Format(ours.request), protojson.Format(official.request))
	}
	req := official.request
	if enc := string(req.GetHeader().GetFields()[tenantField].GetMetadata()["encoding"]); enc != "binary/header" {
		t.Errorf("the official request's tenant field has encoding %q, want the codec's: the scenario did not happen as meant", enc)
	}
	if enc := string(req.GetInput().GetPayloads()[0].GetMetadata()["encoding"]); enc != "binary/header" {
		t.Errorf("the official request's input has encoding %q, want the codec's: the scenario did not happen as meant", enc)
	}
	oursReplayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		DataConverter:      converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []workflow.ContextPropagator{tenantPropagatorOurs{}}})
	if err != nil {
		t.Fatal(err)
	}
	oursReplayer.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOurs, workflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	if err := oursReplayer.ReplayWorkflowHistory(nil, official.history); err != nil {
		t.Errorf("this SDK's replayer fails on the official SDK's history: %v", err)
	}
	officialReplayer, err := officialworker.NewWorkflowReplayerWithOptions(officialworker.WorkflowReplayerOptions{
		DataConverter:      officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []officialworkflow.ContextPropagator{tenantPropagatorOfficial{}}})
	if err != nil {
		t.Fatal(err)
	}
	officialReplayer.RegisterWorkflowWithOptions(SignalWithStartCallerWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SignalWithStartCallerWorkflow"})
	if err := officialReplayer.ReplayWorkflowHistory(quiet{}, ours.history); err != nil {
		t.Errorf("the official replayer fails on this SDK's history: %v", err)
	}
}

// requireSignalWithStartServer skips the test on a server older than
// 1.32 (the Temporal CLI's, DURABLE_TEST_SERVER=1.29), which has no system
// Nexus endpoint: it refuses the operation's command, for either SDK, and
// the caller's workflow task fails again and again.
func requireSignalWithStartServer(t *testing.T, c client.Client) {
	t.Helper()
	info, err := c.WorkflowService().GetSystemInfo(context.Background(), &workflowservice.GetSystemInfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var major, minor int
	if _, err := fmt.Sscanf(info.GetServerVersion(), "%d.%d", &major, &minor); err != nil {
		t.Fatalf("server version %q: %v", info.GetServerVersion(), err)
	}
	if major == 1 && minor < 32 {
		t.Skipf("server %s has no system Nexus endpoint: workflow.SignalWithStartWorkflow needs server 1.32 with history.enableSignalWithStartFromWorkflow", info.GetServerVersion())
	}
}
