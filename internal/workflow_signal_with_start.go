package internal

import (
	"fmt"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/wfsync"
)

// The server runs some of its own API as Nexus operations behind a built-in
// endpoint: a workflow calls them as it calls any Nexus operation (one
// ScheduleNexusOperation command), with the API's request as the input.
// These are the names go.temporal.io/sdk sends, which histories record.
const (
	systemNexusEndpoint        = "__temporal_system"
	workflowServiceNexusName   = "temporal.api.workflowservice.v1.WorkflowService"
	signalWithStartNexusOpName = "SignalWithStartWorkflowExecution"
	// systemPayloadMetadataKey marks an operation input that is a request
	// of the server's API: codec proxies (go.temporal.io/api/proxy) open
	// it and visit the user payloads inside.
	systemPayloadMetadataKey = "__temporal_system_payload"
)

// systemNexusDataConverter encodes a system operation's request and decodes
// its response: binary protobuf, with no codec (the user payloads inside
// the request are encoded with the workflow's converter beforehand).
var systemNexusDataConverter = systemNexusConverter{converter.NewCompositeDataConverter(converter.NewProtoPayloadConverter())}

type systemNexusConverter struct{ converter.DataConverter }

// ToPayload encodes a request and marks it a system payload.
func (c systemNexusConverter) ToPayload(value any) (*commonpb.Payload, error) {
	p, err := c.DataConverter.ToPayload(value)
	if err != nil || p == nil {
		return p, err
	}
	p.Metadata[systemPayloadMetadataKey] = []byte("true")
	return p, nil
}

// nexusConverters are the converters of a Nexus operation's input, result
// and failure. An ordinary operation's are the workflow's, told the
// operation's NexusSerializationContext; a system operation's input is a
// request of the server's API, whose converter is
// systemNexusDataConverter, and its failures are converted with the
// context of the workflow the request concerns.
func (r *workflowRun) nexusConverters(ctx Context, client NexusClient, operation string, input any) (converter.DataConverter, converter.FailureConverter) {
	if client.Endpoint() == systemNexusEndpoint {
		fc := r.config.fc
		if req, ok := input.(*workflowservice.SignalWithStartWorkflowExecutionRequest); ok {
			fc = converter.WithFailureConverterSerializationContext(fc, converter.WorkflowSerializationContext{Namespace: req.GetNamespace(), WorkflowID: req.GetWorkflowId()})
		}
		return systemNexusDataConverter, fc
	}
	sc := converter.NexusSerializationContext{Endpoint: client.Endpoint(), Service: client.Service(), Operation: operation}
	return withWorkflowContext(converter.WithDataConverterSerializationContext(r.rootDataConverter(ctx), sc), ctx),
		converter.WithFailureConverterSerializationContext(r.config.fc, sc)
}

// SignalWithStartWorkflowOptions configure SignalWithStartWorkflow: how the
// workflow is started when it is not running.
type SignalWithStartWorkflowOptions struct {
	// TaskQueue is the workflow's task queue; the calling workflow's when
	// empty.
	TaskQueue string
	// WorkflowExecutionTimeout bounds the workflow with its retries and
	// continue-as-new runs; no limit when zero.
	WorkflowExecutionTimeout time.Duration
	// WorkflowRunTimeout bounds one run; WorkflowExecutionTimeout when
	// zero.
	WorkflowRunTimeout time.Duration
	// WorkflowTaskTimeout bounds one workflow task; 10 seconds when zero.
	WorkflowTaskTimeout time.Duration
	// WorkflowIDReusePolicy says whether a closed workflow's ID may be
	// used again; allow-duplicate when unspecified.
	WorkflowIDReusePolicy enumspb.WorkflowIdReusePolicy
	// WorkflowIDConflictPolicy says what happens when a workflow of the ID
	// runs; use-existing (the signal goes to it) when unspecified.
	WorkflowIDConflictPolicy enumspb.WorkflowIdConflictPolicy
	// RetryPolicy retries the workflow; none when nil.
	RetryPolicy *policy.RetryPolicy
	// CronSchedule runs the workflow on a cron schedule.
	CronSchedule string
	// Memo is the workflow's memo.
	Memo map[string]any
	// TypedSearchAttributes are the workflow's search attributes.
	TypedSearchAttributes searchattr.SearchAttributes
	// Priority is the workflow's priority.
	Priority *policy.Priority
	// VersioningOverride overrides the workflow's versioning behavior.
	VersioningOverride clientapi.VersioningOverride
	// StartDelay delays the workflow's first task (not with
	// CronSchedule).
	StartDelay time.Duration
	// StaticSummary is a one-line summary of the workflow that the UI and
	// the CLI show.
	StaticSummary string
	// StaticDetails are fixed details of the workflow that the UI and the
	// CLI show.
	StaticDetails string
}

