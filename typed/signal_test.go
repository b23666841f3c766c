package typed_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

var CancelOrder = typed.NewSignal[typed.None]("cancel-order")

// signalsTyped receives signals every way a workflow can, and passes
// values between coroutines on a typed channel, with the typed API. The
// test sends "order-paid" at 1m and "cancel-order" at 1h.
func signalsTyped(ctx workflow.Context) (string, error) {
	paid := typed.GetSignalChannel(ctx, OrderPaid)
	canceled := typed.GetSignalChannelWithOptions(ctx, CancelOrder, workflow.SignalChannelOptions{Description: "stop"})
	var log []string
	payment, more := paid.Receive(ctx)
	log = append(log, fmt.Sprint(payment, more))
	_, ok, more := paid.ReceiveWithTimeout(ctx, time.Minute)
	log = append(log, fmt.Sprint("timeout ", !ok, more))

	selector := workflow.NewSelector(ctx)
	typed.AddReceive(selector, canceled, func(ch typed.ReceiveChannel[typed.None], more bool) {
		_, ok := ch.ReceiveAsync()
		log = append(log, fmt.Sprint("canceled ", ok, more, " ", ch.Name()))
	})
	typed.AddReceive(selector, paid, func(ch typed.ReceiveChannel[Payment], more bool) {
		p, _ := ch.ReceiveAsync()
		log = append(log, fmt.Sprint("paid again ", p))
	})
	selector.Select(ctx)
	_, ok, more = canceled.ReceiveAsyncWithMoreFlag()
	log = append(log, fmt.Sprint("drained ", !ok, more, paid.Len()))

	payments := typed.NewNamedBufferedChannel[Payment](ctx, "payments", 1)
	done := typed.Go(ctx, func(ctx workflow.Context) (int, error) {
		payments.Send(ctx, Payment{Cents: 1, By: "coroutine"})
		payments.Send(ctx, Payment{Cents: 2, By: "coroutine"})
		payments.Close()
		return 2, workflow.Sleep(ctx, time.Minute)
	})
	for {
		p, more := payments.Receive(ctx)
		if !more {
			break
		}
		log = append(log, fmt.Sprint(p))
	}
	sent, err := done.Get(ctx)
	log = append(log, fmt.Sprint("sent ", sent))
	return strings.Join(log, "; "), err
}

// signalsUntyped is signalsTyped with the untyped API.
func signalsUntyped(ctx workflow.Context) (string, error) {
	paid := workflow.GetSignalChannel(ctx, "order-paid")
	canceled := workflow.GetSignalChannelWithOptions(ctx, "cancel-order", workflow.SignalChannelOptions{Description: "stop"})
	var log []string
	var payment Payment
	more := paid.Receive(ctx, &payment)
	log = append(log, fmt.Sprint(payment, more))
	ok, more := paid.ReceiveWithTimeout(ctx, time.Minute, &payment)
	log = append(log, fmt.Sprint("timeout ", !ok, more))

	selector := workflow.NewSelector(ctx)
	selector.AddReceive(canceled, func(ch workflow.ReceiveChannel, more bool) {
		ok := ch.ReceiveAsync(nil)
		log = append(log, fmt.Sprint("canceled ", ok, more, " ", ch.Name()))
	})
	selector.AddReceive(paid, func(ch workflow.ReceiveChannel, more bool) {
		var p Payment
		ch.ReceiveAsync(&p)
		log = append(log, fmt.Sprint("paid again ", p))
	})
	selector.Select(ctx)
	ok, more = canceled.ReceiveAsyncWithMoreFlag(nil)
	log = append(log, fmt.Sprint("drained ", !ok, more, paid.Len()))

	payments := workflow.NewNamedBufferedChannel(ctx, "payments", 1)
	done, settable := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		payments.Send(ctx, Payment{Cents: 1, By: "coroutine"})
		payments.Send(ctx, Payment{Cents: 2, By: "coroutine"})
		payments.Close()
		settable.Set(2, workflow.Sleep(ctx, time.Minute))
	})
	for {
		var p Payment
		if !payments.Receive(ctx, &p) {
			break
		}
		log = append(log, fmt.Sprint(p))
	}
	var sent int
	err := done.Get(ctx, &sent)
	log = append(log, fmt.Sprint("sent ", sent))
	return strings.Join(log, "; "), err
}

func TestSignalsAndChannelsWriteTheSameHistoryTypedAndUntyped(t *testing.T) {
	typedRun := runAs(t, "Signals", signalsTyped, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, OrderPaid, Payment{Cents: 300, By: "card"}) }, time.Minute)
		env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, CancelOrder, typed.None{}) }, time.Hour)
	})
	untypedRun := runAs(t, "Signals", signalsUntyped, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow("order-paid", Payment{Cents: 300, By: "card"}) }, time.Minute)
		env.RegisterDelayedCallback(func() { env.SignalWorkflow("cancel-order", nil) }, time.Hour)
	})
	requireSameHistory(t, typedRun, untypedRun)
	var typedLog, untypedLog string
	if err := typedRun.GetWorkflowResult(&typedLog); err != nil {
		t.Fatal(err)
	}
	if err := untypedRun.GetWorkflowResult(&untypedLog); err != nil {
		t.Fatal(err)
	}
	const want = "{300 card} true; timeout true true; canceled true true cancel-order; drained true true 0; {1 coroutine}; {2 coroutine}; sent 2"
	if typedLog != want || untypedLog != want {
		t.Errorf("typed: %q\nuntyped: %q\nwant: %q", typedLog, untypedLog, want)
	}
	if n := strings.Count(eventTypes(historyOf(t, typedRun)), "WorkflowExecutionSignaled"); n != 2 {
		t.Errorf("%d signals in the history, want 2", n)
	}
}
