package compat

// The workflows of testdata/histories, written once against each SDK
// (generated from tools/recordhistories/workflows.go by renaming the
// workflows; activities are shared; regenerate with
// go test -run TestCrossSDKWorkflowsAreTheRecordedCode -update .), so that
// histories written by one SDK can be replayed by the other and workers of
// both can share a task queue.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	ourstemporal "github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"

	enumspb "go.temporal.io/api/enums/v1"
)

// activityOptionsOfficial is used by every workflow that runs activities.
var activityOptionsOfficial = official.ActivityOptions{
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

// ActivitiesWorkflowOfficial runs Greet(name), Shout(greeting) and Greet(shouted)
// sequentially and returns the three results joined with " | ".
func ActivitiesWorkflowOfficial(ctx official.Context, name string) (string, error) {
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)

	var greeting string
	if err := official.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	var shouted string
	if err := official.ExecuteActivity(ctx, Shout, greeting).Get(ctx, &shouted); err != nil {
		return "", err
	}
	var again string
	if err := official.ExecuteActivity(ctx, Greet, shouted).Get(ctx, &again); err != nil {
		return "", err
	}
	return strings.Join([]string{greeting, shouted, again}, " | "), nil
}

// TimersWorkflowOfficial sleeps 1s, then races a 2s timer against a 200ms timer. The
// 200ms timer wins and the 2s timer is cancelled through its context. It
// returns the number of timers that fired (2).
func TimersWorkflowOfficial(ctx official.Context) (int, error) {
	count := 0
	if err := official.Sleep(ctx, time.Second); err != nil {
		return 0, err
	}
	count++

	longCtx, cancelLong := official.WithCancel(ctx)
	longTimer := official.NewTimer(longCtx, 2*time.Second)
	shortTimer := official.NewTimer(ctx, 200*time.Millisecond)

	winner := ""
	sel := official.NewSelector(ctx)
	sel.AddFuture(longTimer, func(f official.Future) {
		winner = "long"
	})
	sel.AddFuture(shortTimer, func(f official.Future) {
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

// SignalsSignalName is the signal SignalsWorkflowOfficial listens on.
const SignalsSignalName = "add"

// SignalsWorkflowOfficial receives three "add" signals (string payloads) and returns
// them in arrival order.
func SignalsWorkflowOfficial(ctx official.Context) ([]string, error) {
	ch := official.GetSignalChannel(ctx, SignalsSignalName)
	var got []string
	for len(got) < 3 {
		var s string
		ch.Receive(ctx, &s)
		got = append(got, s)
	}
	return got, nil
}

// sideEffectCounterOfficial feeds SideEffectsWorkflowOfficial's side effects. It is only
// read when a side effect is first executed, never on replay, so the recorded
// values (10 and 20 in a fresh recorder process) are what replay returns.
var sideEffectCounterOfficial atomic.Int64

// SideEffectsWorkflowOfficial records a SideEffect a (10), runs Increment(a) (11),
// records a second SideEffect c (20) and returns a + Increment(a) + c (41).
func SideEffectsWorkflowOfficial(ctx official.Context) (int, error) {
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)

	var a int
	if err := official.SideEffect(ctx, func(ctx official.Context) any {
		return int(sideEffectCounterOfficial.Add(1) * 10)
	}).Get(&a); err != nil {
		return 0, err
	}

	var b int
	if err := official.ExecuteActivity(ctx, Increment, a).Get(ctx, &b); err != nil {
		return 0, err
	}

	var c int
	if err := official.SideEffect(ctx, func(ctx official.Context) any {
		return int(sideEffectCounterOfficial.Add(1) * 10)
	}).Get(&c); err != nil {
		return 0, err
	}
	return a + b + c, nil
}

// MutableSideEffectsWorkflowOfficial calls MutableSideEffect("config", ...) three
// times with a 100ms timer between the calls. The function returns "v1" on
// the first two calls and "v2" on the third, so two markers are recorded (the
// second call reuses the recorded "v1"). It returns the observed values
// joined with ",": "v1,v1,v2".
func MutableSideEffectsWorkflowOfficial(ctx official.Context) (string, error) {
	equal := func(a, b any) bool {
		return a.(string) == b.(string)
	}
	var seen []string
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := official.Sleep(ctx, 100*time.Millisecond); err != nil {
				return "", err
			}
		}
		current := "v1"
		if i == 2 {
			current = "v2"
		}
		var v string
		if err := official.MutableSideEffect(ctx, "config", func(ctx official.Context) any {
			return current
		}, equal).Get(&v); err != nil {
			return "", err
		}
		seen = append(seen, v)
	}
	return strings.Join(seen, ","), nil
}

// RandomStreamsWorkflowOfficial draws from two named random streams, mixing Read
// and Uint64, and names two activities after the draws, so a replay that
// draws other values schedules other activities and fails. It returns the
// number of activities that ran (2): the draws depend on the run ID.
func RandomStreamsWorkflowOfficial(ctx official.Context) (int, error) {
	letters := official.GetRandomStream(ctx, "fixtures/letters")
	numbers := official.GetRandomStream(ctx, "fixtures/numbers")
	ran := 0
	for i := 0; i < 2; i++ {
		word := make([]byte, 5)
		letters.Read(word)
		n := numbers.Uint64()
		m := letters.Uint64()
		// Asked for again by name, a stream goes on where it was.
		again := official.GetRandomStream(ctx, "fixtures/numbers").Uint64()
		actx := official.WithActivityOptions(ctx, official.ActivityOptions{
			StartToCloseTimeout: 10 * time.Second,
			ActivityID:          fmt.Sprintf("greet-%x-%x-%x-%x", word, n, m, again),
		})
		if err := official.ExecuteActivity(actx, Greet, fmt.Sprintf("%x", word)).Get(ctx, nil); err != nil {
			return ran, err
		}
		ran++
	}
	return ran, nil
}

