package parity

import (
	"bytes"
	"context"
	"errors"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// refusedByKeyService is in every payload the key service codec refuses.
const refusedByKeyService = "needs-the-key-service"

// keyServiceCodec stands for an encryption codec whose key service is
// down: it asks to fail the workflow task, rather than the workflow, for
// the payloads that need a key (those holding refusedByKeyService).
type keyServiceCodec struct {
	onDecode bool
	err      error
}

func (c keyServiceCodec) refuses(payloads []*commonpb.Payload) bool {
	for _, p := range payloads {
		if bytes.Contains(p.GetData(), []byte(refusedByKeyService)) {
			return true
		}
	}
	return false
}

func (c keyServiceCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if !c.onDecode && c.refuses(payloads) {
		return nil, c.err
	}
	return payloads, nil
}

func (c keyServiceCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if c.onDecode && c.refuses(payloads) {
		return nil, c.err
	}
	return payloads, nil
}

// The test environment does not retry workflow tasks: a codec's request to
// fail one ends the test with a workflow error that wraps the request and
// its cause, and is no panic.
func (s *ParitySuite) TestACodecsWorkflowTaskFailureEndsTheTestWithItsError() {
	activityCtx := func(ctx workflow.Context) workflow.Context {
		return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	}
	cases := []struct {
		name           string
		onDecode       bool
		failureDetails bool
		workflow       any
	}{
		{name: "child workflow input", workflow: func(ctx workflow.Context) error {
			return workflow.ExecuteChildWorkflow(ctx, "child", refusedByKeyService).Get(ctx, nil)
		}},
		{name: "activity input, error ignored", workflow: func(ctx workflow.Context) error {
			_ = workflow.ExecuteActivity(activityCtx(ctx), "echo", refusedByKeyService).Get(ctx, nil)
			return nil
		}},
		{name: "activity result", onDecode: true, workflow: func(ctx workflow.Context) (string, error) {
			var result string
			err := workflow.ExecuteActivity(activityCtx(ctx), "sensitive").Get(ctx, &result)
			return result, err
		}},
		{name: "workflow result", workflow: func(ctx workflow.Context) (string, error) {
			return refusedByKeyService, nil
		}},
		{name: "a child's own workflow task", workflow: func(ctx workflow.Context) error {
			return workflow.ExecuteChildWorkflow(ctx, "childCallingEcho").Get(ctx, nil)
		}},
		{name: "failure details", failureDetails: true, workflow: func(ctx workflow.Context) error {
			return temporal.NewApplicationError("failed", "Refused", refusedByKeyService)
		}},
	}
	for _, c := range cases {
		s.Run(c.name, func() {
			cause := errors.New("key service unavailable")
			dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(),
				keyServiceCodec{onDecode: c.onDecode, err: converter.NewWorkflowTaskFailureError(cause)})
			env := s.NewTestWorkflowEnvironment()
			env.SetDataConverter(dc)
			if c.failureDetails {
				env.SetFailureConverter(temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{DataConverter: dc}))
			}
			env.RegisterActivityWithOptions(func(_ context.Context, in string) (string, error) { return in, nil }, activity.RegisterOptions{Name: "echo"})
			env.RegisterActivityWithOptions(func(context.Context) (string, error) { return refusedByKeyService, nil }, activity.RegisterOptions{Name: "sensitive"})
			env.RegisterWorkflowWithOptions(func(_ workflow.Context, in string) (string, error) { return in, nil }, workflow.RegisterOptions{Name: "child"})
			env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
				return workflow.ExecuteActivity(activityCtx(ctx), "echo", refusedByKeyService).Get(ctx, nil)
			}, workflow.RegisterOptions{Name: "childCallingEcho"})
			env.RegisterWorkflowWithOptions(c.workflow, workflow.RegisterOptions{Name: "workflow"})
			env.ExecuteWorkflow("workflow")

			s.True(env.IsWorkflowCompleted())
			err := env.GetWorkflowError()
			var request *converter.WorkflowTaskFailureError
			s.ErrorAs(err, &request)
			s.ErrorIs(err, cause)
			var panicErr *temporal.PanicError
			s.False(errors.As(err, &panicErr), "the codec's request is no panic: %v", err)
		})
	}
}
