package wfsync

import (
	"strings"
	"testing"
)

func TestValuesAreInheritedAndShadowed(t *testing.T) {
	tr := newTestRun(t)
	type key string
	ctx := WithValue(tr.ctx, key("a"), 1)
	child, cancel := WithCancel(WithValue(ctx, key("b"), 2))
	defer cancel()
	shadow := WithValue(child, key("a"), 3)
	if shadow.Value(key("a")) != 3 || shadow.Value(key("b")) != 2 || child.Value(key("a")) != 1 || ctx.Value(key("b")) != nil {
		t.Fatal("values are not looked up innermost first")
	}
	if _, ok := shadow.Deadline(); ok {
		t.Fatal("a workflow context has a deadline")
	}
	if RuntimeOf(shadow) != tr.rt {
		t.Fatal("a derived context does not reach the run's runtime")
	}
}

func TestCancelClosesDoneAndSetsErrOnceForTheWholeSubtree(t *testing.T) {
	tr := newTestRun(t)
	parent, cancelParent := WithCancel(tr.ctx)
	child, cancelChild := WithCancel(WithValue(parent, "k", "v"))
	grandchild, _ := WithCancel(child)
	if parent.Err() != nil || child.Err() != nil || grandchild.Err() != nil {
		t.Fatal("contexts start canceled")
	}
	if _, more := grandchild.Done().ReceiveAsyncWithMoreFlag(nil); !more {
		t.Fatal("Done is closed before cancellation")
	}
	cancelParent()
	for _, c := range []Context{parent, child, grandchild} {
		if c.Err() != ErrCanceled {
			t.Fatalf("Err() = %v after the parent was canceled", c.Err())
		}
		if _, more := c.Done().ReceiveAsyncWithMoreFlag(nil); more {
			t.Fatal("Done is not closed after cancellation")
		}
	}
	cancelChild() // no effect, no panic
	cancelParent()
	if tr.ctx.Err() != nil {
		t.Fatal("canceling a child canceled the root")
	}
}

func TestCanceledChildIsDetachedAndLateChildIsCanceledAtOnce(t *testing.T) {
	tr := newTestRun(t)
	parent, cancelParent := WithCancel(tr.ctx)
	a, cancelA := WithCancel(parent)
	b, _ := WithCancel(parent)
	c, _ := WithCancel(parent)
	cancelA()
	p := parent.(*cancelCtx)
	if p.first != b.(*cancelCtx) || p.last != c.(*cancelCtx) || p.first.nextSib != p.last {
		t.Fatal("a canceled child was not removed from its parent's list")
	}
	cancelParent()
	late, _ := WithCancel(parent)
	if a.Err() != ErrCanceled || late.Err() != ErrCanceled {
		t.Fatal("a child of a canceled context is not canceled")
	}
}

func TestCancellationReachesChildrenInCreationOrder(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	var cancelParent CancelFunc
	tr.start(func(ctx Context) {
		var parent Context
		parent, cancelParent = WithCancel(ctx)
		first, _ := WithCancel(parent)
		second, _ := WithCancel(parent)
		// The Select lists second first: the case that fires is the Done
		// channel closed first, which is first's.
		NewSelector(ctx).
			AddReceive(second.Done(), func(ReceiveChannel, bool) { events.add("second") }).
			AddReceive(first.Done(), func(ReceiveChannel, bool) { events.add("first") }).
			Select(ctx)
	})
	tr.run()
	cancelParent()
	tr.run()
	assertTrace(t, events, "first")
}

func TestDisconnectedContextKeepsValuesButNotCancellation(t *testing.T) {
	tr := newTestRun(t)
	parent, cancelParent := WithCancel(WithValue(tr.ctx, "tenant", "acme"))
	disconnected, cancelDisconnected := NewDisconnectedContext(parent)
	below, _ := WithCancel(disconnected)
	cancelParent()
	if disconnected.Err() != nil || below.Err() != nil {
		t.Fatal("canceling the parent canceled a disconnected context")
	}
	if disconnected.Value("tenant") != "acme" || RuntimeOf(below) != tr.rt {
		t.Fatal("a disconnected context lost its parent's values")
	}
	cancelDisconnected()
	if below.Err() != ErrCanceled {
		t.Fatal("canceling a disconnected context did not cancel its children")
	}
}

// wrappedContext is how interceptors and users wrap contexts: it embeds
// the workflow context and forwards everything.
type wrappedContext struct{ Context }

// replacedDone wraps a context but invents its own Done channel.
type replacedDone struct {
	Context
	done Channel
}

func (c replacedDone) Done() Channel { return c.done }

func TestWithCancelFindsTheParentThroughWrappers(t *testing.T) {
	tr := newTestRun(t)
	parent, cancel := WithCancel(tr.ctx)
	child, _ := WithCancel(wrappedContext{parent})
	cancel()
	if child.Err() != ErrCanceled {
		t.Fatal("the child of a wrapped context was not canceled with it")
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "does not come from a workflow context") {
			t.Fatalf("recovered %v", r)
		}
	}()
	WithCancel(replacedDone{Context: tr.ctx, done: newChannel("mine", 0)})
}
