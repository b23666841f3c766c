package compat

// The workflows of TestSignalWithStartWorkflowMatchesTheOfficialSDK: one
// source, spelled once for each SDK (TestSignalWithStartWorkflowIsOneSource
// checks that the two spellings differ only in the SDK they name).

import (
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"

	ourstemporal "github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
)

// SignalWithStartTargetWorkflowOurs waits for its signal and says what it
// was started with and what it was signaled.
func SignalWithStartTargetWorkflowOurs(ctx ours.Context, input string) (string, error) {
	var signal string
	ours.GetSignalChannel(ctx, signalWithStartSignal).Receive(ctx, &signal)
	return fmt.Sprintf("started with %q, signaled %q", input, signal), nil
}

// SignalWithStartCallerWorkflowOurs signal-with-starts targetID as
// scenario says and describes what the future gave: the execution (the ID
// and run ID it names) or the error chain.
func SignalWithStartCallerWorkflowOurs(ctx ours.Context, targetID, scenario string) (string, error) {
	opts := ours.SignalWithStartWorkflowOptions{StaticSummary: "target of " + scenario}
	if scenario == "reject-duplicate" {
		opts.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	}
	var we ours.Execution
	err := ours.SignalWithStartWorkflow(ctx, opts, targetID, signalWithStartSignal, "signal of "+scenario,
		"SignalWithStartTargetWorkflow", "input of "+scenario).Get(ctx, &we)
	var serverError *ourstemporal.ServerError
	return fmt.Sprintf("id %s, run %s, error %s, a server error %v", we.ID, we.RunID, describeNexusErrorOurs(err), errors.As(err, &serverError)), nil
}

// SignalWithStartTargetWorkflowOfficial waits for its signal and says what it
// was started with and what it was signaled.
func SignalWithStartTargetWorkflowOfficial(ctx official.Context, input string) (string, error) {
	var signal string
	official.GetSignalChannel(ctx, signalWithStartSignal).Receive(ctx, &signal)
	return fmt.Sprintf("started with %q, signaled %q", input, signal), nil
}

// SignalWithStartCallerWorkflowOfficial signal-with-starts targetID as
// scenario says and describes what the future gave: the execution (the ID
// and run ID it names) or the error chain.
func SignalWithStartCallerWorkflowOfficial(ctx official.Context, targetID, scenario string) (string, error) {
	opts := official.SignalWithStartWorkflowOptions{StaticSummary: "target of " + scenario}
	if scenario == "reject-duplicate" {
		opts.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	}
	var we official.Execution
	err := official.SignalWithStartWorkflow(ctx, opts, targetID, signalWithStartSignal, "signal of "+scenario,
		"SignalWithStartTargetWorkflow", "input of "+scenario).Get(ctx, &we)
	var serverError *officialtemporal.ServerError
	return fmt.Sprintf("id %s, run %s, error %s, a server error %v", we.ID, we.RunID, describeNexusErrorOfficial(err), errors.As(err, &serverError)), nil
}