// VersionsWorkflowOfficial branches on two GetVersion calls. Recorded fresh it takes
// version 1 of "step-2" (Shout("versioned")) and version 2 of "step-3"
// (Greet(<previous>)), and returns "VERSIONED / Hello, VERSIONED!".
func VersionsWorkflowOfficial(ctx official.Context) (string, error) {
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)

	var first string
	v := official.GetVersion(ctx, "step-2", official.DefaultVersion, 1)
	if v == 1 {
		if err := official.ExecuteActivity(ctx, Shout, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	} else {
		if err := official.ExecuteActivity(ctx, Greet, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	}

	var second string
	v3 := official.GetVersion(ctx, "step-3", official.DefaultVersion, 2)
	switch v3 {
	case 2:
		if err := official.ExecuteActivity(ctx, Greet, first).Get(ctx, &second); err != nil {
			return "", err
		}
	default:
		if err := official.ExecuteActivity(ctx, Shout, first).Get(ctx, &second); err != nil {
			return "", err
		}
	}
	return first + " / " + second, nil
}

// ContinueAsNewWorkflowOfficial runs Increment(n) and continues as new with n+1 while
// n < 2; with n >= 2 it returns n. Started with 0 it produces three runs.
func ContinueAsNewWorkflowOfficial(ctx official.Context, n int) (int, error) {
	if n >= 2 {
		return n, nil
	}
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)
	var next int
	if err := official.ExecuteActivity(ctx, Increment, n).Get(ctx, &next); err != nil {
		return 0, err
	}
	return 0, official.NewContinueAsNewError(ctx, "ContinueAsNewWorkflow", next)
}

