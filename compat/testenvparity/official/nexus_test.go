package parity

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/temporalnexus"
	"go.temporal.io/sdk/workflow"
)

// parityNexusService is the name of the service the Nexus tests register.
const parityNexusService = "parity-nexus"

// Replenish is the workflow behind the "replenish" operation: it replenishes an
// item at once, refuses "durian", and waits for a day for "slow".
func Replenish(ctx workflow.Context, sku string) (string, error) {
	switch sku {
	case "durian":
		return "", temporal.NewNonRetryableApplicationError("cannot replenish durian", "Unstockable", nil)
	case "slow":
		if err := workflow.Sleep(ctx, 24*time.Hour); err != nil {
			return "", err
		}
	}
	return "replenished " + sku, nil
}

// newParityNexusService is a service with a synchronous operation, one
// that fails as an operation, one whose handler refuses the request, and
// a workflow-run operation backed by Replenish.
func newParityNexusService() *nexus.Service {
	svc := nexus.NewService(parityNexusService)
	err := svc.Register(
		nexus.NewSyncOperation("echo", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "echo: " + in, nil
		}),
		nexus.NewSyncOperation("fail", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewOperationFailedErrorf("no stock for %q", in)
		}),
		nexus.NewSyncOperation("refuse", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "cannot take %q", in)
		}),
		temporalnexus.NewWorkflowRunOperation("replenish", Replenish,
			func(_ context.Context, sku string, _ nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
				return client.StartWorkflowOptions{ID: "replenish-" + sku}, nil
			}),
	)
	if err != nil {
		panic(err)
	}
	return svc
}

// CallNexus calls one operation of service through an endpoint the test
// environment ignores, and describes its outcome and its execution's.
func CallNexus(ctx workflow.Context, service, operation, input string, timeout time.Duration) (string, error) {
	c := workflow.NewNexusClient("parity-endpoint", service)
	fut := c.ExecuteOperation(ctx, operation, input, workflow.NexusOperationOptions{ScheduleToCloseTimeout: timeout})
	var exec workflow.NexusOperationExecution
	execErr := fut.GetNexusOperationExecution().Get(ctx, &exec)
	var result string
	err := fut.Get(ctx, &result)
	return fmt.Sprintf("result %q, error %s; token %q, execution error %s", result, describeNexusError(err), exec.OperationToken, describeNexusError(execErr)), nil
}

// describeNexusError renders an error chain by what the public error
// types say of it (not the scheduled event ID, which only a history
// has).
func describeNexusError(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *temporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, endpoint %s, service %s, operation %s, token %q}",
				x.Message, x.Endpoint, x.Service, x.Operation, x.OperationToken))
		case *nexus.HandlerError:
			parts = append(parts, fmt.Sprintf("HandlerError{%s, %q}", x.Type, x.Message))
		case *temporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *temporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *temporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		default:
			parts = append(parts, fmt.Sprintf("%T{%q}", e, e.Error()))
		}
	}
	return strings.Join(parts, " <- ")
}

// replenishToken is the token of the replenish operation's workflow for
// sku: its workflow-run token (base64url JSON of version, namespace and
// workflow ID), as both SDKs make it.
func replenishToken(sku string) string {
	b, _ := json.Marshal(struct {
		Version   int    `json:"t"`
		Namespace string `json:"ns"`
		ID        string `json:"wid"`
	}{1, "default-test-namespace", "replenish-" + sku})
	return base64.RawURLEncoding.EncodeToString(b)
}

// runNexusCall runs CallNexus and returns its description.
func (s *ParitySuite) runNexusCall(service, operation, input string, timeout time.Duration) string {
	s.env.ExecuteWorkflow(CallNexus, service, operation, input, timeout)
	s.Require().True(s.env.IsWorkflowCompleted())
	var described string
	s.Require().NoError(s.env.GetWorkflowResult(&described))
	return described
}

func (s *ParitySuite) TestNexusSyncOperationAndItsListeners() {
	var heard []string
	s.env.SetOnNexusOperationStartedListener(func(service, operation string, input converter.EncodedValue) {
		var in string
		s.NoError(input.Get(&in))
		heard = append(heard, fmt.Sprintf("started %s/%s(%s)", service, operation, in))
	})
	s.env.SetOnNexusOperationCompletedListener(func(service, operation string, result converter.EncodedValue, err error) {
		var out string
		s.NoError(result.Get(&out))
		heard = append(heard, fmt.Sprintf("completed %s/%s: %q, %v", service, operation, out, err))
	})
	s.env.RegisterNexusService(newParityNexusService())
	s.Equal(`result "echo: hi", error none; token "", execution error none`, s.runNexusCall(parityNexusService, "echo", "hi", time.Minute))
	s.Equal([]string{"started parity-nexus/echo(hi)", `completed parity-nexus/echo: "echo: hi", <nil>`}, heard)
}

