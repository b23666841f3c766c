package compat

// The caller workflow of TestNexusCallerSideMatchesTheOfficialSDK: one
// source, spelled once for each SDK (TestNexusCallerWorkflowIsOneSource
// checks that the two spellings differ only in the SDK they name).

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"

	ourstemporal "github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
)

// NexusCallerWorkflowOurs calls one operation of the handler's service
// behind endpoint, as scenario says, and describes everything it saw: the
// result or the error chain, and the execution future's token and error.
func NexusCallerWorkflowOurs(ctx ours.Context, endpoint, scenario string) (string, error) {
	c := ours.NewNexusClient(endpoint, nexusServiceName)
	opts := ours.NexusOperationOptions{ScheduleToCloseTimeout: time.Minute, Summary: "scenario " + scenario,
		EventGroups: []ours.EventGroup{ours.NewEventGroup("nexus-call")}}
	operation, input := "run", "wait"
	cancels := map[string]ours.NexusOperationCancellationType{
		"abandon": ours.NexusOperationCancellationTypeAbandon, "try-cancel": ours.NexusOperationCancellationTypeTryCancel,
		"wait-requested": ours.NexusOperationCancellationTypeWaitRequested, "wait-completed": ours.NexusOperationCancellationTypeWaitCompleted,
	}
	switch scenario {
	case "sync":
		operation, input = "echo", "hi"
	case "workflow":
		input = "hi"
	case "fail", "refuse":
		operation = scenario
	case "timeout":
		opts.ScheduleToCloseTimeout = 3 * time.Second
	}
	opCtx, cancel := ours.WithCancel(ctx)
	defer cancel()
	cancellation, canceling := cancels[scenario]
	opts.CancellationType = cancellation
	fut := c.ExecuteOperation(opCtx, operation, input, opts)
	started := ""
	if scenario == "canceled-unsent" {
		// Canceled in the task that made them, with a timer made between
		// them and the cancel: no operation is sent, the timer and the
		// timer after the cancel move up in history, keeping their IDs.
		second := c.ExecuteOperation(opCtx, "echo", "second", opts)
		timer := ours.NewTimer(ctx, time.Millisecond)
		cancel()
		if err := timer.Get(ctx, nil); err != nil {
			return "", err
		}
		if err := ours.Sleep(ctx, time.Millisecond); err != nil {
			return "", err
		}
		started = fmt.Sprintf("second: %s; ", describeNexusErrorOurs(second.Get(ctx, nil)))
	}
	if canceling {
		var exec ours.NexusOperationExecution
		err := fut.GetNexusOperationExecution().Get(ctx, &exec)
		started = fmt.Sprintf("started: token set %v, error %s; ", exec.OperationToken != "", describeNexusErrorOurs(err))
		cancel()
	}
	var result string
	err := fut.Get(ctx, &result)
	var exec ours.NexusOperationExecution
	execErr := fut.GetNexusOperationExecution().Get(ctx, &exec)
	return fmt.Sprintf("%sresult %q, error %s; execution: token set %v, error %s",
		started, result, describeNexusErrorOurs(err), exec.OperationToken != "", describeNexusErrorOurs(execErr)), nil
}

// describeNexusErrorOurs renders an error chain by what each SDK's public
// types say of it.
func describeNexusErrorOurs(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *ourstemporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, service %s, operation %s, token set %v, scheduled at %d, failure kept %v}",
				x.Message, x.Service, x.Operation, x.OperationToken != "", x.ScheduledEventID, x.Failure != nil))
		case *nexus.HandlerError:
			parts = append(parts, fmt.Sprintf("HandlerError{%s, %q, retryable %v}", x.Type, x.Message, x.Retryable()))
		case *ourstemporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *ourstemporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *ourstemporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		default:
			parts = append(parts, fmt.Sprintf("error{%q}", e.Error()))
		}
	}
	return strings.Join(parts, " <- ")
}

// NexusCallerWorkflowOfficial calls one operation of the handler's service
// behind endpoint, as scenario says, and describes everything it saw: the
// result or the error chain, and the execution future's token and error.
func NexusCallerWorkflowOfficial(ctx official.Context, endpoint, scenario string) (string, error) {
	c := official.NewNexusClient(endpoint, nexusServiceName)
	opts := official.NexusOperationOptions{ScheduleToCloseTimeout: time.Minute, Summary: "scenario " + scenario,
		EventGroups: []official.EventGroup{official.NewEventGroup("nexus-call")}}
	operation, input := "run", "wait"
	cancels := map[string]official.NexusOperationCancellationType{
		"abandon": official.NexusOperationCancellationTypeAbandon, "try-cancel": official.NexusOperationCancellationTypeTryCancel,
		"wait-requested": official.NexusOperationCancellationTypeWaitRequested, "wait-completed": official.NexusOperationCancellationTypeWaitCompleted,
	}
	switch scenario {
	case "sync":
		operation, input = "echo", "hi"
	case "workflow":
		input = "hi"
	case "fail", "refuse":
		operation = scenario
	case "timeout":
		opts.ScheduleToCloseTimeout = 3 * time.Second
	}
	opCtx, cancel := official.WithCancel(ctx)
	defer cancel()
	cancellation, canceling := cancels[scenario]
	opts.CancellationType = cancellation
	fut := c.ExecuteOperation(opCtx, operation, input, opts)
	started := ""
	if scenario == "canceled-unsent" {
		// Canceled in the task that made them, with a timer made between
		// them and the cancel: no operation is sent, the timer and the
		// timer after the cancel move up in history, keeping their IDs.
		second := c.ExecuteOperation(opCtx, "echo", "second", opts)
		timer := official.NewTimer(ctx, time.Millisecond)
		cancel()
		if err := timer.Get(ctx, nil); err != nil {
			return "", err
		}
		if err := official.Sleep(ctx, time.Millisecond); err != nil {
			return "", err
		}
		started = fmt.Sprintf("second: %s; ", describeNexusErrorOfficial(second.Get(ctx, nil)))
	}
	if canceling {
		var exec official.NexusOperationExecution
		err := fut.GetNexusOperationExecution().Get(ctx, &exec)
		started = fmt.Sprintf("started: token set %v, error %s; ", exec.OperationToken != "", describeNexusErrorOfficial(err))
		cancel()
	}
	var result string
	err := fut.Get(ctx, &result)
	var exec official.NexusOperationExecution
	execErr := fut.GetNexusOperationExecution().Get(ctx, &exec)
	return fmt.Sprintf("%sresult %q, error %s; execution: token set %v, error %s",
		started, result, describeNexusErrorOfficial(err), exec.OperationToken != "", describeNexusErrorOfficial(execErr)), nil
}

// describeNexusErrorOfficial renders an error chain by what each SDK's public
// types say of it.
func describeNexusErrorOfficial(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *officialtemporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, service %s, operation %s, token set %v, scheduled at %d, failure kept %v}",
				x.Message, x.Service, x.Operation, x.OperationToken != "", x.ScheduledEventID, x.Failure != nil))
		case *nexus.HandlerError:
			parts = append(parts, fmt.Sprintf("HandlerError{%s, %q, retryable %v}", x.Type, x.Message, x.Retryable()))
		case *officialtemporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *officialtemporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *officialtemporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		default:
			parts = append(parts, fmt.Sprintf("error{%q}", e.Error()))
		}
	}
	return strings.Join(parts, " <- ")
}
