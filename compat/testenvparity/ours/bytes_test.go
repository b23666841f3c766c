package parity

import (
	"context"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/workflow"
)

// Store saves a blob under a key; the tests mock it.
func Store(_ context.Context, key string, blob []byte) (int, error) { return len(blob), nil }

// Storing stores blob under "k".
func Storing(ctx workflow.Context, blob []byte) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var n int
	err := workflow.ExecuteActivity(ctx, Store, "k", blob).Get(ctx, &n)
	return n, err
}

func (s *ParitySuite) TestAnEmptyByteSliceReachesAMockAsAnEmptySlice() {
	s.env.OnActivity(Store, mock.Anything, "k", []byte{}).Return(0, nil).Once()
	s.env.ExecuteWorkflow(Storing, []byte{})
	s.NoError(s.env.GetWorkflowError())
}

func (s *ParitySuite) TestANilByteSliceReachesAMockAsNil() {
	s.env.OnActivity(Store, mock.Anything, "k", []byte(nil)).Return(0, nil).Once()
	s.env.ExecuteWorkflow(Storing, []byte(nil))
	s.NoError(s.env.GetWorkflowError())
}

func (s *ParitySuite) TestAnActivityReceivesAnEmptyByteSliceAsAnEmptySlice() {
	var received []byte
	s.env.RegisterActivityWithOptions(func(_ context.Context, key string, blob []byte) (int, error) {
		received = blob
		return len(blob), nil
	}, activity.RegisterOptions{Name: "Store"})
	s.env.ExecuteWorkflow(Storing, []byte{})
	s.NoError(s.env.GetWorkflowError())
	s.NotNil(received)
	s.Empty(received)
}
