package worker_test

// This file is the "recorded code" for the history fixtures under
// testdata/histories. It uses only the API surface shared by
// go.temporal.io/sdk and github.com/durable-go/sdk: replacing the import
// prefix go.temporal.io/sdk with github.com/durable-go/sdk must yield code
// that compiles against the durable-go SDK and replays the same histories.
//
// Keep every workflow deterministic. Changing a workflow here invalidates its
// recorded fixture: re-record (see README.md) after any change.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"

	enumspb "go.temporal.io/api/enums/v1"
)

// activityOptions is used by every workflow that runs activities.
var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
}

// ---------------------------------------------------------------------------
// Activities

// Greet returns a greeting for name.
func Greet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// Shout returns s in upper case.
func Shout(ctx context.Context, s string) (string, error) {
	return strings.ToUpper(s), nil
}

// Increment returns i+1.
func Increment(ctx context.Context, i int) (int, error) {
	return i + 1, nil
}

// ---------------------------------------------------------------------------
// Workflows

// ActivitiesWorkflow runs Greet(name), Shout(greeting) and Greet(shouted)
// sequentially and returns the three results joined with " | ".
func ActivitiesWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)

	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	var shouted string
	if err := workflow.ExecuteActivity(ctx, Shout, greeting).Get(ctx, &shouted); err != nil {
		return "", err
	}
	var again string
	if err := workflow.ExecuteActivity(ctx, Greet, shouted).Get(ctx, &again); err != nil {
		return "", err
	}
	return strings.Join([]string{greeting, shouted, again}, " | "), nil
}

// TimersWorkflow sleeps 1s, then races a 2s timer against a 200ms timer. The
// 200ms timer wins and the 2s timer is cancelled through its context. It
// returns the number of timers that fired (2).
func TimersWorkflow(ctx workflow.Context) (int, error) {
	count := 0
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return 0, err
	}
	count++

	longCtx, cancelLong := workflow.WithCancel(ctx)
	longTimer := workflow.NewTimer(longCtx, 2*time.Second)
	shortTimer := workflow.NewTimer(ctx, 200*time.Millisecond)

	winner := ""
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(longTimer, func(f workflow.Future) {
		winner = "long"
	})
	sel.AddFuture(shortTimer, func(f workflow.Future) {
		if err := f.Get(ctx, nil); err == nil {
			winner = "short"
		}
	})
	sel.Select(ctx)
	if winner != "short" {
		return 0, errors.New("unexpected timer winner: " + winner)
	}
	count++
	cancelLong()
	return count, nil
}

// SignalsSignalName is the signal SignalsWorkflow listens on.
const SignalsSignalName = "add"

// SignalsWorkflow receives three "add" signals (string payloads) and returns
// them in arrival order.
func SignalsWorkflow(ctx workflow.Context) ([]string, error) {
	ch := workflow.GetSignalChannel(ctx, SignalsSignalName)
	var got []string
	for len(got) < 3 {
		var s string
		ch.Receive(ctx, &s)
		got = append(got, s)
	}
	return got, nil
}

// sideEffectCounter feeds SideEffectsWorkflow's side effects. It is only
// read when a side effect is first executed, never on replay, so the recorded
// values (10 and 20 in a fresh recorder process) are what replay returns.
var sideEffectCounter atomic.Int64

// SideEffectsWorkflow records a SideEffect a (10), runs Increment(a) (11),
// records a second SideEffect c (20) and returns a + Increment(a) + c (41).
func SideEffectsWorkflow(ctx workflow.Context) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)

	var a int
	if err := workflow.SideEffect(ctx, func(ctx workflow.Context) any {
		return int(sideEffectCounter.Add(1) * 10)
	}).Get(&a); err != nil {
		return 0, err
	}

	var b int
	if err := workflow.ExecuteActivity(ctx, Increment, a).Get(ctx, &b); err != nil {
		return 0, err
	}

	var c int
	if err := workflow.SideEffect(ctx, func(ctx workflow.Context) any {
		return int(sideEffectCounter.Add(1) * 10)
	}).Get(&c); err != nil {
		return 0, err
	}
	return a + b + c, nil
}

