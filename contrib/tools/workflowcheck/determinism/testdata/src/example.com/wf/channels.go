package wf

import "github.com/durable-go/sdk/workflow"

func ChannelWorkflow(ctx workflow.Context) (int, error) { // want ChannelWorkflow:"nondeterministic"
	ch := make(chan int, 1) // want `make creates a native channel: ChannelWorkflow; use a workflow.Channel \(workflow.NewChannel\)`
	go func() {             // want `go statement starts a native goroutine: ChannelWorkflow; use workflow.Go`
		ch <- 1 // want `send on a native channel: ChannelWorkflow`
	}()
	v := <-ch // want `receive from a native channel: ChannelWorkflow`
	select {  // want `select statement on native channels: ChannelWorkflow; use workflow.NewSelector`
	case ch <- v:
	case v = <-ch:
	default:
	}
	for x := range ch { // want `range over a native channel`
		v += x
	}
	close(ch) // want `close of a native channel`
	v += len(ch) + cap(ch)
	var unused chan int
	_ = unused
	return v, nil
}

// The workflow API's goroutines, channels and selectors are deterministic.
func WorkflowChannels(ctx workflow.Context) (int, error) {
	ch := workflow.NewChannel(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch.Send(ctx, 1)
	})
	var got int
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(ch, func(c workflow.Channel, more bool) {
		c.Receive(ctx, &got)
	})
	sel.Select(ctx)
	signals := workflow.GetSignalChannel(ctx, "add")
	signals.Receive(ctx, &got)
	return got, nil
}
