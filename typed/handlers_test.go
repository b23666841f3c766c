package typed_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

var (
	AddItem       = typed.NewUpdate[string, int]("add-item")
	ClearCart     = typed.NewUpdate[string, typed.None]("clear-cart")
	ItemCount     = typed.NewQuery0[int]("item-count")
	ItemsMatching = typed.NewQuery[string, []string]("items-matching")
	Checkout      = typed.NewSignal[typed.None]("checkout")
)

// cartTyped answers queries and runs updates until it is checked out,
// with the typed API.
func cartTyped(ctx workflow.Context) ([]string, error) {
	var items []string
	if err := typed.SetQueryHandler0(ctx, ItemCount, func() (int, error) { return len(items), nil }); err != nil {
		return nil, err
	}
	err := typed.SetQueryHandlerWithOptions(ctx, ItemsMatching, func(prefix string) ([]string, error) {
		var matching []string
		for _, item := range items {
			if strings.HasPrefix(item, prefix) {
				matching = append(matching, item)
			}
		}
		return matching, nil
	}, workflow.QueryHandlerOptions{Description: "the items whose names start with the argument"})
	if err != nil {
		return nil, err
	}
	err = typed.SetUpdateHandlerWithOptions(ctx, AddItem, func(ctx workflow.Context, item string) (int, error) {
		items = append(items, item)
		return len(items), nil
	}, typed.UpdateHandlerOptions[string]{
		Validator: func(ctx workflow.Context, item string) error {
			if item == "" {
				return errors.New("an item needs a name")
			}
			return nil
		},
		Description: "adds an item; answers the number of items",
	})
	if err != nil {
		return nil, err
	}
	err = typed.SetUpdateHandler(ctx, ClearCart, func(ctx workflow.Context, reason string) (typed.None, error) {
		if err := workflow.Sleep(ctx, time.Second); err != nil { // a handler may block
			return typed.None{}, err
		}
		items = nil
		return typed.None{}, nil
	})
	if err != nil {
		return nil, err
	}
	typed.GetSignalChannel(ctx, Checkout).Receive(ctx)
	return items, nil
}

