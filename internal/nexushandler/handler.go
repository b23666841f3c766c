package nexushandler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"runtime/debug"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	apinexus "go.temporal.io/api/temporalnexus"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// Options configure a TaskHandler.
type Options struct {
	// Handler runs the operations: the worker's registered services,
	// behind its interceptors.
	Handler nexus.Handler
	// Namespace, TaskQueue and Identity are the worker's; they go into
	// the operation's context and the task's reports.
	Namespace, TaskQueue, Identity string
	// Client is the worker's client, which operations reach through
	// temporalnexus.GetClient.
	Client clientapi.Client
	// DataConverter reads the operation's input and writes a synchronous
	// result; FailureConverter writes failures. Both are given the
	// operation's serialization context when they take one.
	DataConverter    converter.DataConverter
	FailureConverter converter.FailureConverter
	Logger           log.Logger
	// Metrics is the worker's metrics handler (root tags); operations get
	// it tagged with their service, operation and task queue.
	Metrics sdkmetrics.Handler
	// ResolveWorkflowName, ResolveActivityName: see OperationContext.
	ResolveWorkflowName func(workflow any) (string, error)
	ResolveActivityName func(activity any) (string, error)
}

// TaskHandler runs Nexus tasks; it implements workerrt.NexusExecutor.
type TaskHandler struct {
	opts Options
}

var _ workerrt.NexusExecutor = (*TaskHandler)(nil)

// New returns a TaskHandler.
func New(opts Options) *TaskHandler {
	if opts.Metrics == nil {
		opts.Metrics = sdkmetrics.NopHandler
	}
	return &TaskHandler{opts: opts}
}

// ExecuteNexusTask runs one task and returns the report to send: a
// completion (an operation started, completed synchronously, failed or
// canceled as an operation, or a cancel request accepted) or a failure
// (a handler error). It returns workerrt.ErrNexusTaskTimeout, and no
// report, when the request's deadline passed while the handler ran: the
// caller has stopped waiting, and the server times the task out, as with
// go.temporal.io/sdk.
func (h *TaskHandler) ExecuteNexusTask(task *workflowservice.PollNexusTaskQueueResponse) (*workflowservice.RespondNexusTaskCompletedRequest, *workflowservice.RespondNexusTaskFailedRequest, error) {
	temporalFailures := task.GetRequest().GetCapabilities().GetTemporalFailureResponses()
	oc, herr := h.newOperationContext(task)
	if herr != nil {
		failed, err := h.failedRequest(task, herr, temporalFailures, h.opts.FailureConverter)
		return nil, failed, err
	}
	fc := converter.WithFailureConverterSerializationContext(h.opts.FailureConverter, oc.SerializationContext())
	resp, herr, err := h.execute(oc, task)
	if err != nil {
		return nil, nil, err
	}
	if herr != nil {
		failed, err := h.failedRequest(task, herr, temporalFailures, fc)
		return nil, failed, err
	}
	completed, err := h.completedRequest(task, resp, temporalFailures)
	return completed, nil, err
}

// FailNexusTask is the failure to report for a task the worker could not
// run because of err (its input could not be retrieved from external
// storage): an internal handler error.
func (h *TaskHandler) FailNexusTask(task *workflowservice.PollNexusTaskQueueResponse, err error) (*workflowservice.RespondNexusTaskFailedRequest, error) {
	herr := nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "%v", err)
	return h.failedRequest(task, herr, task.GetRequest().GetCapabilities().GetTemporalFailureResponses(), h.opts.FailureConverter)
}

// newOperationContext makes the task's OperationContext, or the handler
// error for a request of a kind this SDK does not know.
func (h *TaskHandler) newOperationContext(task *workflowservice.PollNexusTaskQueueResponse) (*OperationContext, *nexus.HandlerError) {
	var service, operation string
	switch req := task.GetRequest().GetVariant().(type) {
	case *nexuspb.Request_StartOperation:
		service, operation = req.StartOperation.GetService(), req.StartOperation.GetOperation()
	case *nexuspb.Request_CancelOperation:
		service, operation = req.CancelOperation.GetService(), req.CancelOperation.GetOperation()
	default:
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeNotImplemented, "unknown request type")
	}
	return &OperationContext{
		Client:              h.opts.Client,
		Namespace:           h.opts.Namespace,
		TaskQueue:           h.opts.TaskQueue,
		Endpoint:            task.GetRequest().GetEndpoint(),
		Service:             service,
		Operation:           operation,
		Logger:              log.With(h.opts.Logger, "NexusService", service, "NexusOperation", operation, "TaskQueue", h.opts.TaskQueue),
		Metrics:             h.opts.Metrics.WithTags(Tags(service, operation, h.opts.TaskQueue)),
		ResolveWorkflowName: h.opts.ResolveWorkflowName,
		ResolveActivityName: h.opts.ResolveActivityName,
	}, nil
}

