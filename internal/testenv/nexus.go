package testenv

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/nexushandler"
)

// Nexus operations in the test environment. A workflow's operation goes
// through the in-memory server as on a server (internal/testserver,
// nexus.go), whatever its endpoint: the environment's worker polls its
// requests and runs them with the services registered here
// (RegisterNexusService), through the worker's own Nexus task handler
// and interceptors, as go.temporal.io/sdk's test environment ignores the
// endpoint too. Between the task handler and the services stands
// nexusTestHandler: it tells the started listener, answers mocked
// operations (OnNexusOperation), and refuses unregistered services and
// operations as go.temporal.io/sdk's test environment does. A
// workflow-run operation starts its workflow in the server through
// nexusClient, with the request's callback: the workflow's end completes
// the operation.

// nexusOperationRef is an operation as a mock knows it: a registered
// operation, or a nexus.OperationReference.
type nexusOperationRef interface {
	Name() string
	InputType() reflect.Type
	OutputType() reflect.Type
}

// nexusState is what the environment knows of Nexus: the services
// registered, the operations mocked, the completions of mocked
// asynchronous operations, and the options of the calls made.
type nexusState struct {
	mu       sync.Mutex
	services []*nexus.Service
	mocked   map[string]map[string]nexusOperationRef // by service, operation
	// completions are RegisterNexusAsyncOperationCompletion's, by
	// nexusCompletionKey.
	completions map[string]nexusCompletion
	// mockedTokens are the tokens of mocked asynchronous operations: a
	// cancel request of one has no handler to go to.
	mockedTokens map[string]bool
	// calls are the options of operations called and not yet handled, by
	// service and operation, in call order: what a mock's options argument
	// matches.
	calls map[string][]internal.NexusOperationOptions
}

type nexusCompletion struct {
	result *commonpb.Payload
	err    error
	delay  time.Duration
}

func nexusCompletionKey(service, operation, token string) string {
	return service + "\x00" + operation + "\x00" + token
}