// MutableSideEffectsWorkflow calls MutableSideEffect("config", ...) three
// times with a 100ms timer between the calls. The function returns "v1" on
// the first two calls and "v2" on the third, so two markers are recorded (the
// second call reuses the recorded "v1"). It returns the observed values
// joined with ",": "v1,v1,v2".
func MutableSideEffectsWorkflow(ctx workflow.Context) (string, error) {
	equal := func(a, b any) bool {
		return a.(string) == b.(string)
	}
	var seen []string
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := workflow.Sleep(ctx, 100*time.Millisecond); err != nil {
				return "", err
			}
		}
		current := "v1"
		if i == 2 {
			current = "v2"
		}
		var v string
		if err := workflow.MutableSideEffect(ctx, "config", func(ctx workflow.Context) any {
			return current
		}, equal).Get(&v); err != nil {
			return "", err
		}
		seen = append(seen, v)
	}
	return strings.Join(seen, ","), nil
}

// RandomStreamsWorkflow draws from two named random streams, mixing Read
// and Uint64, and names two activities after the draws, so a replay that
// draws other values schedules other activities and fails. It returns the
// number of activities that ran (2): the draws depend on the run ID.
func RandomStreamsWorkflow(ctx workflow.Context) (int, error) {
	letters := workflow.GetRandomStream(ctx, "fixtures/letters")
	numbers := workflow.GetRandomStream(ctx, "fixtures/numbers")
	ran := 0
	for i := 0; i < 2; i++ {
		word := make([]byte, 5)
		letters.Read(word)
		n := numbers.Uint64()
		m := letters.Uint64()
		// Asked for again by name, a stream goes on where it was.
		again := workflow.GetRandomStream(ctx, "fixtures/numbers").Uint64()
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 10 * time.Second,
			ActivityID:          fmt.Sprintf("greet-%x-%x-%x-%x", word, n, m, again),
		})
		if err := workflow.ExecuteActivity(actx, Greet, fmt.Sprintf("%x", word)).Get(ctx, nil); err != nil {
			return ran, err
		}
		ran++
	}
	return ran, nil
}