// SignalWithStartWorkflow signals the workflow workflowID with signal and
// signalArg, starting it first (workflow, a function or a type name, with
// args) when it is not running. The server does it, as a Nexus operation
// on its built-in endpoint, so the call needs a server that enables it
// (history.enableSignalWithStartFromWorkflow). The future's value is the
// signaled run's WorkflowExecution; its error is a
// *NexusOperationError when the server refused or failed the request.
func SignalWithStartWorkflow(ctx Context, options SignalWithStartWorkflowOptions, workflowID, signal string, signalArg, workflow any, args ...any) Future {
	r := runOf(ctx)
	if r.readOnly {
		panic(&commands.ReadOnlyError{What: "workflow.SignalWithStartWorkflow"})
	}
	if options.TaskQueue == "" {
		options.TaskQueue = r.info.TaskQueueName
	}
	if options.WorkflowIDReusePolicy == enumspb.WORKFLOW_ID_REUSE_POLICY_UNSPECIFIED {
		options.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	}
	name, err := signalWithStartWorkflowName(r, workflow)
	if err != nil {
		panic(err) // a programming error, as in go.temporal.io/sdk
	}
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.SignalWithStartWorkflow(ctx, options, workflowID, signal, signalArg, name, passArgs(args)...)
}

func signalWithStartWorkflowName(r *workflowRun, workflow any) (string, error) {
	switch w := workflow.(type) {
	case string:
		return w, nil
	case nil:
		return "", fmt.Errorf("SignalWithStartWorkflow: the workflow is nil; pass a workflow function or a type name")
	}
	name := r.config.registry.WorkflowTypeOf(workflow)
	if name == "" {
		return "", fmt.Errorf("SignalWithStartWorkflow: %T is not a workflow; pass a workflow function or a type name", workflow)
	}
	return name, nil
}

func (w *workflowRoot) SignalWithStartWorkflow(ctx Context, options SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args ...any) Future {
	return w.run.signalWithStart(ctx, options, workflowID, signal, signalArg, workflowType, args)
}

// signalWithStart sends the request as go.temporal.io/sdk does: one
// operation of the system endpoint, whose input is the request, the user
// payloads in it encoded with the target workflow's serialization context;
// a coroutine turns the response into the signaled run's execution.
func (r *workflowRun) signalWithStart(ctx Context, options SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args []any) Future {
	result := &wfsync.SettableFuture{}
	req, err := r.signalWithStartRequest(ctx, options, workflowID, signal, signalArg, workflowType, args)
	if err != nil {
		result.SetError(err)
		return result
	}
	op := r.executeNexusOperation(ctx, ExecuteNexusOperationInput{
		Client:      nexusClient{endpoint: systemNexusEndpoint, service: workflowServiceNexusName},
		Operation:   signalWithStartNexusOpName,
		Input:       req,
		NexusHeader: nexus.Header{},
	})
	Go(ctx, func(ctx Context) {
		var resp workflowservice.SignalWithStartWorkflowExecutionResponse
		if err := op.Get(ctx, &resp); err != nil {
			result.SetError(err)
			return
		}
		result.SetValue(clientapi.WorkflowExecution{ID: workflowID, RunID: resp.GetRunId()})
	})
	return result
}