func (n *nexusState) service(name string) *nexus.Service {
	for _, s := range n.services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// RegisterNexusService registers a Nexus service, whose operations the
// workflows of the environment may then call, whatever endpoint they
// name. A service without a name, or one registered twice, panics, as on
// a worker.
func (e *TestWorkflowEnvironment) RegisterNexusService(s *nexus.Service) {
	if on := e.plugins.RegistryHooks().OnRegisterNexusService; on != nil {
		on(s)
	}
	if s == nil || s.Name == "" {
		panic(errors.New("tried to register a service with no name"))
	}
	e.nexus.mu.Lock()
	defer e.nexus.mu.Unlock()
	if e.nexus.service(s.Name) != nil {
		panic(fmt.Sprintf("service name %q is already registered", s.Name))
	}
	e.nexus.services = append(e.nexus.services, s)
}

// OnNexusOperation sets an expectation for a Nexus operation: service is
// a *nexus.Service or its name (registered if it is not), operation an
// operation of it, a nexus.OperationReference (registered as a stand-in
// if the service has no such operation) or a registered operation's
// name; input matches the operation's input (its type's value, or
// mock.Anything), options the workflow's NexusOperationOptions (or
// mock.Anything). Return gives the handler's result, a
// *nexus.HandlerStartOperationResultSync[T] or a
// *nexus.HandlerStartOperationResultAsync (then
// RegisterNexusAsyncOperationCompletion completes it), and an error.
func (e *TestWorkflowEnvironment) OnNexusOperation(service, operation, input, options any) *MockCallWrapper {
	e.nexus.mu.Lock()
	var s *nexus.Service
	switch v := service.(type) {
	case *nexus.Service:
		s = v
		if e.nexus.service(s.Name) == nil {
			e.nexus.services = append(e.nexus.services, s)
		}
	case string:
		if s = e.nexus.service(v); s == nil {
			s = nexus.NewService(v)
			e.nexus.services = append(e.nexus.services, s)
		}
	default:
		e.nexus.mu.Unlock()
		panic("service must be *nexus.Service or string")
	}
	var ref nexusOperationRef
	switch v := operation.(type) {
	case nexusOperationRef:
		ref = v
		if s.Operation(ref.Name()) == nil {
			if err := s.Register(&mockedNexusOperation{nexusOperationRef: ref}); err != nil {
				e.nexus.mu.Unlock()
				panic(fmt.Sprintf("cannot register operation %q: %v", ref.Name(), err))
			}
		}
	case string:
		op, ok := s.Operation(v).(nexusOperationRef)
		if !ok {
			e.nexus.mu.Unlock()
			panic(fmt.Sprintf("operation %q not registered in service %q", v, s.Name))
		}
		ref = op
	default:
		e.nexus.mu.Unlock()
		panic("operation must be nexus.RegisterableOperation, nexus.OperationReference, or string")
	}
	if e.nexus.mocked == nil {
		e.nexus.mocked = make(map[string]map[string]nexusOperationRef)
	}
	if e.nexus.mocked[s.Name] == nil {
		e.nexus.mocked[s.Name] = make(map[string]nexusOperationRef)
	}
	e.nexus.mocked[s.Name][ref.Name()] = ref
	e.nexus.mu.Unlock()
	if input != mock.Anything && reflect.TypeOf(input) != ref.InputType() {
		panic(fmt.Sprintf("operation %q expects input type %s, got %T", ref.Name(), ref.InputType(), input))
	}
	if _, ok := options.(internal.NexusOperationOptions); !ok && options != mock.Anything {
		panic(fmt.Sprintf("options must be an instance of NexusOperationOptions or mock.Anything, got %T", options))
	}
	return e.wrap(e.nexusMock.On(s.Name, ref.Name(), input, options))
}

// mockedNexusOperation stands in, in its service, for an operation that
// is only mocked.
type mockedNexusOperation struct {
	nexus.UnimplementedOperation[any, any]
	nexusOperationRef
}

func (o *mockedNexusOperation) Name() string             { return o.nexusOperationRef.Name() }
func (o *mockedNexusOperation) InputType() reflect.Type  { return o.nexusOperationRef.InputType() }
func (o *mockedNexusOperation) OutputType() reflect.Type { return o.nexusOperationRef.OutputType() }

// RegisterNexusAsyncOperationCompletion completes a mocked asynchronous
// operation (whose mock returned a HandlerStartOperationResultAsync with
// token) delay after it started, on the workflow's clock: with result, or
// with err as a non-retryable application failure. result must be of the
// operation's output type.
func (e *TestWorkflowEnvironment) RegisterNexusAsyncOperationCompletion(service, operation, token string, result any, err error, delay time.Duration) error {
	e.nexus.mu.Lock()
	defer e.nexus.mu.Unlock()
	ref := e.nexus.mocked[service][operation]
	if ref == nil {
		return fmt.Errorf("nexus service %q operation %q not mocked", service, operation)
	}
	if reflect.TypeOf(result) != ref.OutputType() {
		return fmt.Errorf("nexus service %q operation %q expected result type %s, got %T", service, operation, ref.OutputType(), result)
	}
	var payload *commonpb.Payload
	if result != nil {
		p, encodeErr := e.dc.ToPayload(result)
		if encodeErr != nil {
			return encodeErr
		}
		payload = p
	}
	if e.nexus.completions == nil {
		e.nexus.completions = make(map[string]nexusCompletion)
	}
	e.nexus.completions[nexusCompletionKey(service, operation, token)] = nexusCompletion{result: payload, err: err, delay: delay}
	return nil
}

// AssertNexusOperationCalled asserts that an operation was called with
// the input and options.
func (e *TestWorkflowEnvironment) AssertNexusOperationCalled(t mock.TestingT, service, operation string, input, options any) bool {
	return e.nexusMock.AssertCalled(t, service, operation, input, options)
}

// AssertNexusOperationNotCalled asserts that an operation was not called
// with the input and options.
func (e *TestWorkflowEnvironment) AssertNexusOperationNotCalled(t mock.TestingT, service, operation string, input, options any) bool {
	return e.nexusMock.AssertNotCalled(t, service, operation, input, options)
}

// AssertNexusOperationNumberOfCalls asserts how often the mocked
// operations of a service were called.
func (e *TestWorkflowEnvironment) AssertNexusOperationNumberOfCalls(t mock.TestingT, service string, expectedCalls int) bool {
	return e.nexusMock.AssertNumberOfCalls(t, service, expectedCalls)
}

// nexusTaskHandler is the worker's Nexus task handler: the production
// one, over the registered services behind the worker's interceptors,
// with nexusTestHandler in front of them. Without services, the test
// handler refuses every operation.
func (e *TestWorkflowEnvironment) nexusTaskHandler(w wiring) (*nexushandler.TaskHandler, error) {
	e.nexus.mu.Lock()
	services := append([]*nexus.Service(nil), e.nexus.services...)
	e.nexus.mu.Unlock()
	var handler nexus.Handler
	if len(services) > 0 {
		reg := nexus.NewServiceRegistry()
		if err := reg.Register(services...); err != nil {
			return nil, fmt.Errorf("the test environment's Nexus services: %w", err)
		}
		reg.Use(internal.NexusMiddleware(w.Interceptors))
		var err error
		if handler, err = reg.NewHandler(); err != nil {
			return nil, fmt.Errorf("the test environment's Nexus services: %w", err)
		}
	}
	return nexushandler.New(nexushandler.Options{
		Handler:          &nexusTestHandler{env: e, next: handler},
		Namespace:        w.Namespace,
		TaskQueue:        w.TaskQueue,
		Identity:         w.Identity,
		Client:           &nexusClient{env: e},
		DataConverter:    w.DataConverter,
		FailureConverter: w.FailureConverter,
		Logger:           w.Logger,
		Metrics:          w.Metrics,
		ResolveWorkflowName: func(workflow any) (string, error) {
			name := e.registry.WorkflowTypeOf(workflow)
			if name == "" {
				return "", fmt.Errorf("a workflow must be a function or a non-empty workflow type name, not %T %v", workflow, workflow)
			}
			return name, nil
		},
		ResolveActivityName: e.registry.ActivityName,
	}), nil
}

// nexusTestHandler runs the operations of the environment's services:
// mocked ones by their mocks, the others by the services.
type nexusTestHandler struct {
	nexus.UnimplementedHandler
	env  *TestWorkflowEnvironment
	next nexus.Handler
}

func (h *nexusTestHandler) StartOperation(ctx context.Context, service, operation string, input *nexus.LazyValue, options nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[any], error) {
	e := h.env
	e.nexus.mu.Lock()
	s := e.nexus.service(service)
	ref := e.nexus.mocked[service][operation]
	callOptions := e.takeNexusCallOptions(service, operation)
	e.nexus.mu.Unlock()
	// As go.temporal.io/sdk's test environment, which panics here: the
	// task handler turns the panic into an INTERNAL handler error.
	if s == nil {
		panic(fmt.Sprintf("nexus service %q is not registered with the TestWorkflowEnvironment", service))
	}
	op := s.Operation(operation)
	if ref == nil {
		var ok bool
		if ref, ok = op.(nexusOperationRef); !ok {
			panic(fmt.Sprintf("nexus service %q operation %q not registered and not mocked", service, operation))
		}
	}
	// The input is read once here, for the listener and the mock, and
	// handed on as a fresh value.
	in := reflect.New(ref.InputType())
	if err := input.Consume(in.Interface()); err != nil {
		return nil, err
	}
	dc := e.dc
	if oc, ok := nexushandler.FromContext(ctx); ok {
		dc = converter.WithDataConverterSerializationContext(dc, oc.SerializationContext())
	}
	payload, err := dc.ToPayload(in.Elem().Interface())
	if err != nil {
		return nil, &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "cannot encode operation input", Cause: err}
	}
	if f := e.listeners.get().nexusStarted; f != nil {
		f(service, operation, failure.NewEncodedValue(&commonpb.Payloads{Payloads: []*commonpb.Payload{payload}}, dc))
	}
	if e.hasNexusExpectation(service) {
		return h.mocked(ctx, service, operation, ref, in.Elem().Interface(), callOptions, options)
	}
	return h.next.StartOperation(ctx, service, operation, nexus.NewLazyValue(&payloadSerializer{dc: dc, payload: payload}, input.Reader), options)
}