func (s *ParitySuite) TestNexusOperationFailedByItsHandler() {
	s.env.RegisterNexusService(newParityNexusService())
	s.Equal(`result "", error NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation fail, token ""} <- ApplicationError{"no stock for \"kiwi\"", type "OperationError", non-retryable true}; token "", execution error NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation fail, token ""} <- ApplicationError{"no stock for \"kiwi\"", type "OperationError", non-retryable true}`,
		s.runNexusCall(parityNexusService, "fail", "kiwi", time.Minute))
}

func (s *ParitySuite) TestNexusRequestRefusedByItsHandler() {
	s.env.RegisterNexusService(newParityNexusService())
	refused := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation refuse, token ""} <- HandlerError{BAD_REQUEST, "cannot take \"kiwi\""}`
	s.Equal(`result "", error `+refused+`; token "", execution error `+refused, s.runNexusCall(parityNexusService, "refuse", "kiwi", time.Minute))
}

// An unknown service or operation fails as the test environment's handler
// panics: an INTERNAL handler error (a server would answer NOT_FOUND).
func (s *ParitySuite) TestNexusUnknownService() {
	s.env.RegisterNexusService(newParityNexusService())
	unknown := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service no-such-service, operation echo, token ""} <- ` +
		`HandlerError{INTERNAL, "internal handler error"} <- ApplicationError{"panic: nexus service \"no-such-service\" is not registered with the TestWorkflowEnvironment", type "", non-retryable false}`
	s.Equal(`result "", error `+unknown+`; token "", execution error `+unknown, s.runNexusCall("no-such-service", "echo", "kiwi", time.Minute))
}

func (s *ParitySuite) TestNexusUnknownOperation() {
	s.env.RegisterNexusService(newParityNexusService())
	unknown := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation no-such-operation, token ""} <- ` +
		`HandlerError{INTERNAL, "internal handler error"} <- ApplicationError{"panic: nexus service \"parity-nexus\" operation \"no-such-operation\" not registered and not mocked", type "", non-retryable false}`
	s.Equal(`result "", error `+unknown+`; token "", execution error `+unknown, s.runNexusCall(parityNexusService, "no-such-operation", "kiwi", time.Minute))
}

func (s *ParitySuite) TestNexusWorkflowRunOperation() {
	var heard []string
	s.env.SetOnNexusOperationCompletedListener(func(service, operation string, result converter.EncodedValue, err error) {
		var out string
		s.NoError(result.Get(&out))
		heard = append(heard, fmt.Sprintf("completed %s/%s: %q, %v", service, operation, out, err))
	})
	s.env.RegisterWorkflow(Replenish)
	s.env.RegisterNexusService(newParityNexusService())
	s.Equal(`result "replenished kiwi", error none; token "`+replenishToken("kiwi")+`", execution error none`, s.runNexusCall(parityNexusService, "replenish", "kiwi", time.Minute))
	s.Equal([]string{`completed parity-nexus/replenish: "replenished kiwi", <nil>`}, heard)
}

// The failure of a workflow-run operation's workflow is the cause of the
// caller's NexusOperationError (go.temporal.io/sdk's test environment puts
// a ChildWorkflowExecutionError in between, a server does not).
func (s *ParitySuite) TestNexusWorkflowRunOperationThatFails() {
	s.env.RegisterWorkflow(Replenish)
	s.env.RegisterNexusService(newParityNexusService())
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		c := workflow.NewNexusClient("parity-endpoint", parityNexusService)
		return c.ExecuteOperation(ctx, "replenish", "durian", workflow.NexusOperationOptions{}).Get(ctx, nil)
	})
	err := s.env.GetWorkflowError()
	var opErr *temporal.NexusOperationError
	s.Require().True(errors.As(err, &opErr), "%v", err)
	s.Equal("replenish", opErr.Operation)
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(err, &appErr), "%v", err)
	s.Equal("cannot replenish durian", appErr.Message())
	s.Equal("Unstockable", appErr.Type())
}

func (s *ParitySuite) TestNexusOperationTimesOutOnTheClock() {
	start := s.env.Now()
	s.env.RegisterWorkflow(Replenish)
	s.env.RegisterNexusService(newParityNexusService())
	timedOut := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation replenish, token "` + replenishToken("slow") + `"} <- TimeoutError{ScheduleToClose}`
	s.Equal(`result "", error `+timedOut+`; token "`+replenishToken("slow")+`", execution error none`, s.runNexusCall(parityNexusService, "replenish", "slow", time.Hour))
	s.Equal(24*time.Hour, s.env.Now().Sub(start), "the test waits for the operation's workflow, which outlives the operation")
}

