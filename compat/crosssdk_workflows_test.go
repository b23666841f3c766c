package compat

// The workflows of testdata/histories, written once against each SDK
// (generated from tools/recordhistories/workflows.go by renaming the
// workflows; activities are shared), so that histories written by one SDK
// can be replayed by the other and workers of both can share a task queue.

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	ours "github.com/durable-go/sdk/workflow"
	official "go.temporal.io/sdk/workflow"
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
