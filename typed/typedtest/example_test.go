package typedtest_test

import (
	"fmt"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

// ShipParcel is a child workflow: it ships a parcel and returns its
// tracking number.
func ShipParcel(ctx workflow.Context, parcel string) (string, error) {
	return "", fmt.Errorf("a test of the parent does not ship %s", parcel)
}

// ShipOrder is the parent: it ships its one parcel with a child.
func ShipOrder(ctx workflow.Context, parcel string) (string, error) {
	return typed.ExecuteChildWorkflow(ctx, ShipParcel, parcel).Get(ctx)
}

// A child workflow mocked with its own types: Return(42, nil) would not
// compile, as ShipParcel returns a string.
func ExampleOnWorkflow() {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	typedtest.OnWorkflow(env, ShipParcel, "books").Return("T-1", nil).Once()
	tracking, err := typedtest.ExecuteWorkflow(env, ShipOrder, "books")
	fmt.Println(tracking, err)
	// Output: T-1 <nil>
}
