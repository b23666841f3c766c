package worker_test

import (
	"slices"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// ReceivesTwoStrings receives two strings on the signal "words", in the
// way mode names, and returns them. A signal whose payload is not a
// string is dropped on the way, as go.temporal.io/sdk drops it.
func ReceivesTwoStrings(ctx workflow.Context, mode string) ([]string, error) {
	ch := workflow.GetSignalChannel(ctx, "words")
	var got []string
	for len(got) < 2 {
		var s string
		switch mode {
		case "Receive":
			ch.Receive(ctx, &s)
		case "ReceiveAsync":
			if err := workflow.Await(ctx, func() bool { return ch.Len() > 0 }); err != nil {
				return nil, err
			}
			if !ch.ReceiveAsync(&s) {
				continue // what arrived was corrupt
			}
		case "ReceiveWithTimeout":
			if ok, _ := ch.ReceiveWithTimeout(ctx, time.Hour, &s); !ok {
				return nil, workflow.ErrCanceled
			}
		case "Selector":
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(ch, func(c workflow.ReceiveChannel, more bool) { c.Receive(ctx, &s) })
			sel.Select(ctx)
		}
		got = append(got, s)
	}
	return got, nil
}

// TestCorruptSignalIsDroppedNotFatal sends a workflow, for each way of
// receiving, a signal it cannot decode between good ones: the bad one is
// dropped, logged and counted, the good ones are received, and the
// history replays.
func TestCorruptSignalIsDroppedNotFatal(t *testing.T) {
	metrics := metricstest.NewHandler()
	logger := &lineLogger{}
	c := dialWith(t, client.Options{MetricsHandler: metrics, Logger: logger})
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(ReceivesTwoStrings) })
	ctx := testCtx(t)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(ReceivesTwoStrings)
	for _, mode := range []string{"Receive", "ReceiveAsync", "ReceiveWithTimeout", "Selector"} {
		t.Run(mode, func(t *testing.T) {
			before := metrics.CounterValue(sdkmetrics.CorruptedSignals, map[string]string{sdkmetrics.TagWorkflowType: "ReceivesTwoStrings"})
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, ReceivesTwoStrings, mode)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []any{42, "first", map[string]int{"not": 1}, "second"} {
				if err := c.SignalWorkflow(ctx, run.GetID(), "", "words", v); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			if err := run.Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, []string{"first", "second"}) {
				t.Fatalf("received %q, want the two good signals", got)
			}
			after := metrics.CounterValue(sdkmetrics.CorruptedSignals, map[string]string{sdkmetrics.TagWorkflowType: "ReceivesTwoStrings"})
			if after-before != 2 {
				t.Errorf("%s counted %d corrupt signals, want 2", sdkmetrics.CorruptedSignals, after-before)
			}
			if !logHolds(logger, "corrupt signal", "SignalName=words") {
				t.Errorf("no log line names the corrupt signal:\n%v", logger.lines)
			}
			err = replayer.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID(), RunID: run.GetRunID()})
			if err != nil {
				t.Fatalf("the history with corrupt signals does not replay: %v", err)
			}
		})
	}
}