// mocked asks the mock for an operation's result.
func (h *nexusTestHandler) mocked(ctx context.Context, service, operation string, ref nexusOperationRef, input any, callOptions any,
	options nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[any], error) {
	e := h.env
	ret := e.nexusMock.MethodCalled(service, operation, input, callOptions)
	if len(ret) != 2 {
		panic(fmt.Sprintf("mock of ExecuteNexusOperation has incorrect number of return values, expected 2, got %d", len(ret)))
	}
	if ret[1] != nil {
		err, ok := ret[1].(error)
		if !ok {
			panic(fmt.Sprintf("mock of ExecuteNexusOperation has incorrect return type, expected error, got %T", ret[1]))
		}
		return nil, err
	}
	result, ok := ret[0].(nexus.HandlerStartOperationResult[any])
	if ret[0] != nil && !ok {
		panic(fmt.Sprintf("mock of ExecuteNexusOperation has incorrect return type, expected nexus.HandlerStartOperationResult[T], but actual is %T", ret[0]))
	}
	if v := reflect.ValueOf(result); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if value := v.Elem().FieldByName("Value"); value.IsValid() && value.Type() != ref.OutputType() {
			panic(fmt.Sprintf("mock of ExecuteNexusOperation has incorrect return type, operation expects to return %s, got %s", ref.OutputType(), value.Type()))
		}
	}
	if async, ok := result.(*nexus.HandlerStartOperationResultAsync); ok {
		e.completeMockedLater(ctx, service, operation, async.OperationToken, options)
	}
	return result, nil
}