// SequentialActivitiesWorkflowOfficial runs n sequential Increment activities,
// feeding each result into the next, and returns the final value (n).
func SequentialActivitiesWorkflowOfficial(ctx official.Context, n int) (int, error) {
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)
	v := 0
	for i := 0; i < n; i++ {
		if err := official.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// PingPongWorkflowOfficial runs two coroutines that exchange values over unbuffered
// channels n times: A sends v on ch1, B receives it and sends v+1 on ch2, A
// receives that as the new v. It returns the final v (n). The history is
// tiny; the cost is all in the coroutine scheduling during (re)play.
func PingPongWorkflowOfficial(ctx official.Context, n int) (int, error) {
	ch1 := official.NewChannel(ctx)
	ch2 := official.NewChannel(ctx)
	done := official.NewChannel(ctx)

	official.Go(ctx, func(ctx official.Context) { // A
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	official.Go(ctx, func(ctx official.Context) { // B
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

// NegativeTimersWorkflowOfficial waits for negative durations, as code may when a
// deadline has passed: Sleep, a timer and AwaitWithTimeout each return at
// once and start no timer (go.temporal.io/sdk treats a duration under zero
// as zero). The activity after them takes the next event ID. It returns
// how each wait ended and the greeting.
func NegativeTimersWorkflowOfficial(ctx official.Context) (string, error) {
	slept := official.Sleep(ctx, -time.Minute)
	var fired bool
	timerErr := official.NewTimer(ctx, -time.Second).Get(ctx, &fired)
	awaited, awaitErr := official.AwaitWithTimeout(ctx, -time.Hour, func() bool { return false })
	ctx = official.WithActivityOptions(ctx, activityOptionsOfficial)
	var greeting string
	if err := official.ExecuteActivity(ctx, Greet, "Temporal").Get(ctx, &greeting); err != nil {
		return "", err
	}
	return fmt.Sprintf("slept: %v, timer: %v %v, await: %v %v, %s", slept, fired, timerErr, awaited, awaitErr, greeting), nil
}

// MismatchedArgsWorkflowOfficial calls Greet, which takes one string, with an extra
// argument, with none, and with a number (one attempt each), as
// go.temporal.io/sdk lets code call it: it schedules each, and the activity
// ignores the extra argument, takes "" for the missing one, and fails to
// decode the number. It returns the two greetings and whether the third
// call failed with an application error.
func MismatchedArgsWorkflowOfficial(ctx official.Context) (string, error) {
	ctx = official.WithActivityOptions(ctx, official.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &officialtemporal.RetryPolicy{MaximumAttempts: 1},
	})
	var extra, missing string
	if err := official.ExecuteActivity(ctx, Greet, "Temporal", "extra").Get(ctx, &extra); err != nil { //workflowcheck:ignore the fixture's point: an extra argument
		return "", err
	}
	if err := official.ExecuteActivity(ctx, Greet).Get(ctx, &missing); err != nil { //workflowcheck:ignore the fixture's point: a missing argument
		return "", err
	}
	err := official.ExecuteActivity(ctx, Greet, 42).Get(ctx, nil) //workflowcheck:ignore the fixture's point: an argument of another type
	var appErr *officialtemporal.ApplicationError
	return fmt.Sprintf("%s | %s | decoding failed: %v", extra, missing, errors.As(err, &appErr)), nil
}

// ---------------------------------------------------------------------------
// Child workflows, and signals and cancel requests to other workflows

// GreetChildWorkflowOfficial returns a greeting for name, without activities.
func GreetChildWorkflowOfficial(ctx official.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// FailingChildWorkflowOfficial fails with an application error of type
// "ChildFailure".
func FailingChildWorkflowOfficial(ctx official.Context) (string, error) {
	return "", officialtemporal.NewApplicationError("the child failed", "ChildFailure")
}

// SleepingChildWorkflowOfficial sleeps for d and returns "slept". Canceled, it
// returns the cancellation, so it ends canceled.
func SleepingChildWorkflowOfficial(ctx official.Context, d time.Duration) (string, error) {
	if err := official.Sleep(ctx, d); err != nil {
		return "", err
	}
	return "slept", nil
}

// NoteSignalName is the signal ListeningChildWorkflowOfficial waits for.
const NoteSignalName = "note"

// ListeningChildWorkflowOfficial returns the first "note" signal it receives.
func ListeningChildWorkflowOfficial(ctx official.Context) (string, error) {
	var note string
	official.GetSignalChannel(ctx, NoteSignalName).Receive(ctx, &note)
	return note, nil
}

// childOutcomeOfficial says how a child ended, in words that do not depend on run
// IDs or on the SDK: its result, or the kind of the cause of its
// *ChildWorkflowExecutionError.
func childOutcomeOfficial(result string, err error) string {
	if err == nil {
		return result
	}
	var childErr *officialtemporal.ChildWorkflowExecutionError
	if !errors.As(err, &childErr) {
		return "not a child workflow error: " + err.Error()
	}
	var appErr *officialtemporal.ApplicationError
	switch {
	case errors.As(err, &appErr):
		return "failed: " + appErr.Type()
	case officialtemporal.IsTimeoutError(err):
		return "timed out"
	case officialtemporal.IsCanceledError(err):
		return "canceled"
	case officialtemporal.IsTerminatedError(err):
		return "terminated"
	}
	return "unexpected cause: " + errors.Unwrap(err).Error()
}

// ChildResultsWorkflowOfficial runs three children one after the other, with
// default (run ID based) workflow IDs: one completes, one fails, and one
// that would sleep an hour times out after its 1s run timeout. It returns
// their outcomes joined with " | ":
// "Hello, Temporal! | failed: ChildFailure | timed out".
func ChildResultsWorkflowOfficial(ctx official.Context) (string, error) {
	var greeting string
	err := official.ExecuteChildWorkflow(ctx, "GreetChildWorkflow", "Temporal").Get(ctx, &greeting)
	outcomes := []string{childOutcomeOfficial(greeting, err)}

	err = official.ExecuteChildWorkflow(ctx, "FailingChildWorkflow").Get(ctx, nil)
	outcomes = append(outcomes, childOutcomeOfficial("", err))

	shortCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowRunTimeout: time.Second})
	err = official.ExecuteChildWorkflow(shortCtx, "SleepingChildWorkflow", time.Hour).Get(ctx, nil)
	outcomes = append(outcomes, childOutcomeOfficial("", err))
	return strings.Join(outcomes, " | "), nil
}

// ChildCancelWorkflowOfficial cancels two sleeping children through their
// contexts. The first is canceled once it started (its options ask to
// wait for the cancellation, which the Go SDKs always do); the second in
// the workflow task that starts it, so its cancel request goes out only
// once it started. Both end canceled: "canceled | canceled".
func ChildCancelWorkflowOfficial(ctx official.Context) (string, error) {
	waitCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WaitForCancellation: true})
	startedCtx, cancelStarted := official.WithCancel(waitCtx)
	started := official.ExecuteChildWorkflow(startedCtx, "SleepingChildWorkflow", time.Hour)
	if err := started.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	cancelStarted()
	outcomes := []string{childOutcomeOfficial("", started.Get(ctx, nil))}

	earlyCtx, cancelEarly := official.WithCancel(ctx)
	early := official.ExecuteChildWorkflow(earlyCtx, "SleepingChildWorkflow", time.Hour)
	cancelEarly()
	outcomes = append(outcomes, childOutcomeOfficial("", early.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// ParentClosePoliciesWorkflowOfficial starts three children that would sleep an
// hour, one per parent close policy, in one workflow task, waits until
// all started and returns. When it has closed, the server leaves the
// first child running, terminates the second and asks the third to cancel.
func ParentClosePoliciesWorkflowOfficial(ctx official.Context) (string, error) {
	policies := []enumspb.ParentClosePolicy{
		enumspb.PARENT_CLOSE_POLICY_ABANDON,
		enumspb.PARENT_CLOSE_POLICY_TERMINATE,
		enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
	}
	var children []official.ChildWorkflowFuture
	for _, p := range policies {
		childCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{ParentClosePolicy: p})
		children = append(children, official.ExecuteChildWorkflow(childCtx, "SleepingChildWorkflow", time.Hour))
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

// ChildSignalsWorkflowOfficial signals two listening children: the first through
// its future (SignalChildWorkflow), the second by the workflow ID the
// parent gave it (SignalExternalWorkflow, as any workflow could). That ID
// is made from the original run ID, which history holds: replayers do not
// know the parent's workflow ID (go.temporal.io/sdk's says "ReplayId"). Then it
// signals a workflow that does not exist. It returns what the children
// received and how the third signal ended:
// "to a child | to an external workflow | no such workflow".
func ChildSignalsWorkflowOfficial(ctx official.Context) (string, error) {
	first := official.ExecuteChildWorkflow(ctx, "ListeningChildWorkflow")
	if err := first.SignalChildWorkflow(ctx, NoteSignalName, "to a child").Get(ctx, nil); err != nil {
		return "", err
	}
	var note string
	err := first.Get(ctx, &note)
	outcomes := []string{childOutcomeOfficial(note, err)}

	id := official.GetInfo(ctx).OriginalRunID + "-listener"
	namedCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: id})
	second := official.ExecuteChildWorkflow(namedCtx, "ListeningChildWorkflow")
	if err := second.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := official.SignalExternalWorkflow(ctx, id, "", NoteSignalName, "to an external workflow").Get(ctx, nil); err != nil {
		return "", err
	}
	err = second.Get(ctx, &note)
	outcomes = append(outcomes, childOutcomeOfficial(note, err))

	err = official.SignalExternalWorkflow(ctx, id+"-nobody", "", NoteSignalName, "to nobody").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOfficial(err))
	return strings.Join(outcomes, " | "), nil
}

// externalOutcomeOfficial says how a signal or cancel request to another workflow
// ended.
func externalOutcomeOfficial(err error) string {
	var unknown *officialtemporal.UnknownExternalWorkflowExecutionError
	switch {
	case err == nil:
		return "delivered"
	case errors.As(err, &unknown):
		return "no such workflow"
	}
	return "unexpected error: " + err.Error()
}

// ExternalCancelWorkflowOfficial starts a sleeping child with a workflow ID of its
// choosing (made like ChildSignalsWorkflowOfficial's) and asks to cancel that run
// by workflow and run ID
// (RequestCancelExternalWorkflow, as any workflow could), then waits for
// the child to end. Then it asks to cancel a workflow that does not exist.
// It returns "delivered | canceled | no such workflow".
func ExternalCancelWorkflowOfficial(ctx official.Context) (string, error) {
	id := official.GetInfo(ctx).OriginalRunID + "-sleeper"
	namedCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: id})
	child := official.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	var execution official.Execution
	if err := child.GetChildWorkflowExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	err := official.RequestCancelExternalWorkflow(ctx, execution.ID, execution.RunID).Get(ctx, nil)
	outcomes := []string{externalOutcomeOfficial(err), childOutcomeOfficial("", child.Get(ctx, nil))}

	err = official.RequestCancelExternalWorkflow(ctx, id+"-nobody", "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOfficial(err))
	return strings.Join(outcomes, " | "), nil
}

// DuplicateChildWorkflowOfficial starts a sleeping child with a workflow ID of its
// choosing and, once it runs, a second child with the same ID, which
// cannot start: go.temporal.io/sdk refuses it at once, without a command,
// because a child of that ID is open in this run. Then it cancels the
// first child and returns "already started | canceled".
func DuplicateChildWorkflowOfficial(ctx official.Context) (string, error) {
	id := official.GetInfo(ctx).OriginalRunID + "-only"
	namedCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: id})
	firstCtx, cancelFirst := official.WithCancel(namedCtx)
	first := official.ExecuteChildWorkflow(firstCtx, "SleepingChildWorkflow", time.Hour)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	second := official.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	outcomes := []string{startOutcomeOfficial(second.GetChildWorkflowExecution().Get(ctx, nil))}
	cancelFirst()
	outcomes = append(outcomes, childOutcomeOfficial("", first.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// startOutcomeOfficial says whether a child started, and who refused it: the SDK
// (a bare error) or the server (a *ChildWorkflowExecutionError).
func startOutcomeOfficial(err error) string {
	var already *officialtemporal.ChildWorkflowExecutionAlreadyStartedError
	var childErr *officialtemporal.ChildWorkflowExecutionError
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

// CancelTogetherWorkflowOfficial starts three sleeping children in one workflow
// task under one context, waits until all started, then cancels the
// context and waits for the children to end. go.temporal.io/sdk listens
// for a child's cancellation only once it started, so the cancel requests
// go out in the order the children started, which the server decides (the
// recorder keeps a history where it is not the order of creation). It
// returns "canceled | canceled | canceled".
func CancelTogetherWorkflowOfficial(ctx official.Context) (string, error) {
	childCtx, cancel := official.WithCancel(ctx)
	var children []official.ChildWorkflowFuture
	for i := 0; i < 3; i++ {
		children = append(children, official.ExecuteChildWorkflow(childCtx, "SleepingChildWorkflow", time.Hour))
	}
	for _, child := range children {
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return "", err
		}
	}
	cancel()
	var outcomes []string
	for _, child := range children {
		outcomes = append(outcomes, childOutcomeOfficial("", child.Get(ctx, nil)))
	}
	return strings.Join(outcomes, " | "), nil
}

// BadMemoChildWorkflowOfficial starts a child whose memo cannot be encoded (JSON
// has no complex numbers): go.temporal.io/sdk refuses it without a
// command, with the encoding error as its result and, under SDK flag 2, a
// ChildWorkflowExecutionAlreadyStartedError for its execution. Then it
// runs a child that starts, whose default workflow ID takes the sequence
// number the refused one did not use. It returns
// "already started | Hello, Temporal!".
func BadMemoChildWorkflowOfficial(ctx official.Context) (string, error) {
	badCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{Memo: map[string]any{"unencodable": complex(1, 2)}})
	refused := official.ExecuteChildWorkflow(badCtx, "GreetChildWorkflow", "nobody")
	outcomes := []string{startOutcomeOfficial(refused.GetChildWorkflowExecution().Get(ctx, nil))}
	if err := refused.Get(ctx, nil); err == nil {
		return "", errors.New("a child whose memo cannot be encoded ran")
	}
	var greeting string
	err := official.ExecuteChildWorkflow(ctx, "GreetChildWorkflow", "Temporal").Get(ctx, &greeting)
	outcomes = append(outcomes, childOutcomeOfficial(greeting, err))
	return strings.Join(outcomes, " | "), nil
}

// AbandoningChildWorkflowOfficial starts a sleeping child with workflow ID id that
// outlives it (parent close policy ABANDON) and returns once it started.
func AbandoningChildWorkflowOfficial(ctx official.Context, id string) (string, error) {
	ctx = official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: id, ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON})
	err := official.ExecuteChildWorkflow(ctx, "SleepingChildWorkflow", time.Hour).GetChildWorkflowExecution().Get(ctx, nil)
	return "started " + id, err
}