// Tags are the metric tags of an operation's task, as go.temporal.io/sdk
// gives them.
func Tags(service, operation, taskQueue string) map[string]string {
	return map[string]string{"nexus_service": service, "nexus_operation": operation, sdkmetrics.TagTaskQueue: taskQueue}
}

// execute runs the request in a context that ends at the request's
// deadline.
func (h *TaskHandler) execute(oc *OperationContext, task *workflowservice.PollNexusTaskQueueResponse) (*nexuspb.Response, *nexus.HandlerError, error) {
	header := nexus.Header(task.GetRequest().GetHeader())
	if header == nil {
		header = nexus.Header{}
	}
	ctx := WithOperationContext(context.Background(), oc)
	if s := header.Get(nexus.HeaderRequestTimeout); s != "" {
		timeout, err := time.ParseDuration(s)
		if err != nil {
			return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "cannot parse request timeout"), nil
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	switch req := task.GetRequest().GetVariant().(type) {
	case *nexuspb.Request_StartOperation:
		return h.start(ctx, oc, req.StartOperation, header)
	case *nexuspb.Request_CancelOperation:
		return h.cancel(ctx, oc, req.CancelOperation, header)
	}
	return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeNotImplemented, "unknown request type"), nil
}

// start runs a StartOperation request.
func (h *TaskHandler) start(ctx context.Context, oc *OperationContext, req *nexuspb.StartOperationRequest, header nexus.Header) (*nexuspb.Response, *nexus.HandlerError, error) {
	dc := converter.WithDataConverterSerializationContext(h.opts.DataConverter, oc.SerializationContext())
	fc := converter.WithFailureConverterSerializationContext(h.opts.FailureConverter, oc.SerializationContext())
	// The server has turned the request's content into a payload already:
	// the handler's input reads it with the data converter.
	input := nexus.NewLazyValue(&payloadReader{dc: dc, payload: req.GetPayload()}, &nexus.Reader{ReadCloser: io.NopCloser(bytes.NewReader(nil))})
	links := make([]nexus.Link, 0, len(req.GetLinks()))
	for _, l := range req.GetLinks() {
		if l == nil {
			continue
		}
		u, err := url.Parse(l.GetUrl())
		if err != nil {
			oc.Logger.Error("Failed to parse link url", "LinkURL", l.GetUrl(), "Error", err)
			return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "failed to parse link url"), nil
		}
		links = append(links, nexus.Link{URL: u, Type: l.GetType()})
		if common, ok := apinexus.NexusLinkToCommonLink(l); ok {
			oc.requestLinks = append(oc.requestLinks, common)
		}
	}
	// Servers that predate request IDs send none.
	oc.RequestID = req.GetRequestId()
	if oc.RequestID == "" {
		oc.RequestID = uuid.New()
	}
	callbackHeader := req.GetCallbackHeader()
	if callbackHeader == nil {
		callbackHeader = map[string]string{}
	}
	options := nexus.StartOperationOptions{
		RequestID:      oc.RequestID,
		CallbackURL:    req.GetCallback(),
		Header:         header,
		CallbackHeader: callbackHeader,
		Links:          links,
	}
	ctx = nexus.WithHandlerContext(ctx, nexus.HandlerInfo{Service: req.GetService(), Operation: req.GetOperation(), Header: header})
	var result nexus.HandlerStartOperationResult[any]
	err := runRecovered(oc, func() (err error) {
		result, err = h.opts.Handler.StartOperation(ctx, req.GetService(), req.GetOperation(), input, options)
		return err
	})
	if ctx.Err() != nil {
		oc.Logger.Error("Context error while processing Nexus task", "Error", ctx.Err())
		return nil, nil, workerrt.ErrNexusTaskTimeout
	}
	if err != nil {
		var opErr *nexus.OperationError
		if errors.As(err, &opErr) {
			return operationFailure(opErr, fc)
		}
		return nil, failure.HandlerErrorOf(err), nil
	}
	responseLinks := h.responseLinks(ctx, oc)
	if async, ok := result.(*nexus.HandlerStartOperationResultAsync); ok {
		return startResponse(&nexuspb.StartOperationResponse{Variant: &nexuspb.StartOperationResponse_AsyncSuccess{
			AsyncSuccess: &nexuspb.StartOperationResponse_Async{OperationToken: async.OperationToken, Links: responseLinks},
		}}), nil, nil
	}
	payload, err := dc.ToPayload(syncValue(result))
	if err != nil {
		oc.Logger.Error("Cannot convert Nexus sync result", "Error", err)
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "cannot convert nexus sync result: %v", err), nil
	}
	return startResponse(&nexuspb.StartOperationResponse{Variant: &nexuspb.StartOperationResponse_SyncSuccess{
		SyncSuccess: &nexuspb.StartOperationResponse_Sync{Payload: payload, Links: responseLinks},
	}}), nil, nil
}

