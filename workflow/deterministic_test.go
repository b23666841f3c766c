package workflow_test

import (
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal/wfsync/wfsynctest"
	"github.com/durable-go/sdk/workflow"
)

func TestDeterministicKeys(t *testing.T) {
	m := map[string]int{"delta": 4, "alpha": 1, "charlie": 3, "bravo": 2}
	for range 20 { // map order varies between iterations; the result must not
		if got := strings.Join(workflow.DeterministicKeys(m), ","); got != "alpha,bravo,charlie,delta" {
			t.Fatalf("DeterministicKeys = %s", got)
		}
	}
	byLength := func(a, b string) int { return len(a) - len(b) }
	byLengthThenName := func(a, b string) int {
		if d := byLength(a, b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	}
	if got := strings.Join(workflow.DeterministicKeysFunc(m, byLengthThenName), ","); got != "alpha,bravo,delta,charlie" {
		t.Fatalf("DeterministicKeysFunc = %s", got)
	}
	if len(workflow.DeterministicKeys(map[int]bool{})) != 0 {
		t.Fatal("keys of an empty map")
	}
}

// TestFacadeRunsWorkflowCode drives the forwarding functions through a
// runtime without an engine.
func TestFacadeRunsWorkflowCode(t *testing.T) {
	var log []string
	err := wfsynctest.Run(func(ctx workflow.Context) {
		ctx = workflow.WithValue(ctx, "who", "facade")
		child, cancel := workflow.WithCancel(ctx)
		cleanup, _ := workflow.NewDisconnectedContext(child)
		ch := workflow.NewNamedBufferedChannel(ctx, "items", 2)
		done := workflow.NewChannel(ctx)
		f, s := workflow.NewFuture(ctx)
		mu, sem, wg := workflow.NewMutex(ctx), workflow.NewSemaphore(ctx, 1), workflow.NewWaitGroup(ctx)
		wg.Add(1)
		workflow.GoNamed(ctx, "producer", func(ctx workflow.Context) {
			defer wg.Done()
			_ = mu.Lock(ctx)
			_ = sem.Acquire(ctx, 1)
			ch.Send(ctx, "a")
			ch.Send(ctx, "b")
			ch.Close()
			sem.Release(1)
			mu.Unlock()
			s.SetValue(ctx.Value("who"))
		})
		workflow.Go(ctx, func(ctx workflow.Context) {
			_ = workflow.NewNamedChannel(ctx, "unused")
			_ = workflow.NewBufferedChannel(ctx, 1)
			done.Receive(ctx, nil)
		})
		sel := workflow.NewSelector(ctx)
		var item string
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, more bool) {
			if c.Receive(ctx, &item) {
				log = append(log, item)
			}
		})
		var who string
		sel.AddFuture(f, func(f workflow.Future) { _ = f.Get(ctx, &who) })
		for range 4 {
			sel.Select(ctx)
		}
		wg.Wait(ctx)
		_ = workflow.Await(ctx, func() bool { return who != "" })
		cancel()
		log = append(log, who, child.Err().Error(), ctx.Value("who").(string))
		if cleanup.Err() != nil || child.Err() != workflow.ErrCanceled {
			t.Error("cancellation did not follow the context tree")
		}
		workflow.NewNamedSelector(ctx, "final").AddSend(done, nil, func() {}).Select(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, ","); got != "a,b,facade,canceled,facade" {
		t.Fatalf("log = %s", got)
	}
	if workflow.ErrDeadlineExceeded == nil {
		t.Fatal("ErrDeadlineExceeded is nil")
	}
}