// TakenIDChildWorkflowOfficial has a child start a grandchild with the ID
// <original run ID>-taken that outlives the child, then starts a child of
// its own with that ID. The server refuses it
// (StartChildWorkflowExecutionFailed, WORKFLOW_ALREADY_EXISTS): a
// *ChildWorkflowExecutionError whose cause is a
// *ChildWorkflowExecutionAlreadyStartedError. Then it asks to cancel the
// grandchild. It returns "the server says already started | delivered".
func TakenIDChildWorkflowOfficial(ctx official.Context) (string, error) {
	id := official.GetInfo(ctx).OriginalRunID + "-taken"
	if err := official.ExecuteChildWorkflow(ctx, "AbandoningChildWorkflow", id).Get(ctx, nil); err != nil {
		return "", err
	}
	namedCtx := official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: id})
	second := official.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	outcomes := []string{startOutcomeOfficial(second.GetChildWorkflowExecution().Get(ctx, nil))}
	err := official.RequestCancelExternalWorkflow(ctx, id, "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOfficial(err))
	return strings.Join(outcomes, " | "), nil
}

// activityOptionsOurs is used by every workflow that runs activities.
var activityOptionsOurs = ours.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
}

// ---------------------------------------------------------------------------
// Activities

// ---------------------------------------------------------------------------
// Workflows