// syncValue is the value of a synchronous result, whose type is generic
// in the operation's output.
func syncValue(result nexus.HandlerStartOperationResult[any]) any {
	if v, ok := result.(interface{ ValueAsAny() any }); ok {
		return v.ValueAsAny()
	}
	if result == nil {
		return nil
	}
	v := reflect.ValueOf(result)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("Value"); f.IsValid() {
			return f.Interface()
		}
	}
	return nil
}

// responseLinks are the links of a start response: those the handler set
// on its context (the started workflow's), then those its calls returned.
func (h *TaskHandler) responseLinks(ctx context.Context, oc *OperationContext) []*nexuspb.Link {
	var out []*nexuspb.Link
	for _, l := range nexus.HandlerLinks(ctx) {
		out = append(out, &nexuspb.Link{Url: l.URL.String(), Type: l.Type})
	}
	for _, l := range oc.ResponseLinks() {
		if nl, ok := commonLinkToNexus(l); ok {
			out = append(out, nl)
		}
	}
	return out
}

func startResponse(r *nexuspb.StartOperationResponse) *nexuspb.Response {
	return &nexuspb.Response{Variant: &nexuspb.Response_StartOperation{StartOperation: r}}
}

// cancel runs a CancelOperation request.
func (h *TaskHandler) cancel(ctx context.Context, oc *OperationContext, req *nexuspb.CancelOperationRequest, header nexus.Header) (*nexuspb.Response, *nexus.HandlerError, error) {
	ctx = nexus.WithHandlerContext(ctx, nexus.HandlerInfo{Service: req.GetService(), Operation: req.GetOperation(), Header: header})
	token := req.GetOperationToken()
	if token == "" {
		// Servers before 1.27 send the token as the operation ID.
		//lint:ignore SA1019 servers before 1.27 fill only this field
		token = req.GetOperationId()
	}
	err := runRecovered(oc, func() error {
		return h.opts.Handler.CancelOperation(ctx, req.GetService(), req.GetOperation(), token, nexus.CancelOperationOptions{Header: header})
	})
	if ctx.Err() != nil {
		oc.Logger.Error("Context error while processing Nexus task", "Error", ctx.Err())
		return nil, nil, workerrt.ErrNexusTaskTimeout
	}
	if err != nil {
		return nil, failure.HandlerErrorOf(err), nil
	}
	return &nexuspb.Response{Variant: &nexuspb.Response_CancelOperation{CancelOperation: &nexuspb.CancelOperationResponse{}}}, nil, nil
}

// runRecovered calls fn, turning a panic into an error: a handler's bug
// fails its task, never the worker. Errors are logged, as
// go.temporal.io/sdk logs them.
func runRecovered(oc *OperationContext, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("panic: %v", r)
			}
			oc.Logger.Error("Panic captured while handling Nexus task", "StackTrace", string(debug.Stack()), "Error", err)
		}
	}()
	if err = fn(); err != nil {
		oc.Logger.Error("Handler returned error while processing Nexus task", "Error", err)
	}
	return err
}

// payloadReader reads a start request's input, which the server sends as
// a payload, with the data converter; it is the nexus.Serializer of the
// handler's input, which only deserializes.
type payloadReader struct {
	dc      converter.DataConverter
	payload *commonpb.Payload
}

func (p *payloadReader) Deserialize(_ *nexus.Content, v any) error {
	err := p.dc.FromPayload(p.payload, v)
	if err == nil {
		return nil
	}
	// Errors that say what the caller should get go on as they are; any
	// other means the input cannot be read: the request is bad. A codec's
	// payload validation error (temporal.NewPayloadValidationError) says
	// the input itself is invalid: a bad request too.
	if app, ok := err.(*failure.ApplicationError); ok {
		if app.NonRetryable() && app.Type() == payloadValidationErrorType {
			return &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "invalid operation input", Cause: err}
		}
		return err
	}
	var herr *nexus.HandlerError
	if errors.As(err, &herr) {
		return err
	}
	return &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "cannot deserialize operation input", Cause: err}
}

// payloadValidationErrorType is the type of temporal.NewPayloadValidationError's error.
const payloadValidationErrorType = "PayloadValidationError"

func (p *payloadReader) Serialize(any) (*nexus.Content, error) {
	return nil, errors.New("nexushandler: operation results are written as payloads, not serialized")
}
