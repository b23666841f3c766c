package testsuite_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

type tenantKey struct{}

// tenantConverter is a converter.ContextAware converter that notes the
// contexts it is given: the tenant of a workflow context, whether a Go
// context is an activity's.
type tenantConverter struct {
	converter.DataConverter
	mu   *sync.Mutex
	seen *[]string
}

func (c tenantConverter) note(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*c.seen = append(*c.seen, s)
}

func (c tenantConverter) WithWorkflowContext(ctx workflow.Context) converter.DataConverter {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	c.note("workflow context of tenant " + tenant)
	return c
}

func (c tenantConverter) WithContext(ctx context.Context) converter.DataConverter {
	if activity.IsActivity(ctx) {
		c.note("context of activity " + activity.GetInfo(ctx).ActivityType.Name)
	}
	return c
}

// upperConverter encodes strings in upper case.
type upperConverter struct{ converter.DataConverter }

func (c upperConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if s, ok := value.(string); ok {
		value = strings.ToUpper(s)
	}
	return c.DataConverter.ToPayload(value)
}

func (c upperConverter) ToPayloads(values ...any) (*commonpb.Payloads, error) {
	ps := &commonpb.Payloads{}
	for _, v := range values {
		p, err := c.ToPayload(v)
		if err != nil {
			return nil, err
		}
		ps.Payloads = append(ps.Payloads, p)
	}
	return ps, nil
}

func echo(_ context.Context, s string) (string, error) { return s, nil }

func converterWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	ctx = workflow.WithValue(ctx, tenantKey{}, "acme")
	var plain, upper string
	if err := workflow.ExecuteActivity(ctx, echo, "plain").Get(ctx, &plain); err != nil {
		return "", err
	}
	upperCtx := workflow.WithDataConverter(ctx, upperConverter{converter.GetDefaultDataConverter()})
	if err := workflow.ExecuteActivity(upperCtx, echo, "loud").Get(ctx, &upper); err != nil {
		return "", err
	}
	return plain + " " + upper, nil
}

// A converter.ContextAware converter sees the workflow context of each
// call (its values) and the activity's context; WithDataConverter swaps
// the converter of the calls made with its context.
func TestContextAwareConverterAndWithDataConverter(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetDataConverter(tenantConverter{DataConverter: converter.GetDefaultDataConverter(), mu: &mu, seen: &seen})
	env.RegisterWorkflow(converterWorkflow)
	env.RegisterActivity(echo)
	env.ExecuteWorkflow(converterWorkflow)
	require.NoError(t, env.GetWorkflowError())
	var got string
	require.NoError(t, env.GetWorkflowResult(&got))
	require.Equal(t, "plain LOUD", got)
	mu.Lock()
	defer mu.Unlock()
	require.Contains(t, seen, "workflow context of tenant acme")
	require.Contains(t, seen, "context of activity echo")
}

// slowConverter takes 600ms to encode the string "slow", as a remote codec
// might.
type slowConverter struct{ converter.DataConverter }

func (c slowConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if value == "slow" {
		time.Sleep(600 * time.Millisecond)
	}
	return c.DataConverter.ToPayload(value)
}

func slowArgumentWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var got string
	err := workflow.ExecuteActivity(ctx, echo, "slow").Get(ctx, &got)
	return got, err
}

// A conversion slower than the deadlock timeout is a deadlock, unless the
// converter is wrapped by DataConverterWithoutDeadlockDetection.
func TestDataConverterWithoutDeadlockDetection(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		var dc converter.DataConverter = slowConverter{converter.GetDefaultDataConverter()}
		if wrapped {
			dc = workflow.DataConverterWithoutDeadlockDetection(dc)
		}
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: 200 * time.Millisecond})
		env.SetDataConverter(dc)
		env.RegisterWorkflow(slowArgumentWorkflow)
		env.RegisterActivity(echo)
		env.ExecuteWorkflow(slowArgumentWorkflow)
		if !wrapped {
			require.ErrorContains(t, env.GetWorkflowError(), "deadlock")
			continue
		}
		require.NoError(t, env.GetWorkflowError())
		var got string
		require.NoError(t, env.GetWorkflowResult(&got))
		require.Equal(t, "slow", got)
	}
}
