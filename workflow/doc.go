// Package workflow is the API for writing workflow code: code that the
// worker replays from history after every event, and that must therefore
// make the same decisions in the same order every time.
//
// A workflow is a function whose first parameter is a Context and which
// returns an error, or a result and an error. It orchestrates: it runs
// activities (ExecuteActivity, ExecuteLocalActivity) and child workflows
// (ExecuteChildWorkflow), waits on durable timers (Sleep, NewTimer),
// receives signals (GetSignalChannel), answers queries (SetQueryHandler)
// and updates (SetUpdateHandler), and keeps its state in ordinary
// variables, which survive worker restarts because replay rebuilds them.
//
//	func OrderWorkflow(ctx workflow.Context, order Order) (Receipt, error) {
//		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
//			StartToCloseTimeout: time.Minute,
//		})
//		var receipt Receipt
//		if err := workflow.ExecuteActivity(ctx, Charge, order).Get(ctx, &receipt); err != nil {
//			return Receipt{}, err
//		}
//		if err := workflow.Sleep(ctx, 24*time.Hour); err != nil {
//			return Receipt{}, err
//		}
//		err := workflow.ExecuteActivity(ctx, SendFollowUp, order.Email).Get(ctx, nil)
//		return receipt, err
//	}
//
// Register it on a worker (worker.Worker.RegisterWorkflow), start it with
// client.Client.ExecuteWorkflow, and test it without a server with
// testsuite.WorkflowTestSuite.
//
// # Determinism
//
// Workflow code must not use goroutines, Go channels, select, sync locks,
// time.Now, time.Sleep, random numbers, or map iteration order to decide
// what to do. This package provides deterministic replacements:
//
//   - Go and GoNamed instead of the go statement;
//   - Channel (NewChannel, NewBufferedChannel, ...) instead of chan;
//   - Selector instead of select;
//   - Future and Settable (NewFuture) for results that arrive later;
//   - Await for waiting on a condition;
//   - Mutex, Semaphore and WaitGroup instead of package sync;
//   - DeterministicKeys and DeterministicKeysFunc to range over maps;
//   - Now, Sleep and NewTimer instead of time.Now, time.Sleep and timers;
//   - SideEffect and GetRandomStream for random numbers and UUIDs.
//
// Coroutines run one at a time. Which coroutine runs next, which receiver
// gets a value, which Selector case fires and what a canceled Context
// interrupts are fixed rules, stated on the primitives below and in full
// in the documentation of the SDK's runtime; they are those of the
// official Go SDK, so ported workflows behave the same.
//
// # Cancellation
//
// Canceling a Context closes its Done channel and cancels its children.
// Await, Sleep, Mutex.Lock and Semaphore.Acquire return a CanceledError
// when their Context is canceled; canceling the Context of an activity,
// timer or child workflow cancels it. Channel.Receive, Channel.Send, Selector.Select,
// Future.Get and WaitGroup.Wait keep waiting: add ctx.Done() to a Selector
// to react to cancellation while waiting for something else.
//
// # Changing workflow code
//
// Open runs replay with the code the worker has now. A change that alters
// which activities, timers or child workflows a run starts, or their
// order, must be guarded with GetVersion, or the worker reports a
// non-determinism error when it replays a run that started before the
// change. worker.NewWorkflowReplayer checks recorded histories against
// new code in CI.
package workflow