// VersionsWorkflow branches on two GetVersion calls. Recorded fresh it takes
// version 1 of "step-2" (Shout("versioned")) and version 2 of "step-3"
// (Greet(<previous>)), and returns "VERSIONED / Hello, VERSIONED!".
func VersionsWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)

	var first string
	v := workflow.GetVersion(ctx, "step-2", workflow.DefaultVersion, 1)
	if v == 1 {
		if err := workflow.ExecuteActivity(ctx, Shout, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	} else {
		if err := workflow.ExecuteActivity(ctx, Greet, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	}

	var second string
	v3 := workflow.GetVersion(ctx, "step-3", workflow.DefaultVersion, 2)
	switch v3 {
	case 2:
		if err := workflow.ExecuteActivity(ctx, Greet, first).Get(ctx, &second); err != nil {
			return "", err
		}
	default:
		if err := workflow.ExecuteActivity(ctx, Shout, first).Get(ctx, &second); err != nil {
			return "", err
		}
	}
	return first + " / " + second, nil
}

// ContinueAsNewWorkflow runs Increment(n) and continues as new with n+1 while
// n < 2; with n >= 2 it returns n. Started with 0 it produces three runs.
func ContinueAsNewWorkflow(ctx workflow.Context, n int) (int, error) {
	if n >= 2 {
		return n, nil
	}
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var next int
	if err := workflow.ExecuteActivity(ctx, Increment, n).Get(ctx, &next); err != nil {
		return 0, err
	}
	return 0, workflow.NewContinueAsNewError(ctx, ContinueAsNewWorkflow, next)
}

// SequentialActivitiesWorkflow runs n sequential Increment activities,
// feeding each result into the next, and returns the final value (n).
func SequentialActivitiesWorkflow(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	v := 0
	for i := 0; i < n; i++ {
		if err := workflow.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// PingPongWorkflow runs two coroutines that exchange values over unbuffered
// channels n times: A sends v on ch1, B receives it and sends v+1 on ch2, A
// receives that as the new v. It returns the final v (n). The history is
// tiny; the cost is all in the coroutine scheduling during (re)play.
func PingPongWorkflow(ctx workflow.Context, n int) (int, error) {
	ch1 := workflow.NewChannel(ctx)
	ch2 := workflow.NewChannel(ctx)
	done := workflow.NewChannel(ctx)

	workflow.Go(ctx, func(ctx workflow.Context) { // A
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	workflow.Go(ctx, func(ctx workflow.Context) { // B
		for i := 0; i < n; i++ {
			var v int
			ch1.Receive(ctx, &v)
			ch2.Send(ctx, v+1)
		}
	})

	var result int
	done.Receive(ctx, &result)
	return result, nil
}

// NegativeTimersWorkflow waits for negative durations, as code may when a
// deadline has passed: Sleep, a timer and AwaitWithTimeout each return at
// once and start no timer (go.temporal.io/sdk treats a duration under zero
// as zero). The activity after them takes the next event ID. It returns
// how each wait ended and the greeting.
func NegativeTimersWorkflow(ctx workflow.Context) (string, error) {
	slept := workflow.Sleep(ctx, -time.Minute)
	var fired bool
	timerErr := workflow.NewTimer(ctx, -time.Second).Get(ctx, &fired)
	awaited, awaitErr := workflow.AwaitWithTimeout(ctx, -time.Hour, func() bool { return false })
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, "Temporal").Get(ctx, &greeting); err != nil {
		return "", err
	}
	return fmt.Sprintf("slept: %v, timer: %v %v, await: %v %v, %s", slept, fired, timerErr, awaited, awaitErr, greeting), nil
}

// MismatchedArgsWorkflow calls Greet, which takes one string, with an extra
// argument, with none, and with a number (one attempt each), as
// go.temporal.io/sdk lets code call it: it schedules each, and the activity
// ignores the extra argument, takes "" for the missing one, and fails to
// decode the number. It returns the two greetings and whether the third
// call failed with an application error.
func MismatchedArgsWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var extra, missing string
	if err := workflow.ExecuteActivity(ctx, Greet, "Temporal", "extra").Get(ctx, &extra); err != nil { //workflowcheck:ignore the fixture's point: an extra argument
		return "", err
	}
	if err := workflow.ExecuteActivity(ctx, Greet).Get(ctx, &missing); err != nil { //workflowcheck:ignore the fixture's point: a missing argument
		return "", err
	}
	err := workflow.ExecuteActivity(ctx, Greet, 42).Get(ctx, nil) //workflowcheck:ignore the fixture's point: an argument of another type
	var appErr *temporal.ApplicationError
	return fmt.Sprintf("%s | %s | decoding failed: %v", extra, missing, errors.As(err, &appErr)), nil
}

// ---------------------------------------------------------------------------
// Child workflows, and signals and cancel requests to other workflows

// GreetChildWorkflow returns a greeting for name, without activities.
func GreetChildWorkflow(ctx workflow.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// FailingChildWorkflow fails with an application error of type
// "ChildFailure".
func FailingChildWorkflow(ctx workflow.Context) (string, error) {
	return "", temporal.NewApplicationError("the child failed", "ChildFailure")
}

// SleepingChildWorkflow sleeps for d and returns "slept". Canceled, it
// returns the cancellation, so it ends canceled.
func SleepingChildWorkflow(ctx workflow.Context, d time.Duration) (string, error) {
	if err := workflow.Sleep(ctx, d); err != nil {
		return "", err
	}
	return "slept", nil
}

// NoteSignalName is the signal ListeningChildWorkflow waits for.
const NoteSignalName = "note"

// ListeningChildWorkflow returns the first "note" signal it receives.
func ListeningChildWorkflow(ctx workflow.Context) (string, error) {
	var note string
	workflow.GetSignalChannel(ctx, NoteSignalName).Receive(ctx, &note)
	return note, nil
}

// childOutcome says how a child ended, in words that do not depend on run
// IDs or on the SDK: its result, or the kind of the cause of its
// *ChildWorkflowExecutionError.
func childOutcome(result string, err error) string {
	if err == nil {
		return result
	}
	var childErr *temporal.ChildWorkflowExecutionError
	if !errors.As(err, &childErr) {
		return "not a child workflow error: " + err.Error()
	}
	var appErr *temporal.ApplicationError
	switch {
	case errors.As(err, &appErr):
		return "failed: " + appErr.Type()
	case temporal.IsTimeoutError(err):
		return "timed out"
	case temporal.IsCanceledError(err):
		return "canceled"
	case temporal.IsTerminatedError(err):
		return "terminated"
	}
	return "unexpected cause: " + errors.Unwrap(err).Error()
}

// ChildResultsWorkflow runs three children one after the other, with
// default (run ID based) workflow IDs: one completes, one fails, and one
// that would sleep an hour times out after its 1s run timeout. It returns
// their outcomes joined with " | ":
// "Hello, Temporal! | failed: ChildFailure | timed out".
func ChildResultsWorkflow(ctx workflow.Context) (string, error) {
	var greeting string
	err := workflow.ExecuteChildWorkflow(ctx, GreetChildWorkflow, "Temporal").Get(ctx, &greeting)
	outcomes := []string{childOutcome(greeting, err)}

	err = workflow.ExecuteChildWorkflow(ctx, FailingChildWorkflow).Get(ctx, nil)
	outcomes = append(outcomes, childOutcome("", err))

	shortCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowRunTimeout: time.Second})
	err = workflow.ExecuteChildWorkflow(shortCtx, SleepingChildWorkflow, time.Hour).Get(ctx, nil)
	outcomes = append(outcomes, childOutcome("", err))
	return strings.Join(outcomes, " | "), nil
}

// ChildCancelWorkflow cancels two sleeping children through their
// contexts. The first is canceled once it started (its options ask to
// wait for the cancellation, which the Go SDKs always do); the second in
// the workflow task that starts it, so its cancel request goes out only
// once it started. Both end canceled: "canceled | canceled".
func ChildCancelWorkflow(ctx workflow.Context) (string, error) {
	waitCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WaitForCancellation: true})
	startedCtx, cancelStarted := workflow.WithCancel(waitCtx)
	started := workflow.ExecuteChildWorkflow(startedCtx, SleepingChildWorkflow, time.Hour)
	if err := started.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	cancelStarted()
	outcomes := []string{childOutcome("", started.Get(ctx, nil))}

	earlyCtx, cancelEarly := workflow.WithCancel(ctx)
	early := workflow.ExecuteChildWorkflow(earlyCtx, SleepingChildWorkflow, time.Hour)
	cancelEarly()
	outcomes = append(outcomes, childOutcome("", early.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// ParentClosePoliciesWorkflow starts three children that would sleep an
// hour, one per parent close policy, in one workflow task, waits until
// all started and returns. When it has closed, the server leaves the
// first child running, terminates the second and asks the third to cancel.
func ParentClosePoliciesWorkflow(ctx workflow.Context) (string, error) {
	policies := []enumspb.ParentClosePolicy{
		enumspb.PARENT_CLOSE_POLICY_ABANDON,
		enumspb.PARENT_CLOSE_POLICY_TERMINATE,
		enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
	}
	var children []workflow.ChildWorkflowFuture
	for _, p := range policies {
		childCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{ParentClosePolicy: p})
		children = append(children, workflow.ExecuteChildWorkflow(childCtx, SleepingChildWorkflow, time.Hour))
	}
	var left []string
	for i, child := range children {
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return "", err
		}
		left = append(left, policies[i].String())
	}
	return "started children with " + strings.Join(left, ", "), nil
}

// ChildSignalsWorkflow signals two listening children: the first through
// its future (SignalChildWorkflow), the second by the workflow ID the
// parent gave it (SignalExternalWorkflow, as any workflow could). That ID
// is made from the original run ID, which history holds: replayers do not
// know the parent's workflow ID (go.temporal.io/sdk's says "ReplayId"). Then it
// signals a workflow that does not exist. It returns what the children
// received and how the third signal ended:
// "to a child | to an external workflow | no such workflow".
func ChildSignalsWorkflow(ctx workflow.Context) (string, error) {
	first := workflow.ExecuteChildWorkflow(ctx, ListeningChildWorkflow)
	if err := first.SignalChildWorkflow(ctx, NoteSignalName, "to a child").Get(ctx, nil); err != nil {
		return "", err
	}
	var note string
	err := first.Get(ctx, &note)
	outcomes := []string{childOutcome(note, err)}

	id := workflow.GetInfo(ctx).OriginalRunID + "-listener"
	namedCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	second := workflow.ExecuteChildWorkflow(namedCtx, ListeningChildWorkflow)
	if err := second.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := workflow.SignalExternalWorkflow(ctx, id, "", NoteSignalName, "to an external workflow").Get(ctx, nil); err != nil {
		return "", err
	}
	err = second.Get(ctx, &note)
	outcomes = append(outcomes, childOutcome(note, err))

	err = workflow.SignalExternalWorkflow(ctx, id+"-nobody", "", NoteSignalName, "to nobody").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcome(err))
	return strings.Join(outcomes, " | "), nil
}