// ActivitiesWorkflowOurs runs Greet(name), Shout(greeting) and Greet(shouted)
// sequentially and returns the three results joined with " | ".
func ActivitiesWorkflowOurs(ctx ours.Context, name string) (string, error) {
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)

	var greeting string
	if err := ours.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	var shouted string
	if err := ours.ExecuteActivity(ctx, Shout, greeting).Get(ctx, &shouted); err != nil {
		return "", err
	}
	var again string
	if err := ours.ExecuteActivity(ctx, Greet, shouted).Get(ctx, &again); err != nil {
		return "", err
	}
	return strings.Join([]string{greeting, shouted, again}, " | "), nil
}

// TimersWorkflowOurs sleeps 1s, then races a 2s timer against a 200ms timer. The
// 200ms timer wins and the 2s timer is cancelled through its context. It
// returns the number of timers that fired (2).
func TimersWorkflowOurs(ctx ours.Context) (int, error) {
	count := 0
	if err := ours.Sleep(ctx, time.Second); err != nil {
		return 0, err
	}
	count++

	longCtx, cancelLong := ours.WithCancel(ctx)
	longTimer := ours.NewTimer(longCtx, 2*time.Second)
	shortTimer := ours.NewTimer(ctx, 200*time.Millisecond)

	winner := ""
	sel := ours.NewSelector(ctx)
	sel.AddFuture(longTimer, func(f ours.Future) {
		winner = "long"
	})
	sel.AddFuture(shortTimer, func(f ours.Future) {
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

// SignalsWorkflowOurs receives three "add" signals (string payloads) and returns
// them in arrival order.
func SignalsWorkflowOurs(ctx ours.Context) ([]string, error) {
	ch := ours.GetSignalChannel(ctx, SignalsSignalName)
	var got []string
	for len(got) < 3 {
		var s string
		ch.Receive(ctx, &s)
		got = append(got, s)
	}
	return got, nil
}

// sideEffectCounterOurs feeds SideEffectsWorkflowOurs's side effects. It is only
// read when a side effect is first executed, never on replay, so the recorded
// values (10 and 20 in a fresh recorder process) are what replay returns.
var sideEffectCounterOurs atomic.Int64

// SideEffectsWorkflowOurs records a SideEffect a (10), runs Increment(a) (11),
// records a second SideEffect c (20) and returns a + Increment(a) + c (41).
func SideEffectsWorkflowOurs(ctx ours.Context) (int, error) {
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)

	var a int
	if err := ours.SideEffect(ctx, func(ctx ours.Context) any {
		return int(sideEffectCounterOurs.Add(1) * 10)
	}).Get(&a); err != nil {
		return 0, err
	}

	var b int
	if err := ours.ExecuteActivity(ctx, Increment, a).Get(ctx, &b); err != nil {
		return 0, err
	}

	var c int
	if err := ours.SideEffect(ctx, func(ctx ours.Context) any {
		return int(sideEffectCounterOurs.Add(1) * 10)
	}).Get(&c); err != nil {
		return 0, err
	}
	return a + b + c, nil
}

// MutableSideEffectsWorkflowOurs calls MutableSideEffect("config", ...) three
// times with a 100ms timer between the calls. The function returns "v1" on
// the first two calls and "v2" on the third, so two markers are recorded (the
// second call reuses the recorded "v1"). It returns the observed values
// joined with ",": "v1,v1,v2".
func MutableSideEffectsWorkflowOurs(ctx ours.Context) (string, error) {
	equal := func(a, b any) bool {
		return a.(string) == b.(string)
	}
	var seen []string
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := ours.Sleep(ctx, 100*time.Millisecond); err != nil {
				return "", err
			}
		}
		current := "v1"
		if i == 2 {
			current = "v2"
		}
		var v string
		if err := ours.MutableSideEffect(ctx, "config", func(ctx ours.Context) any {
			return current
		}, equal).Get(&v); err != nil {
			return "", err
		}
		seen = append(seen, v)
	}
	return strings.Join(seen, ","), nil
}

// RandomStreamsWorkflowOurs draws from two named random streams, mixing Read
// and Uint64, and names two activities after the draws, so a replay that
// draws other values schedules other activities and fails. It returns the
// number of activities that ran (2): the draws depend on the run ID.
func RandomStreamsWorkflowOurs(ctx ours.Context) (int, error) {
	letters := ours.GetRandomStream(ctx, "fixtures/letters")
	numbers := ours.GetRandomStream(ctx, "fixtures/numbers")
	ran := 0
	for i := 0; i < 2; i++ {
		word := make([]byte, 5)
		letters.Read(word)
		n := numbers.Uint64()
		m := letters.Uint64()
		// Asked for again by name, a stream goes on where it was.
		again := ours.GetRandomStream(ctx, "fixtures/numbers").Uint64()
		actx := ours.WithActivityOptions(ctx, ours.ActivityOptions{
			StartToCloseTimeout: 10 * time.Second,
			ActivityID:          fmt.Sprintf("greet-%x-%x-%x-%x", word, n, m, again),
		})
		if err := ours.ExecuteActivity(actx, Greet, fmt.Sprintf("%x", word)).Get(ctx, nil); err != nil {
			return ran, err
		}
		ran++
	}
	return ran, nil
}

