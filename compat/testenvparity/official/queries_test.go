package parity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/workflow"
)

// Ship is an activity the tests mock: it ships one parcel.
func Ship(_ context.Context, parcel string) error { return nil }

// Shipment ships its parcels one an hour and answers "shipped" queries
// with the parcels shipped so far, and "parcel" queries with the parcel
// at an index.
func Shipment(ctx workflow.Context, parcels []string) (int, error) {
	var shipped []string
	if err := workflow.SetQueryHandler(ctx, "shipped", func() ([]string, error) { return shipped, nil }); err != nil {
		return 0, err
	}
	if err := workflow.SetQueryHandler(ctx, "parcel", func(i int) (string, error) {
		if i < 0 || i >= len(parcels) {
			return "", fmt.Errorf("no parcel %d", i)
		}
		return parcels[i], nil
	}); err != nil {
		return 0, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	for _, p := range parcels {
		if err := workflow.Sleep(ctx, time.Hour); err != nil {
			return 0, err
		}
		if err := workflow.ExecuteActivity(ctx, Ship, p).Get(ctx, nil); err != nil {
			return 0, err
		}
		shipped = append(shipped, p)
	}
	return len(shipped), nil
}

func (s *ParitySuite) TestQueriesFromDelayedCallbacksSeeTheStateAtTheirTime() {
	s.env.OnActivity(Ship, mock.Anything, mock.Anything).Return(nil).Times(3)
	var seen [][]string
	query := func() {
		v, err := s.env.QueryWorkflow("shipped")
		s.Require().NoError(err)
		var shipped []string
		s.Require().NoError(v.Get(&shipped))
		seen = append(seen, shipped)
	}
	s.env.RegisterDelayedCallback(query, 30*time.Minute)
	s.env.RegisterDelayedCallback(query, 150*time.Minute)
	s.env.ExecuteWorkflow(Shipment, []string{"a", "b", "c"})
	s.NoError(s.env.GetWorkflowError())
	query() // after the end, the final state answers
	s.Equal([][]string{nil, {"a", "b"}, {"a", "b", "c"}}, seen)
}

func (s *ParitySuite) TestAQueryHandlersErrorAndAnUnknownQuery() {
	s.env.OnActivity(Ship, mock.Anything, mock.Anything).Return(nil)
	s.env.RegisterDelayedCallback(func() {
		v, err := s.env.QueryWorkflow("parcel", 1)
		s.Require().NoError(err)
		var p string
		s.NoError(v.Get(&p))
		s.Equal("b", p)

		_, err = s.env.QueryWorkflow("parcel", 7)
		s.Require().Error(err)
		s.Contains(err.Error(), "no parcel 7")

		_, err = s.env.QueryWorkflow("weight")
		s.Require().Error(err, "a query type without a handler fails")
		s.Contains(err.Error(), "weight")
	}, time.Minute)
	s.env.ExecuteWorkflow(Shipment, []string{"a", "b"})
	s.NoError(s.env.GetWorkflowError())
	_, err := s.env.QueryWorkflow("parcel", -1)
	s.True(err != nil && !errors.Is(err, context.DeadlineExceeded), "after the end too: %v", err)
}