// Canceling a workflow-run operation cancels its workflow, whose end
// completes the operation as canceled (go.temporal.io/sdk's test
// environment puts a ChildWorkflowExecutionError between the two errors,
// a server does not).
func (s *ParitySuite) TestNexusWorkflowRunOperationCanceled() {
	start := s.env.Now()
	s.env.RegisterWorkflow(Replenish)
	s.env.RegisterNexusService(newParityNexusService())
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		c := workflow.NewNexusClient("parity-endpoint", parityNexusService)
		opCtx, cancel := workflow.WithCancel(ctx)
		defer cancel()
		fut := c.ExecuteOperation(opCtx, "replenish", "slow", workflow.NexusOperationOptions{})
		var exec workflow.NexusOperationExecution
		if err := fut.GetNexusOperationExecution().Get(ctx, &exec); err != nil {
			return "", err
		}
		cancel()
		// Described, not returned: a workflow that returns a canceled
		// error is canceled.
		return describeNexusError(fut.Get(ctx, nil)), nil
	})
	var described string
	s.Require().NoError(s.env.GetWorkflowResult(&described))
	s.True(strings.HasPrefix(described, `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation replenish, token "`+replenishToken("slow")+`"} <- `), described)
	s.Contains(described, "<- CanceledError{")
	s.Less(s.env.Now().Sub(start), time.Hour, "the workflow was canceled, not waited for")
}

func (s *ParitySuite) TestNexusMockedSyncOperation() {
	s.env.RegisterNexusService(newParityNexusService())
	s.env.OnNexusOperation(parityNexusService, "echo", "hi", mock.Anything).Return(&nexus.HandlerStartOperationResultSync[string]{Value: "mocked"}, nil).Once()
	s.Equal(`result "mocked", error none; token "", execution error none`, s.runNexusCall(parityNexusService, "echo", "hi", time.Minute))
	s.env.AssertNexusOperationCalled(s.T(), parityNexusService, "echo", "hi", mock.Anything)
	s.env.AssertNexusOperationNotCalled(s.T(), parityNexusService, "echo", "ho", mock.Anything)
	s.env.AssertNexusOperationNumberOfCalls(s.T(), parityNexusService, 1)
}

func (s *ParitySuite) TestNexusMockedOperationError() {
	s.env.OnNexusOperation(parityNexusService, nexus.NewOperationReference[string, string]("quote"), "kiwi", mock.Anything).
		Return(nil, nexus.NewOperationFailedErrorf("mocked failure")).Once()
	failed := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation quote, token ""} <- ApplicationError{"mocked failure", type "OperationError", non-retryable true}`
	s.Equal(`result "", error `+failed+`; token "", execution error `+failed, s.runNexusCall(parityNexusService, "quote", "kiwi", time.Minute))
}

func (s *ParitySuite) TestNexusMockedAsyncOperation() {
	start := s.env.Now()
	var heard []string
	s.env.SetOnNexusOperationCompletedListener(func(service, operation string, result converter.EncodedValue, err error) {
		var out string
		s.NoError(result.Get(&out))
		heard = append(heard, fmt.Sprintf("completed %s/%s: %q, %v", service, operation, out, err))
	})
	op := nexus.NewOperationReference[string, string]("quote")
	s.env.OnNexusOperation(parityNexusService, op, "kiwi", mock.Anything).
		Return(&nexus.HandlerStartOperationResultAsync{OperationToken: "quote-token"}, nil).Once()
	s.Require().NoError(s.env.RegisterNexusAsyncOperationCompletion(parityNexusService, "quote", "quote-token", "42 cents", nil, 10*time.Minute))
	s.Equal(`result "42 cents", error none; token "quote-token", execution error none`, s.runNexusCall(parityNexusService, "quote", "kiwi", time.Hour))
	s.Equal(10*time.Minute, s.env.Now().Sub(start))
	s.Equal([]string{`completed parity-nexus/quote: "42 cents", <nil>`}, heard)
}

func (s *ParitySuite) TestNexusMockedAsyncOperationThatFails() {
	op := nexus.NewOperationReference[string, string]("quote")
	s.env.OnNexusOperation(parityNexusService, op, "kiwi", mock.Anything).
		Return(&nexus.HandlerStartOperationResultAsync{OperationToken: "quote-token"}, nil).Once()
	s.Require().NoError(s.env.RegisterNexusAsyncOperationCompletion(parityNexusService, "quote", "quote-token", "", errors.New("out of quotes"), time.Minute))
	failed := `NexusOperationError{"nexus operation completed unsuccessfully", endpoint parity-endpoint, service parity-nexus, operation quote, token "quote-token"} <- ApplicationError{"out of quotes", type "", non-retryable true}`
	s.Equal(`result "", error `+failed+`; token "quote-token", execution error none`, s.runNexusCall(parityNexusService, "quote", "kiwi", time.Hour))
}

func (s *ParitySuite) TestNexusAsyncCompletionNeedsAMockedOperation() {
	s.Equal(`nexus service "parity-nexus" operation "quote" not mocked`, fmt.Sprint(s.env.RegisterNexusAsyncOperationCompletion(parityNexusService, "quote", "t", "x", nil, 0)))
	s.env.OnNexusOperation(parityNexusService, nexus.NewOperationReference[string, string]("quote"), mock.Anything, mock.Anything).Maybe()
	s.Equal(`nexus service "parity-nexus" operation "quote" expected result type string, got int`, fmt.Sprint(s.env.RegisterNexusAsyncOperationCompletion(parityNexusService, "quote", "t", 42, nil, 0)))
}
