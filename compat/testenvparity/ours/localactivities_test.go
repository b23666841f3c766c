package parity

import (
	"context"
	"errors"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Lookup is a local activity the tests mock: a cache read.
func Lookup(_ context.Context, key string) (string, error) { return "", nil }

// LookUpAll reads each key with a local activity.
func LookUpAll(ctx workflow.Context, keys []string) ([]string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Millisecond, MaximumAttempts: 3},
	})
	var values []string
	for _, k := range keys {
		var v string
		if err := workflow.ExecuteLocalActivity(ctx, Lookup, k).Get(ctx, &v); err != nil {
			return nil, err
		}
		values = append(values, v)
	}
	return values, nil
}

func (s *ParitySuite) TestMockedLocalActivitiesAndTheirListeners() {
	s.env.OnActivity(Lookup, mock.Anything, mock.Anything).Return(func(_ context.Context, key string) (string, error) {
		return "value of " + key, nil
	})
	var started []string
	var results []string
	s.env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, args []any) {
		s.True(info.IsLocalActivity)
		started = append(started, info.ActivityType.Name+"("+args[0].(string)+")")
	})
	s.env.SetOnLocalActivityCompletedListener(func(_ *activity.Info, result converter.EncodedValue, err error) {
		s.NoError(err)
		var v string
		s.NoError(result.Get(&v))
		results = append(results, v)
	})
	s.env.ExecuteWorkflow(LookUpAll, []string{"a", "b"})
	var values []string
	s.Require().NoError(s.env.GetWorkflowResult(&values))
	s.Equal([]string{"value of a", "value of b"}, values)
	s.Equal([]string{"Lookup(a)", "Lookup(b)"}, started)
	s.Equal(values, results)
	s.env.AssertNumberOfCalls(s.T(), "Lookup", 2)
}

func (s *ParitySuite) TestALocalActivityRetriesUntilItSucceeds() {
	attempts := 0
	s.env.RegisterActivityWithOptions(func(ctx context.Context, key string) (string, error) {
		attempts++
		if activity.GetInfo(ctx).Attempt < 3 {
			return "", errors.New("cache warming up")
		}
		return key + "!", nil
	}, activity.RegisterOptions{Name: "Lookup"})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: time.Second,
			RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Millisecond, MaximumAttempts: 3},
		})
		var v string
		err := workflow.ExecuteLocalActivity(ctx, "Lookup", "k").Get(ctx, &v)
		return v, err
	})
	var v string
	s.Require().NoError(s.env.GetWorkflowResult(&v))
	s.Equal("k!", v)
	s.Equal(3, attempts)
}

func (s *ParitySuite) TestALocalActivityOutOfAttemptsFailsTheWorkflow() {
	s.env.OnActivity(Lookup, mock.Anything, "z").Return("", errors.New("cache down"))
	s.env.ExecuteWorkflow(LookUpAll, []string{"z"})
	err := s.env.GetWorkflowError()
	// go.temporal.io/sdk's test environment wraps the error in an
	// ActivityError, its workers do not (nor this SDK's test
	// environment): look for the activity's own error.
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(err, &appErr), "%v", err)
	s.Equal("cache down", appErr.Message())
	s.env.AssertNumberOfCalls(s.T(), "Lookup", 3)
}

// CallsTheGivenFunction calls its argument, which no converter encodes: a
// local activity gets the workflow's Go values as they are.
func CallsTheGivenFunction(_ context.Context, greet func() string) (string, error) {
	return greet(), nil
}

func (s *ParitySuite) TestALocalActivityGetsGoValuesThatNoConverterEncodes() {
	greet := func() string { return "hello" }
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Second})
		var out string
		err := workflow.ExecuteLocalActivity(ctx, CallsTheGivenFunction, greet).Get(ctx, &out)
		return out, err
	})
	s.True(s.env.IsWorkflowCompleted())
	s.NoError(s.env.GetWorkflowError())
	var out string
	s.NoError(s.env.GetWorkflowResult(&out))
	s.Equal("hello", out)

	env := s.NewTestActivityEnvironment()
	v, err := env.ExecuteLocalActivity(CallsTheGivenFunction, greet)
	s.NoError(err)
	s.NoError(v.Get(&out))
	s.Equal("hello", out)
}
