package updates

import (
	"context"
	"fmt"

	officialconverter "go.temporal.io/sdk/converter"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
)

// The names of the updates, signals and queries of UpdatesWorkflow.
const (
	// updateAdd adds its argument to the workflow's total and returns the
	// new total; its validator rejects negative numbers.
	updateAdd = "add"
	// updateFail fails with an application error of type UpdateFailed
	// whose message is its argument.
	updateFail = "fail"
	// updateWaitForRelease completes, with "released", once the workflow
	// has received the release signal.
	updateWaitForRelease = "waitForRelease"
	// updateHeader returns the value that the header field named by its
	// argument carried into the handler's context.
	updateHeader = "header"
	// queryAdds is how many times the add handler has run.
	queryAdds = "adds"
	// signalRelease releases the waitForRelease updates.
	signalRelease = "release"
	// signalDone ends the workflow, which returns its total.
	signalDone = "done"
)

// propagatedHeaderFields are the header fields that
// officialHeaderPropagator carries into workflow contexts.
var propagatedHeaderFields = []string{"tenant", "intercepted"}

// headerFieldKey is the workflow context key of a header field's value.
type headerFieldKey string

// officialHeaderPropagator gives workflows of the official worker the
// string values of propagatedHeaderFields.
type officialHeaderPropagator struct{}

func (officialHeaderPropagator) Inject(context.Context, official.HeaderWriter) error { return nil }

func (officialHeaderPropagator) Extract(ctx context.Context, _ official.HeaderReader) (context.Context, error) {
	return ctx, nil
}

func (officialHeaderPropagator) InjectFromWorkflow(official.Context, official.HeaderWriter) error {
	return nil
}

func (officialHeaderPropagator) ExtractToWorkflow(ctx official.Context, reader official.HeaderReader) (official.Context, error) {
	for _, field := range propagatedHeaderFields {
		payload, ok := reader.Get(field)
		if !ok {
			continue
		}
		var value string
		if err := officialconverter.GetDefaultDataConverter().FromPayload(payload, &value); err != nil {
			return nil, fmt.Errorf("header field %q: %w", field, err)
		}
		ctx = official.WithValue(ctx, headerFieldKey(field), value)
	}
	return ctx, nil
}

// UpdatesWorkflowOfficial keeps a total, starting at start, that updates
// change, and returns it when signaled done.
func UpdatesWorkflowOfficial(ctx official.Context, start int) (int, error) {
	total, adds, released := start, 0, false
	err := official.SetUpdateHandlerWithOptions(ctx, updateAdd, func(ctx official.Context, n int) (int, error) {
		adds++
		total += n
		return total, nil
	}, official.UpdateHandlerOptions{Validator: func(ctx official.Context, n int) error {
		if n < 0 {
			return fmt.Errorf("cannot add %d: only positive numbers", n)
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	if err := official.SetUpdateHandler(ctx, updateFail, func(ctx official.Context, reason string) (int, error) {
		return 0, officialtemporal.NewApplicationError(reason, "UpdateFailed", "detail")
	}); err != nil {
		return 0, err
	}
	if err := official.SetUpdateHandler(ctx, updateWaitForRelease, func(ctx official.Context) (string, error) {
		if err := official.Await(ctx, func() bool { return released }); err != nil {
			return "", err
		}
		return "released", nil
	}); err != nil {
		return 0, err
	}
	if err := official.SetUpdateHandler(ctx, updateHeader, func(ctx official.Context, field string) (string, error) {
		value, _ := ctx.Value(headerFieldKey(field)).(string)
		return value, nil
	}); err != nil {
		return 0, err
	}
	if err := official.SetQueryHandler(ctx, queryAdds, func() (int, error) { return adds, nil }); err != nil {
		return 0, err
	}
	official.Go(ctx, func(ctx official.Context) {
		official.GetSignalChannel(ctx, signalRelease).Receive(ctx, nil)
		released = true
	})
	official.GetSignalChannel(ctx, signalDone).Receive(ctx, nil)
	return total, nil
}

// ourHeaderPropagator gives workflows of this SDK's worker the string
// values of propagatedHeaderFields.
type ourHeaderPropagator struct{}

func (ourHeaderPropagator) Inject(context.Context, ours.HeaderWriter) error { return nil }

func (ourHeaderPropagator) Extract(ctx context.Context, _ ours.HeaderReader) (context.Context, error) {
	return ctx, nil
}

func (ourHeaderPropagator) InjectFromWorkflow(ours.Context, ours.HeaderWriter) error { return nil }

func (ourHeaderPropagator) ExtractToWorkflow(ctx ours.Context, reader ours.HeaderReader) (ours.Context, error) {
	for _, field := range propagatedHeaderFields {
		payload, ok := reader.Get(field)
		if !ok {
			continue
		}
		var value string
		if err := converter.GetDefaultDataConverter().FromPayload(payload, &value); err != nil {
			return nil, fmt.Errorf("header field %q: %w", field, err)
		}
		ctx = ours.WithValue(ctx, headerFieldKey(field), value)
	}
	return ctx, nil
}

// UpdatesWorkflowOurs is UpdatesWorkflowOfficial written with this SDK.
func UpdatesWorkflowOurs(ctx ours.Context, start int) (int, error) {
	total, adds, released := start, 0, false
	err := ours.SetUpdateHandlerWithOptions(ctx, updateAdd, func(ctx ours.Context, n int) (int, error) {
		adds++
		total += n
		return total, nil
	}, ours.UpdateHandlerOptions{Validator: func(ctx ours.Context, n int) error {
		if n < 0 {
			return fmt.Errorf("cannot add %d: only positive numbers", n)
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	if err := ours.SetUpdateHandler(ctx, updateFail, func(ctx ours.Context, reason string) (int, error) {
		return 0, temporal.NewApplicationError(reason, "UpdateFailed", "detail")
	}); err != nil {
		return 0, err
	}
	if err := ours.SetUpdateHandler(ctx, updateWaitForRelease, func(ctx ours.Context) (string, error) {
		if err := ours.Await(ctx, func() bool { return released }); err != nil {
			return "", err
		}
		return "released", nil
	}); err != nil {
		return 0, err
	}
	if err := ours.SetUpdateHandler(ctx, updateHeader, func(ctx ours.Context, field string) (string, error) {
		value, _ := ctx.Value(headerFieldKey(field)).(string)
		return value, nil
	}); err != nil {
		return 0, err
	}
	if err := ours.SetQueryHandler(ctx, queryAdds, func() (int, error) { return adds, nil }); err != nil {
		return 0, err
	}
	ours.Go(ctx, func(ctx ours.Context) {
		ours.GetSignalChannel(ctx, signalRelease).Receive(ctx, nil)
		released = true
	})
	ours.GetSignalChannel(ctx, signalDone).Receive(ctx, nil)
	return total, nil
}