// VersionsWorkflowOurs branches on two GetVersion calls. Recorded fresh it takes
// version 1 of "step-2" (Shout("versioned")) and version 2 of "step-3"
// (Greet(<previous>)), and returns "VERSIONED / Hello, VERSIONED!".
func VersionsWorkflowOurs(ctx ours.Context) (string, error) {
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)

	var first string
	v := ours.GetVersion(ctx, "step-2", ours.DefaultVersion, 1)
	if v == 1 {
		if err := ours.ExecuteActivity(ctx, Shout, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	} else {
		if err := ours.ExecuteActivity(ctx, Greet, "versioned").Get(ctx, &first); err != nil {
			return "", err
		}
	}

	var second string
	v3 := ours.GetVersion(ctx, "step-3", ours.DefaultVersion, 2)
	switch v3 {
	case 2:
		if err := ours.ExecuteActivity(ctx, Greet, first).Get(ctx, &second); err != nil {
			return "", err
		}
	default:
		if err := ours.ExecuteActivity(ctx, Shout, first).Get(ctx, &second); err != nil {
			return "", err
		}
	}
	return first + " / " + second, nil
}

// ContinueAsNewWorkflowOurs runs Increment(n) and continues as new with n+1 while
// n < 2; with n >= 2 it returns n. Started with 0 it produces three runs.
func ContinueAsNewWorkflowOurs(ctx ours.Context, n int) (int, error) {
	if n >= 2 {
		return n, nil
	}
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)
	var next int
	if err := ours.ExecuteActivity(ctx, Increment, n).Get(ctx, &next); err != nil {
		return 0, err
	}
	return 0, ours.NewContinueAsNewError(ctx, "ContinueAsNewWorkflow", next)
}

