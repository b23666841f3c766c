package updates

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Several updates delivered in one workflow task: the worker of each SDK
// runs each update's validator and then its handler, one update after
// the other, so that a validator sees what the handlers before it did. A
// limited workflow takes burstLimit requests and rejects the rest; a
// burst of burstSize updates reaches it while a workflow task of its is
// busy (a slow local activity), so that the next task carries them all.

const (
	burstLimit = 3
	burstSize  = 5
)

// Busy is the slow local activity that keeps a workflow task running
// while the burst arrives.
func Busy(context.Context) error {
	time.Sleep(2500 * time.Millisecond)
	return nil
}

// LimitedOurs counts the "request" updates its handler ran, rejects them
// in its validator once it counted burstLimit, and notes what ran in
// order ("validate", "handle"), which the "steps" query returns; it runs
// Busy when signaled "busy", and ends when signaled "done".
func LimitedOurs(ctx workflow.Context) (int, error) {
	count := 0
	var steps []string
	if err := workflow.SetQueryHandler(ctx, "steps", func() ([]string, error) { return steps, nil }); err != nil {
		return 0, err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "request", func(ctx workflow.Context) (int, error) {
		steps = append(steps, "handle")
		count++
		return count, nil
	}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context) error {
		steps = append(steps, "validate")
		if count >= burstLimit {
			return fmt.Errorf("the limit of %d requests is reached", burstLimit)
		}
		return nil
	}}); err != nil {
		return 0, err
	}
	busy, done := workflow.GetSignalChannel(ctx, "busy"), workflow.GetSignalChannel(ctx, "done")
	for finished := false; !finished; {
		workflow.NewSelector(ctx).
			AddReceive(busy, func(c workflow.ReceiveChannel, _ bool) {
				c.Receive(ctx, nil)
				lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
				_ = workflow.ExecuteLocalActivity(lctx, Busy).Get(ctx, nil)
			}).
			AddReceive(done, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); finished = true }).
			Select(ctx)
	}
	return count, nil
}

// LimitedOfficial is LimitedOurs on go.temporal.io/sdk.
func LimitedOfficial(ctx officialworkflow.Context) (int, error) {
	count := 0
	var steps []string
	if err := officialworkflow.SetQueryHandler(ctx, "steps", func() ([]string, error) { return steps, nil }); err != nil {
		return 0, err
	}
	if err := officialworkflow.SetUpdateHandlerWithOptions(ctx, "request", func(ctx officialworkflow.Context) (int, error) {
		steps = append(steps, "handle")
		count++
		return count, nil
	}, officialworkflow.UpdateHandlerOptions{Validator: func(ctx officialworkflow.Context) error {
		steps = append(steps, "validate")
		if count >= burstLimit {
			return fmt.Errorf("the limit of %d requests is reached", burstLimit)
		}
		return nil
	}}); err != nil {
		return 0, err
	}
	busy, done := officialworkflow.GetSignalChannel(ctx, "busy"), officialworkflow.GetSignalChannel(ctx, "done")
	for finished := false; !finished; {
		officialworkflow.NewSelector(ctx).
			AddReceive(busy, func(c officialworkflow.ReceiveChannel, _ bool) {
				c.Receive(ctx, nil)
				lctx := officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
				_ = officialworkflow.ExecuteLocalActivity(lctx, Busy).Get(ctx, nil)
			}).
			AddReceive(done, func(c officialworkflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); finished = true }).
			Select(ctx)
	}
	return count, nil
}

// burstOutcome is what a burst came to: the steps the workflow took, how
// many updates were accepted and rejected, and the workflow's count.
type burstOutcome struct {
	steps              string
	accepted, rejected int
	count              int
	inOneTask          bool // the accepted updates were in one workflow task
}

// acceptedInOneTask is the most updates one workflow task of the
// workflow accepted.
func acceptedInOneTask(t *testing.T, c client.Client, id string) int {
	most, n := 0, 0
	iter := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			n = 0
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			n++
			most = max(most, n)
		}
	}
	return most
}

// sendBurst starts a Limited workflow on taskQueue, served by a worker
// already running, and sends it a burst.
func sendBurst(t *testing.T, c client.Client, taskQueue string) burstOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, "Limited")
	if err != nil {
		t.Fatal(err)
	}
	id := run.GetID()
	if _, err := c.QueryWorkflow(ctx, id, "", "steps"); err != nil { // its handlers are set
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, id, "", "busy", nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the busy task runs
	var o burstOutcome
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range burstSize {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateID: fmt.Sprint(i), UpdateName: "request",
				WaitForStage: client.WorkflowUpdateStageCompleted})
			if err == nil {
				err = h.Get(ctx, nil)
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				o.accepted++
			case strings.Contains(err.Error(), "limit"):
				o.rejected++
			default:
				t.Errorf("update %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	v, err := c.QueryWorkflow(ctx, id, "", "steps")
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	if err := v.Get(&steps); err != nil {
		t.Fatal(err)
	}
	o.steps = strings.Join(revalidationsDropped(t, steps, o.rejected), " ")
	o.inOneTask = acceptedInOneTask(t, c, id) == o.accepted
	if err := c.SignalWorkflow(ctx, id, "", "done", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, &o.count); err != nil {
		t.Fatal(err)
	}
	return o
}

// revalidationsDropped drops the validations of rejected updates beyond
// one each. A client whose update call the server answers "admitted" (its
// wait ended while the workflow was busy) sends it again, as both SDKs'
// clients do; if the worker rejected the update in between, the server
// takes the second send for a new update, which the validator sees again.
// How often that happens is a matter of timing on a loaded machine, not of
// either SDK's worker.
func revalidationsDropped(t *testing.T, steps []string, rejected int) []string {
	last := -1
	for i, s := range steps {
		if s == "handle" {
			last = i
		}
	}
	trailing := len(steps) - last - 1
	if trailing <= rejected {
		return steps
	}
	t.Logf("%d rejected updates were validated %d times: the client sent some again after an admitted answer", rejected, trailing)
	return steps[:len(steps)-(trailing-rejected)]
}

func TestABurstOfUpdatesInOneTaskIsValidatedAndHandledInTurnAsOnGoTemporalIOSDK(t *testing.T) {
	hostPort := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hostPort, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("burst-%d", time.Now().UnixNano())

	oc, err := officialclient.Dial(officialclient.Options{HostPort: hostPort, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	ow := officialworker.New(oc, tq+"-official", officialworker.Options{})
	ow.RegisterWorkflowWithOptions(LimitedOfficial, officialworkflow.RegisterOptions{Name: "Limited"})
	ow.RegisterActivity(Busy)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	there := sendBurst(t, c, tq+"-official")

	w := worker.New(c, tq+"-ours", worker.Options{})
	w.RegisterWorkflowWithOptions(LimitedOurs, workflow.RegisterOptions{Name: "Limited"})
	w.RegisterActivity(Busy)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	here := sendBurst(t, c, tq+"-ours")

	t.Logf("go.temporal.io/sdk: %+v", there)
	want := burstOutcome{inOneTask: true, accepted: burstLimit, rejected: burstSize - burstLimit, count: burstLimit,
		steps: strings.TrimSpace(strings.Repeat("validate handle ", burstLimit) + strings.Repeat("validate ", burstSize-burstLimit))}
	if there != want {
		t.Errorf("go.temporal.io/sdk: %+v, expected %+v (the test's premise changed)", there, want)
	}
	if here != there {
		t.Errorf("this SDK: %+v\ngo.temporal.io/sdk: %+v", here, there)
	}
}
