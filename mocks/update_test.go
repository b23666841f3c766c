package mocks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/mocks"
)

// addItem sends the cart an update and returns the cart's new size.
func addItem(ctx context.Context, c client.Client, cartID, item string) (int, error) {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   cartID,
		UpdateName:   "add-item",
		Args:         []any{item},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return 0, err
	}
	var size int
	err = handle.Get(ctx, &size)
	return size, err
}

func TestClientUpdateWorkflowReturnsTheMockedHandle(t *testing.T) {
	handle := mocks.NewWorkflowUpdateHandle(t)
	handle.On("Get", mock.Anything, mock.AnythingOfType("*int")).
		Run(func(args mock.Arguments) { *args.Get(1).(*int) = 3 }).
		Return(nil)
	c := mocks.NewClient(t)
	c.On("UpdateWorkflow", mock.Anything, client.UpdateWorkflowOptions{
		WorkflowID:   "cart-1",
		UpdateName:   "add-item",
		Args:         []any{"apple"},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	}).Return(handle, nil)

	size, err := addItem(t.Context(), c, "cart-1", "apple")
	require.NoError(t, err)
	require.Equal(t, 3, size)
}

func TestWorkflowUpdateHandleIDs(t *testing.T) {
	handle := mocks.NewWorkflowUpdateHandle(t)
	handle.On("WorkflowID").Return("cart-1")
	handle.On("RunID").Return("run-1")
	handle.On("UpdateID").Return("update-1")
	c := mocks.NewClient(t)
	c.On("GetWorkflowUpdateHandle", client.GetWorkflowUpdateHandleOptions{WorkflowID: "cart-1", UpdateID: "update-1"}).
		Return(handle)

	got := c.GetWorkflowUpdateHandle(client.GetWorkflowUpdateHandleOptions{WorkflowID: "cart-1", UpdateID: "update-1"})
	require.Equal(t, []string{"cart-1", "run-1", "update-1"}, []string{got.WorkflowID(), got.RunID(), got.UpdateID()})
}

// cartSize queries the cart's size.
func cartSize(ctx context.Context, c client.Client, cartID string) (int, error) {
	value, err := c.QueryWorkflow(ctx, cartID, "", "size")
	if err != nil || !value.HasValue() {
		return 0, err
	}
	var size int
	err = value.Get(&size)
	return size, err
}

func TestClientQueryWorkflowReturnsTheMockedValue(t *testing.T) {
	value := mocks.NewEncodedValue(t)
	value.On("HasValue").Return(true)
	value.On("Get", mock.AnythingOfType("*int")).
		Run(func(args mock.Arguments) { *args.Get(0).(*int) = 5 }).
		Return(nil)
	c := mocks.NewClient(t)
	c.On("QueryWorkflow", mock.Anything, "cart-1", "", "size").Return(value, nil)

	size, err := cartSize(t.Context(), c, "cart-1")
	require.NoError(t, err)
	require.Equal(t, 5, size)
}

func TestValuePayloadsServeConverterGetPayloads(t *testing.T) {
	payloads := &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(`5`)}}}
	value := mocks.NewValue(t)
	value.On("Payloads").Return(payloads).Once()

	var encoded converter.EncodedValue = value
	require.Same(t, payloads, converter.GetPayloads(encoded))
}