// SequentialActivitiesWorkflowOurs runs n sequential Increment activities,
// feeding each result into the next, and returns the final value (n).
func SequentialActivitiesWorkflowOurs(ctx ours.Context, n int) (int, error) {
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)
	v := 0
	for i := 0; i < n; i++ {
		if err := ours.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// PingPongWorkflowOurs runs two coroutines that exchange values over unbuffered
// channels n times: A sends v on ch1, B receives it and sends v+1 on ch2, A
// receives that as the new v. It returns the final v (n). The history is
// tiny; the cost is all in the coroutine scheduling during (re)play.
func PingPongWorkflowOurs(ctx ours.Context, n int) (int, error) {
	ch1 := ours.NewChannel(ctx)
	ch2 := ours.NewChannel(ctx)
	done := ours.NewChannel(ctx)

	ours.Go(ctx, func(ctx ours.Context) { // A
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	ours.Go(ctx, func(ctx ours.Context) { // B
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

// NegativeTimersWorkflowOurs waits for negative durations, as code may when a
// deadline has passed: Sleep, a timer and AwaitWithTimeout each return at
// once and start no timer (go.temporal.io/sdk treats a duration under zero
// as zero). The activity after them takes the next event ID. It returns
// how each wait ended and the greeting.
func NegativeTimersWorkflowOurs(ctx ours.Context) (string, error) {
	slept := ours.Sleep(ctx, -time.Minute)
	var fired bool
	timerErr := ours.NewTimer(ctx, -time.Second).Get(ctx, &fired)
	awaited, awaitErr := ours.AwaitWithTimeout(ctx, -time.Hour, func() bool { return false })
	ctx = ours.WithActivityOptions(ctx, activityOptionsOurs)
	var greeting string
	if err := ours.ExecuteActivity(ctx, Greet, "Temporal").Get(ctx, &greeting); err != nil {
		return "", err
	}
	return fmt.Sprintf("slept: %v, timer: %v %v, await: %v %v, %s", slept, fired, timerErr, awaited, awaitErr, greeting), nil
}

// MismatchedArgsWorkflowOurs calls Greet, which takes one string, with an extra
// argument, with none, and with a number (one attempt each), as
// go.temporal.io/sdk lets code call it: it schedules each, and the activity
// ignores the extra argument, takes "" for the missing one, and fails to
// decode the number. It returns the two greetings and whether the third
// call failed with an application error.
func MismatchedArgsWorkflowOurs(ctx ours.Context) (string, error) {
	ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &ourstemporal.RetryPolicy{MaximumAttempts: 1},
	})
	var extra, missing string
	if err := ours.ExecuteActivity(ctx, Greet, "Temporal", "extra").Get(ctx, &extra); err != nil { //workflowcheck:ignore the fixture's point: an extra argument
		return "", err
	}
	if err := ours.ExecuteActivity(ctx, Greet).Get(ctx, &missing); err != nil { //workflowcheck:ignore the fixture's point: a missing argument
		return "", err
	}
	err := ours.ExecuteActivity(ctx, Greet, 42).Get(ctx, nil) //workflowcheck:ignore the fixture's point: an argument of another type
	var appErr *ourstemporal.ApplicationError
	return fmt.Sprintf("%s | %s | decoding failed: %v", extra, missing, errors.As(err, &appErr)), nil
}

// ---------------------------------------------------------------------------
// Child workflows, and signals and cancel requests to other workflows

// GreetChildWorkflowOurs returns a greeting for name, without activities.
func GreetChildWorkflowOurs(ctx ours.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// FailingChildWorkflowOurs fails with an application error of type
// "ChildFailure".
func FailingChildWorkflowOurs(ctx ours.Context) (string, error) {
	return "", ourstemporal.NewApplicationError("the child failed", "ChildFailure")
}

// SleepingChildWorkflowOurs sleeps for d and returns "slept". Canceled, it
// returns the cancellation, so it ends canceled.
func SleepingChildWorkflowOurs(ctx ours.Context, d time.Duration) (string, error) {
	if err := ours.Sleep(ctx, d); err != nil {
		return "", err
	}
	return "slept", nil
}

// ListeningChildWorkflowOurs returns the first "note" signal it receives.
func ListeningChildWorkflowOurs(ctx ours.Context) (string, error) {
	var note string
	ours.GetSignalChannel(ctx, NoteSignalName).Receive(ctx, &note)
	return note, nil
}

// childOutcomeOurs says how a child ended, in words that do not depend on run
// IDs or on the SDK: its result, or the kind of the cause of its
// *ChildWorkflowExecutionError.
func childOutcomeOurs(result string, err error) string {
	if err == nil {
		return result
	}
	var childErr *ourstemporal.ChildWorkflowExecutionError
	if !errors.As(err, &childErr) {
		return "not a child workflow error: " + err.Error()
	}
	var appErr *ourstemporal.ApplicationError
	switch {
	case errors.As(err, &appErr):
		return "failed: " + appErr.Type()
	case ourstemporal.IsTimeoutError(err):
		return "timed out"
	case ourstemporal.IsCanceledError(err):
		return "canceled"
	case ourstemporal.IsTerminatedError(err):
		return "terminated"
	}
	return "unexpected cause: " + errors.Unwrap(err).Error()
}

// ChildResultsWorkflowOurs runs three children one after the other, with
// default (run ID based) workflow IDs: one completes, one fails, and one
// that would sleep an hour times out after its 1s run timeout. It returns
// their outcomes joined with " | ":
// "Hello, Temporal! | failed: ChildFailure | timed out".
func ChildResultsWorkflowOurs(ctx ours.Context) (string, error) {
	var greeting string
	err := ours.ExecuteChildWorkflow(ctx, "GreetChildWorkflow", "Temporal").Get(ctx, &greeting)
	outcomes := []string{childOutcomeOurs(greeting, err)}

	err = ours.ExecuteChildWorkflow(ctx, "FailingChildWorkflow").Get(ctx, nil)
	outcomes = append(outcomes, childOutcomeOurs("", err))

	shortCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowRunTimeout: time.Second})
	err = ours.ExecuteChildWorkflow(shortCtx, "SleepingChildWorkflow", time.Hour).Get(ctx, nil)
	outcomes = append(outcomes, childOutcomeOurs("", err))
	return strings.Join(outcomes, " | "), nil
}

// ChildCancelWorkflowOurs cancels two sleeping children through their
// contexts. The first is canceled once it started (its options ask to
// wait for the cancellation, which the Go SDKs always do); the second in
// the workflow task that starts it, so its cancel request goes out only
// once it started. Both end canceled: "canceled | canceled".
func ChildCancelWorkflowOurs(ctx ours.Context) (string, error) {
	waitCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WaitForCancellation: true})
	startedCtx, cancelStarted := ours.WithCancel(waitCtx)
	started := ours.ExecuteChildWorkflow(startedCtx, "SleepingChildWorkflow", time.Hour)
	if err := started.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	cancelStarted()
	outcomes := []string{childOutcomeOurs("", started.Get(ctx, nil))}

	earlyCtx, cancelEarly := ours.WithCancel(ctx)
	early := ours.ExecuteChildWorkflow(earlyCtx, "SleepingChildWorkflow", time.Hour)
	cancelEarly()
	outcomes = append(outcomes, childOutcomeOurs("", early.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// ParentClosePoliciesWorkflowOurs starts three children that would sleep an
// hour, one per parent close policy, in one workflow task, waits until
// all started and returns. When it has closed, the server leaves the
// first child running, terminates the second and asks the third to cancel.
func ParentClosePoliciesWorkflowOurs(ctx ours.Context) (string, error) {
	policies := []enumspb.ParentClosePolicy{
		enumspb.PARENT_CLOSE_POLICY_ABANDON,
		enumspb.PARENT_CLOSE_POLICY_TERMINATE,
		enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
	}
	var children []ours.ChildWorkflowFuture
	for _, p := range policies {
		childCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{ParentClosePolicy: p})
		children = append(children, ours.ExecuteChildWorkflow(childCtx, "SleepingChildWorkflow", time.Hour))
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

// ChildSignalsWorkflowOurs signals two listening children: the first through
// its future (SignalChildWorkflow), the second by the workflow ID the
// parent gave it (SignalExternalWorkflow, as any workflow could). That ID
// is made from the original run ID, which history holds: replayers do not
// know the parent's workflow ID (go.temporal.io/sdk's says "ReplayId"). Then it
// signals a workflow that does not exist. It returns what the children
// received and how the third signal ended:
// "to a child | to an external workflow | no such workflow".
func ChildSignalsWorkflowOurs(ctx ours.Context) (string, error) {
	first := ours.ExecuteChildWorkflow(ctx, "ListeningChildWorkflow")
	if err := first.SignalChildWorkflow(ctx, NoteSignalName, "to a child").Get(ctx, nil); err != nil {
		return "", err
	}
	var note string
	err := first.Get(ctx, &note)
	outcomes := []string{childOutcomeOurs(note, err)}

	id := ours.GetInfo(ctx).OriginalRunID + "-listener"
	namedCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: id})
	second := ours.ExecuteChildWorkflow(namedCtx, "ListeningChildWorkflow")
	if err := second.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := ours.SignalExternalWorkflow(ctx, id, "", NoteSignalName, "to an external workflow").Get(ctx, nil); err != nil {
		return "", err
	}
	err = second.Get(ctx, &note)
	outcomes = append(outcomes, childOutcomeOurs(note, err))

	err = ours.SignalExternalWorkflow(ctx, id+"-nobody", "", NoteSignalName, "to nobody").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOurs(err))
	return strings.Join(outcomes, " | "), nil
}

// externalOutcomeOurs says how a signal or cancel request to another workflow
// ended.
func externalOutcomeOurs(err error) string {
	var unknown *ourstemporal.UnknownExternalWorkflowExecutionError
	switch {
	case err == nil:
		return "delivered"
	case errors.As(err, &unknown):
		return "no such workflow"
	}
	return "unexpected error: " + err.Error()
}

// ExternalCancelWorkflowOurs starts a sleeping child with a workflow ID of its
// choosing (made like ChildSignalsWorkflowOurs's) and asks to cancel that run
// by workflow and run ID
// (RequestCancelExternalWorkflow, as any workflow could), then waits for
// the child to end. Then it asks to cancel a workflow that does not exist.
// It returns "delivered | canceled | no such workflow".
func ExternalCancelWorkflowOurs(ctx ours.Context) (string, error) {
	id := ours.GetInfo(ctx).OriginalRunID + "-sleeper"
	namedCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: id})
	child := ours.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	var execution ours.Execution
	if err := child.GetChildWorkflowExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	err := ours.RequestCancelExternalWorkflow(ctx, execution.ID, execution.RunID).Get(ctx, nil)
	outcomes := []string{externalOutcomeOurs(err), childOutcomeOurs("", child.Get(ctx, nil))}

	err = ours.RequestCancelExternalWorkflow(ctx, id+"-nobody", "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOurs(err))
	return strings.Join(outcomes, " | "), nil
}

// DuplicateChildWorkflowOurs starts a sleeping child with a workflow ID of its
// choosing and, once it runs, a second child with the same ID, which
// cannot start: go.temporal.io/sdk refuses it at once, without a command,
// because a child of that ID is open in this run. Then it cancels the
// first child and returns "already started | canceled".
func DuplicateChildWorkflowOurs(ctx ours.Context) (string, error) {
	id := ours.GetInfo(ctx).OriginalRunID + "-only"
	namedCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: id})
	firstCtx, cancelFirst := ours.WithCancel(namedCtx)
	first := ours.ExecuteChildWorkflow(firstCtx, "SleepingChildWorkflow", time.Hour)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	second := ours.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	outcomes := []string{startOutcomeOurs(second.GetChildWorkflowExecution().Get(ctx, nil))}
	cancelFirst()
	outcomes = append(outcomes, childOutcomeOurs("", first.Get(ctx, nil)))
	return strings.Join(outcomes, " | "), nil
}