// externalOutcome says how a signal or cancel request to another workflow
// ended.
func externalOutcome(err error) string {
	var unknown *temporal.UnknownExternalWorkflowExecutionError
	switch {
	case err == nil:
		return "delivered"
	case errors.As(err, &unknown):
		return "no such workflow"
	}
	return "unexpected error: " + err.Error()
}

// ExternalCancelWorkflow starts a sleeping child with a workflow ID of its
// choosing (made like ChildSignalsWorkflow's) and asks to cancel that run
// by workflow and run ID
// (RequestCancelExternalWorkflow, as any workflow could), then waits for
// the child to end. Then it asks to cancel a workflow that does not exist.
// It returns "delivered | canceled | no such workflow".
func ExternalCancelWorkflow(ctx workflow.Context) (string, error) {
	id := workflow.GetInfo(ctx).OriginalRunID + "-sleeper"
	namedCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	child := workflow.ExecuteChildWorkflow(namedCtx, SleepingChildWorkflow, time.Hour)
	var execution workflow.Execution
	if err := child.GetChildWorkflowExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	err := workflow.RequestCancelExternalWorkflow(ctx, execution.ID, execution.RunID).Get(ctx, nil)
	outcomes := []string{externalOutcome(err), childOutcome("", child.Get(ctx, nil))}

	err = workflow.RequestCancelExternalWorkflow(ctx, id+"-nobody", "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcome(err))
	return strings.Join(outcomes, " | "), nil
}

// DuplicateChildWorkflow starts a sleeping child with a workflow ID of its
// choosing and, once it runs, a second child with the same ID, which
// cannot start: go.temporal.io/sdk refuses it at once, without a command,
// because a child of that ID is open in this run. Then it cancels the
// first child and returns "already started | canceled".
func DuplicateChildWorkflow(ctx workflow.Context) (string, error) {
	id := workflow.GetInfo(ctx).OriginalRunID + "-only"
	namedCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	firstCtx, cancelFirst := workflow.WithCancel(namedCtx)
	first := workflow.ExecuteChildWorkflow(firstCtx, SleepingChildWorkflow, time.Hour)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	second := workflow.ExecuteChildWorkflow(namedCtx, SleepingChildWorkflow, time.Hour)
	outcomes := []string{startOutcome(second.GetChildWorkflowExecution().Get(ctx, nil))}
	cancelFirst()
	outcomes = append(outcomes, childOutcome("", first.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// startOutcome says whether a child started, and who refused it: the SDK
// (a bare error) or the server (a *ChildWorkflowExecutionError).
func startOutcome(err error) string {
	var already *temporal.ChildWorkflowExecutionAlreadyStartedError
	var childErr *temporal.ChildWorkflowExecutionError
	switch {
	case err == nil:
		return "started"
	case errors.As(err, &childErr) && errors.As(err, &already):
		return "the server says already started"
	case errors.As(err, &already):
		return "already started"
	}
	return "unexpected error: " + err.Error()
}

// CancelTogetherWorkflow starts three sleeping children in one workflow
// task under one context, waits until all started, then cancels the
// context and waits for the children to end. go.temporal.io/sdk listens
// for a child's cancellation only once it started, so the cancel requests
// go out in the order the children started, which the server decides (the
// recorder keeps a history where it is not the order of creation). It
// returns "canceled | canceled | canceled".
func CancelTogetherWorkflow(ctx workflow.Context) (string, error) {
	childCtx, cancel := workflow.WithCancel(ctx)
	var children []workflow.ChildWorkflowFuture
	for i := 0; i < 3; i++ {
		children = append(children, workflow.ExecuteChildWorkflow(childCtx, SleepingChildWorkflow, time.Hour))
	}
	for _, child := range children {
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return "", err
		}
	}
	cancel()
	var outcomes []string
	for _, child := range children {
		outcomes = append(outcomes, childOutcome("", child.Get(ctx, nil)))
	}
	return strings.Join(outcomes, " | "), nil
}

// BadMemoChildWorkflow starts a child whose memo cannot be encoded (JSON
// has no complex numbers): go.temporal.io/sdk refuses it without a
// command, with the encoding error as its result and, under SDK flag 2, a
// ChildWorkflowExecutionAlreadyStartedError for its execution. Then it
// runs a child that starts, whose default workflow ID takes the sequence
// number the refused one did not use. It returns
// "already started | Hello, Temporal!".
func BadMemoChildWorkflow(ctx workflow.Context) (string, error) {
	badCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{Memo: map[string]any{"unencodable": complex(1, 2)}})
	refused := workflow.ExecuteChildWorkflow(badCtx, GreetChildWorkflow, "nobody")
	outcomes := []string{startOutcome(refused.GetChildWorkflowExecution().Get(ctx, nil))}
	if err := refused.Get(ctx, nil); err == nil {
		return "", errors.New("a child whose memo cannot be encoded ran")
	}
	var greeting string
	err := workflow.ExecuteChildWorkflow(ctx, GreetChildWorkflow, "Temporal").Get(ctx, &greeting)
	outcomes = append(outcomes, childOutcome(greeting, err))
	return strings.Join(outcomes, " | "), nil
}

// AbandoningChildWorkflow starts a sleeping child with workflow ID id that
// outlives it (parent close policy ABANDON) and returns once it started.
func AbandoningChildWorkflow(ctx workflow.Context, id string) (string, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id, ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON})
	err := workflow.ExecuteChildWorkflow(ctx, SleepingChildWorkflow, time.Hour).GetChildWorkflowExecution().Get(ctx, nil)
	return "started " + id, err
}

// TakenIDChildWorkflow has a child start a grandchild with the ID
// <original run ID>-taken that outlives the child, then starts a child of
// its own with that ID. The server refuses it
// (StartChildWorkflowExecutionFailed, WORKFLOW_ALREADY_EXISTS): a
// *ChildWorkflowExecutionError whose cause is a
// *ChildWorkflowExecutionAlreadyStartedError. Then it asks to cancel the
// grandchild. It returns "the server says already started | delivered".
func TakenIDChildWorkflow(ctx workflow.Context) (string, error) {
	id := workflow.GetInfo(ctx).OriginalRunID + "-taken"
	if err := workflow.ExecuteChildWorkflow(ctx, AbandoningChildWorkflow, id).Get(ctx, nil); err != nil {
		return "", err
	}
	namedCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	second := workflow.ExecuteChildWorkflow(namedCtx, SleepingChildWorkflow, time.Hour)
	outcomes := []string{startOutcome(second.GetChildWorkflowExecution().Get(ctx, nil))}
	err := workflow.RequestCancelExternalWorkflow(ctx, id, "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcome(err))
	return strings.Join(outcomes, " | "), nil
}