// signalWithStartRequest is the request of SignalWithStartWorkflow, as
// go.temporal.io/sdk builds it.
func (r *workflowRun) signalWithStartRequest(ctx Context, o SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args []any) (*workflowservice.SignalWithStartWorkflowExecutionRequest, error) {
	dc, _ := r.workflowConverters(ctx, r.info.Namespace, workflowID)
	encode := func(what string, encode func() error) error {
		if err := encode(); err != nil {
			err = fmt.Errorf("SignalWithStartWorkflow(%s): encoding %s: %w", workflowType, what, err)
			codecfail.FailTask(err)
			return err
		}
		return nil
	}
	req := &workflowservice.SignalWithStartWorkflowExecutionRequest{
		Namespace:                r.info.Namespace,
		WorkflowId:               workflowID,
		WorkflowType:             &commonpb.WorkflowType{Name: workflowType},
		TaskQueue:                &taskqueuepb.TaskQueue{Name: o.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		SignalName:               signal,
		WorkflowIdReusePolicy:    o.WorkflowIDReusePolicy,
		WorkflowIdConflictPolicy: o.WorkflowIDConflictPolicy,
		RetryPolicy:              policy.RetryPolicyToProto(o.RetryPolicy),
		CronSchedule:             o.CronSchedule,
		VersioningOverride:       clientapi.VersioningOverrideToProto(o.VersioningOverride),
		WorkflowExecutionTimeout: durationIfSet(o.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationIfSet(o.WorkflowRunTimeout),
		WorkflowTaskTimeout:      durationIfSet(o.WorkflowTaskTimeout),
		WorkflowStartDelay:       durationIfSet(o.StartDelay),
	}
	if o.Priority != nil {
		req.Priority = policy.PriorityToProto(*o.Priority)
	}
	var err error
	if err = encode("the input", func() (err error) { req.Input, err = dc.ToPayloads(args...); return err }); err != nil {
		return nil, err
	}
	if err = encode("the signal argument", func() (err error) { req.SignalInput, err = dc.ToPayloads(signalArg); return err }); err != nil {
		return nil, err
	}
	if err = encode("the memo", func() (err error) { req.Memo, err = memo.Encode(dc, o.Memo); return err }); err != nil {
		return nil, err
	}
	if req.SearchAttributes, err = searchattr.EncodeForStart(nil, o.TypedSearchAttributes); err != nil {
		return nil, fmt.Errorf("SignalWithStartWorkflow(%s): %w", workflowType, err)
	}
	if o.StaticSummary != "" || o.StaticDetails != "" {
		req.UserMetadata = &sdkpb.UserMetadata{}
		if err = encode("the static summary and details", func() (err error) {
			if o.StaticSummary != "" {
				if req.UserMetadata.Summary, err = dc.ToPayload(o.StaticSummary); err != nil {
					return err
				}
			}
			if o.StaticDetails != "" {
				req.UserMetadata.Details, err = dc.ToPayload(o.StaticDetails)
			}
			return err
		}); err != nil {
			return nil, err
		}
	}
	// The request always carries a header, empty when nothing writes one.
	req.Header = &commonpb.Header{Fields: map[string]*commonpb.Payload{}}
	if r.config.carriesHeaders() {
		header, err := propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.headerCodecFor(converter.WorkflowSerializationContext{Namespace: r.info.Namespace, WorkflowID: workflowID}))
		if err != nil {
			return nil, err
		}
		if header != nil {
			req.Header = header
		}
	}
	return req, nil
}

// durationIfSet is d on the wire, or nil when it is zero.
func durationIfSet(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}
