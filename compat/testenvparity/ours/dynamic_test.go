package parity

import (
	"errors"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/workflow"
)

// Echo runs every workflow type not registered by name: it returns its
// type and argument.
func Echo(ctx workflow.Context, args converter.EncodedValues) (string, error) {
	var s string
	if err := args.Get(&s); err != nil {
		return "", err
	}
	return workflow.GetInfo(ctx).WorkflowType.Name + ": " + s, nil
}

func (s *ParitySuite) TestADynamicWorkflowWithRuntimeOptionsRuns() {
	asked := 0
	s.env.RegisterDynamicWorkflow(Echo, workflow.DynamicRegisterOptions{
		LoadDynamicRuntimeOptions: func(details workflow.LoadDynamicRuntimeOptionsDetails) (workflow.DynamicRuntimeOptions, error) {
			asked++
			return workflow.DynamicRuntimeOptions{VersioningBehavior: workflow.VersioningBehaviorPinned}, nil
		},
	})
	s.env.ExecuteWorkflow("Anything", "hi")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("Anything: hi", got)
	s.Zero(asked, "without worker versioning, the options are never asked for")
}

func (s *ParitySuite) TestRuntimeOptionsThatFailDoNotStopADynamicChild() {
	s.env.RegisterDynamicWorkflow(Echo, workflow.DynamicRegisterOptions{
		LoadDynamicRuntimeOptions: func(workflow.LoadDynamicRuntimeOptionsDetails) (workflow.DynamicRuntimeOptions, error) {
			return workflow.DynamicRuntimeOptions{}, errors.New("no options for this type")
		},
	})
	s.env.RegisterWorkflowWithOptions(func(ctx workflow.Context) (string, error) {
		var got string
		err := workflow.ExecuteChildWorkflow(ctx, "Child", "there").Get(ctx, &got)
		return got, err
	}, workflow.RegisterOptions{Name: "Parent"})
	s.env.ExecuteWorkflow("Parent")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("Child: there", got)
}