// cartUntyped is cartTyped with the untyped API.
func cartUntyped(ctx workflow.Context) ([]string, error) {
	var items []string
	if err := workflow.SetQueryHandler(ctx, "item-count", func() (int, error) { return len(items), nil }); err != nil {
		return nil, err
	}
	err := workflow.SetQueryHandlerWithOptions(ctx, "items-matching", func(prefix string) ([]string, error) {
		var matching []string
		for _, item := range items {
			if strings.HasPrefix(item, prefix) {
				matching = append(matching, item)
			}
		}
		return matching, nil
	}, workflow.QueryHandlerOptions{Description: "the items whose names start with the argument"})
	if err != nil {
		return nil, err
	}
	err = workflow.SetUpdateHandlerWithOptions(ctx, "add-item", func(ctx workflow.Context, item string) (int, error) {
		items = append(items, item)
		return len(items), nil
	}, workflow.UpdateHandlerOptions{
		Validator: func(ctx workflow.Context, item string) error {
			if item == "" {
				return errors.New("an item needs a name")
			}
			return nil
		},
		Description: "adds an item; answers the number of items",
	})
	if err != nil {
		return nil, err
	}
	err = workflow.SetUpdateHandler(ctx, "clear-cart", func(ctx workflow.Context, reason string) error {
		if err := workflow.Sleep(ctx, time.Second); err != nil {
			return err
		}
		items = nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	workflow.GetSignalChannel(ctx, "checkout").Receive(ctx, nil)
	return items, nil
}

// untypedUpdate is an update's outcome heard through the untyped
// callbacks.
type untypedUpdate struct {
	rejected error
	result   any
	err      error
}

func (u *untypedUpdate) callbacks() *testsuite.TestUpdateCallback {
	return &testsuite.TestUpdateCallback{
		OnReject:   func(err error) { u.rejected = err },
		OnComplete: func(v any, err error) { u.result, u.err = v, err },
	}
}

func TestQueriesAndUpdatesWriteTheSameHistoryTypedAndUntyped(t *testing.T) {
	// The updates and queries go at the same moments to both forms: an
	// item, an item without a name (rejected), another item, the queries,
	// a clear, an item, and the checkout.
	var added1, rejected, added2, added3 *typedtest.UpdateResult[int]
	var clearedResult *typedtest.UpdateResult[typed.None]
	var count int
	var matching []string
	var queryErrs []error
	typedRun := runAs(t, "Cart", cartTyped, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { added1 = typedtest.UpdateWorkflow(env, AddItem, "u1", "apple") }, time.Minute)
		env.RegisterDelayedCallback(func() { rejected = typedtest.UpdateWorkflow(env, AddItem, "u2", "") }, 2*time.Minute)
		env.RegisterDelayedCallback(func() { added2 = typedtest.UpdateWorkflow(env, AddItem, "u3", "avocado") }, 3*time.Minute)
		env.RegisterDelayedCallback(func() {
			var err1, err2 error
			count, err1 = typedtest.QueryWorkflow0(env, ItemCount)
			matching, err2 = typedtest.QueryWorkflow(env, ItemsMatching, "av")
			queryErrs = []error{err1, err2}
		}, 4*time.Minute)
		env.RegisterDelayedCallback(func() { clearedResult = typedtest.UpdateWorkflow(env, ClearCart, "u4", "changed my mind") }, 5*time.Minute)
		env.RegisterDelayedCallback(func() { added3 = typedtest.UpdateWorkflow(env, AddItem, "u5", "fig") }, 6*time.Minute)
		env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, Checkout, typed.None{}) }, 7*time.Minute)
	})

	untyped := map[string]*untypedUpdate{}
	untypedRun := runAs(t, "Cart", cartUntyped, func(env *testsuite.TestWorkflowEnvironment) {
		send := func(name, id, arg string) func() {
			return func() {
				untyped[id] = &untypedUpdate{}
				env.UpdateWorkflow(name, id, untyped[id].callbacks(), arg)
			}
		}
		env.RegisterDelayedCallback(send("add-item", "u1", "apple"), time.Minute)
		env.RegisterDelayedCallback(send("add-item", "u2", ""), 2*time.Minute)
		env.RegisterDelayedCallback(send("add-item", "u3", "avocado"), 3*time.Minute)
		env.RegisterDelayedCallback(func() {
			if _, err := env.QueryWorkflow("item-count"); err != nil {
				t.Error(err)
			}
			if _, err := env.QueryWorkflow("items-matching", "av"); err != nil {
				t.Error(err)
			}
		}, 4*time.Minute)
		env.RegisterDelayedCallback(send("clear-cart", "u4", "changed my mind"), 5*time.Minute)
		env.RegisterDelayedCallback(send("add-item", "u5", "fig"), 6*time.Minute)
		env.RegisterDelayedCallback(func() { env.SignalWorkflow("checkout", nil) }, 7*time.Minute)
	})
	requireSameHistory(t, typedRun, untypedRun)

	for _, err := range queryErrs {
		if err != nil {
			t.Errorf("query: %v", err)
		}
	}
	if count != 2 || fmt.Sprint(matching) != "[avocado]" {
		t.Errorf("the typed queries answered %d and %v, want 2 and [avocado]", count, matching)
	}
	for _, u := range []struct {
		name string
		got  *typedtest.UpdateResult[int]
		want int
	}{{"u1", added1, 1}, {"u3", added2, 2}, {"u5", added3, 1}} {
		n, err := u.got.Get()
		if err != nil || n != u.want || !u.got.Accepted() {
			t.Errorf("update %s: %d, %v (accepted %v); want %d", u.name, n, err, u.got.Accepted(), u.want)
		}
		if untyped[u.name].result != u.want {
			t.Errorf("untyped update %s: %v, want %d", u.name, untyped[u.name].result, u.want)
		}
	}
	if _, err := rejected.Get(); err == nil || !strings.Contains(err.Error(), "an item needs a name") || rejected.Accepted() {
		t.Errorf("the update without a name: %v (accepted %v), want the validator's rejection", err, rejected.Accepted())
	}
	if _, err := clearedResult.Get(); err != nil {
		t.Errorf("clear-cart: %v", err)
	}
	var items []string
	if err := typedRun.GetWorkflowResult(&items); err != nil || fmt.Sprint(items) != "[fig]" {
		t.Errorf("the typed cart ended with %v, %v; want [fig]", items, err)
	}
	types := eventTypes(historyOf(t, typedRun))
	if n := strings.Count(types, "WorkflowExecutionUpdateCompleted"); n != 4 {
		t.Errorf("%d updates completed in the history, want 4 (the rejected one leaves none): %s", n, types)
	}
}