// startOutcomeOurs says whether a child started, and who refused it: the SDK
// (a bare error) or the server (a *ChildWorkflowExecutionError).
func startOutcomeOurs(err error) string {
	var already *ourstemporal.ChildWorkflowExecutionAlreadyStartedError
	var childErr *ourstemporal.ChildWorkflowExecutionError
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

// CancelTogetherWorkflowOurs starts three sleeping children in one workflow
// task under one context, waits until all started, then cancels the
// context and waits for the children to end. go.temporal.io/sdk listens
// for a child's cancellation only once it started, so the cancel requests
// go out in the order the children started, which the server decides (the
// recorder keeps a history where it is not the order of creation). It
// returns "canceled | canceled | canceled".
func CancelTogetherWorkflowOurs(ctx ours.Context) (string, error) {
	childCtx, cancel := ours.WithCancel(ctx)
	var children []ours.ChildWorkflowFuture
	for i := 0; i < 3; i++ {
		children = append(children, ours.ExecuteChildWorkflow(childCtx, "SleepingChildWorkflow", time.Hour))
	}
	for _, child := range children {
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return "", err
		}
	}
	cancel()
	var outcomes []string
	for _, child := range children {
		outcomes = append(outcomes, childOutcomeOurs("", child.Get(ctx, nil)))
	}
	return strings.Join(outcomes, " | "), nil
}

// BadMemoChildWorkflowOurs starts a child whose memo cannot be encoded (JSON
// has no complex numbers): go.temporal.io/sdk refuses it without a
// command, with the encoding error as its result and, under SDK flag 2, a
// ChildWorkflowExecutionAlreadyStartedError for its execution. Then it
// runs a child that starts, whose default workflow ID takes the sequence
// number the refused one did not use. It returns
// "already started | Hello, Temporal!".
func BadMemoChildWorkflowOurs(ctx ours.Context) (string, error) {
	badCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{Memo: map[string]any{"unencodable": complex(1, 2)}})
	refused := ours.ExecuteChildWorkflow(badCtx, "GreetChildWorkflow", "nobody")
	outcomes := []string{startOutcomeOurs(refused.GetChildWorkflowExecution().Get(ctx, nil))}
	if err := refused.Get(ctx, nil); err == nil {
		return "", errors.New("a child whose memo cannot be encoded ran")
	}
	var greeting string
	err := ours.ExecuteChildWorkflow(ctx, "GreetChildWorkflow", "Temporal").Get(ctx, &greeting)
	outcomes = append(outcomes, childOutcomeOurs(greeting, err))
	return strings.Join(outcomes, " | "), nil
}

// AbandoningChildWorkflowOurs starts a sleeping child with workflow ID id that
// outlives it (parent close policy ABANDON) and returns once it started.
func AbandoningChildWorkflowOurs(ctx ours.Context, id string) (string, error) {
	ctx = ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: id, ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON})
	err := ours.ExecuteChildWorkflow(ctx, "SleepingChildWorkflow", time.Hour).GetChildWorkflowExecution().Get(ctx, nil)
	return "started " + id, err
}

// TakenIDChildWorkflowOurs has a child start a grandchild with the ID
// <original run ID>-taken that outlives the child, then starts a child of
// its own with that ID. The server refuses it
// (StartChildWorkflowExecutionFailed, WORKFLOW_ALREADY_EXISTS): a
// *ChildWorkflowExecutionError whose cause is a
// *ChildWorkflowExecutionAlreadyStartedError. Then it asks to cancel the
// grandchild. It returns "the server says already started | delivered".
func TakenIDChildWorkflowOurs(ctx ours.Context) (string, error) {
	id := ours.GetInfo(ctx).OriginalRunID + "-taken"
	if err := ours.ExecuteChildWorkflow(ctx, "AbandoningChildWorkflow", id).Get(ctx, nil); err != nil {
		return "", err
	}
	namedCtx := ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: id})
	second := ours.ExecuteChildWorkflow(namedCtx, "SleepingChildWorkflow", time.Hour)
	outcomes := []string{startOutcomeOurs(second.GetChildWorkflowExecution().Get(ctx, nil))}
	err := ours.RequestCancelExternalWorkflow(ctx, id, "").Get(ctx, nil)
	outcomes = append(outcomes, externalOutcomeOurs(err))
	return strings.Join(outcomes, " | "), nil
}