// completeMockedLater completes a mocked asynchronous operation as its
// registered completion says, by the request's callback, once its delay
// passed on the clock.
func (e *TestWorkflowEnvironment) completeMockedLater(ctx context.Context, service, operation, token string, options nexus.StartOperationOptions) {
	e.nexus.mu.Lock()
	if e.nexus.mockedTokens == nil {
		e.nexus.mockedTokens = make(map[string]bool)
	}
	e.nexus.mockedTokens[token] = true
	key := nexusCompletionKey(service, operation, token)
	c, ok := e.nexus.completions[key]
	delete(e.nexus.completions, key)
	e.nexus.mu.Unlock()
	if !ok {
		return // it runs until the workflow cancels it or it times out
	}
	var cause *failurepb.Failure
	if c.err != nil {
		cause = &failurepb.Failure{Message: c.err.Error(), FailureInfo: &failurepb.Failure_ApplicationFailureInfo{
			ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{NonRetryable: true}}}
	}
	header := map[string]string(options.CallbackHeader)
	e.clock.AfterFunc(c.delay, func() {
		if err := e.server.CompleteNexusOperation(header, token, c.result, cause); err != nil {
			e.suite.logger.Warn("the mocked Nexus operation's completion found no operation", "Service", service, "Operation", operation, "Error", err)
		}
	})
}

func (h *nexusTestHandler) CancelOperation(ctx context.Context, service, operation, token string, options nexus.CancelOperationOptions) error {
	h.env.nexus.mu.Lock()
	mocked := h.env.nexus.mockedTokens[token]
	h.env.nexus.mu.Unlock()
	if mocked {
		return nil // no handler behind a mock
	}
	return h.next.CancelOperation(ctx, service, operation, token, options)
}

// hasNexusExpectation reports whether a service has mocked operations.
func (e *TestWorkflowEnvironment) hasNexusExpectation(service string) bool {
	for _, c := range e.nexusMock.ExpectedCalls {
		if c.Method == service {
			return true
		}
	}
	return false
}

// takeNexusCallOptions is the options of the oldest call of the
// operation not yet handled (the zero options when unknown).
func (e *TestWorkflowEnvironment) takeNexusCallOptions(service, operation string) any {
	key := service + "\x00" + operation
	calls := e.nexus.calls[key]
	if len(calls) == 0 {
		return internal.NexusOperationOptions{}
	}
	e.nexus.calls[key] = calls[1:]
	return calls[0]
}

// ExecuteNexusOperation records the call's options, which a mock's
// options argument matches, and passes the call on.
func (w *testWorkflowOutbound) ExecuteNexusOperation(ctx internal.Context, input internal.ExecuteNexusOperationInput) internal.NexusOperationFuture {
	if !w.Next.IsReplaying(ctx) {
		name := nexusOperationName(input.Operation)
		e := w.env
		e.nexus.mu.Lock()
		if e.nexus.calls == nil {
			e.nexus.calls = make(map[string][]internal.NexusOperationOptions)
		}
		key := input.Client.Service() + "\x00" + name
		e.nexus.calls[key] = append(e.nexus.calls[key], input.Options)
		e.nexus.mu.Unlock()
	}
	return w.Next.ExecuteNexusOperation(ctx, input)
}

// nexusOperationName is the name of an operation as a workflow calls it.
func nexusOperationName(operation any) string {
	switch op := operation.(type) {
	case string:
		return op
	case interface{ Name() string }:
		return op.Name()
	}
	return fmt.Sprint(operation)
}

// payloadSerializer reads an operation's input from its payload.
type payloadSerializer struct {
	dc      converter.DataConverter
	payload *commonpb.Payload
}

func (p *payloadSerializer) Deserialize(_ *nexus.Content, v any) error {
	return p.dc.FromPayload(p.payload, v)
}

func (p *payloadSerializer) Serialize(any) (*nexus.Content, error) {
	return nil, errors.New("the test environment reads operation inputs from payloads; it does not serialize")
}
