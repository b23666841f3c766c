package testsuite_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The test environment runs Nexus operations: on its own worker, through
// the handler code a worker runs, with the history a server writes.

const ordersService = "orders"

// Pack is the workflow behind the "pack" operation: it packs an order
// after an hour, and refuses "broken".
func Pack(ctx workflow.Context, order string) (string, error) {
	if order == "broken" {
		return "", temporal.NewNonRetryableApplicationError("cannot pack a broken order", "Unpackable", nil)
	}
	if err := workflow.Sleep(ctx, time.Hour); err != nil {
		return "", err
	}
	return "packed " + order, nil
}

func newOrdersService(t *testing.T) *nexus.Service {
	svc := nexus.NewService(ordersService)
	require.NoError(t, svc.Register(
		nexus.NewSyncOperation("reserve", func(_ context.Context, sku string, _ nexus.StartOperationOptions) (string, error) {
			switch sku {
			case "none":
				return "", nexus.NewOperationFailedErrorf("%s is out of stock", sku)
			case "bad":
				return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "no such sku %q", sku)
			}
			return "reserved " + sku, nil
		}),
		temporalnexus.NewWorkflowRunOperation("pack", Pack, func(_ context.Context, order string, _ nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
			return client.StartWorkflowOptions{ID: "pack-" + order}, nil
		}),
	))
	return svc
}

// callOrders calls one operation of the orders service.
func callOrders(ctx workflow.Context, operation, input string, timeout time.Duration) (string, error) {
	c := workflow.NewNexusClient("orders-endpoint", ordersService)
	var out string
	err := c.ExecuteOperation(ctx, operation, input, workflow.NexusOperationOptions{ScheduleToCloseTimeout: timeout}).Get(ctx, &out)
	return out, err
}

func newNexusEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetReplayCheck(true) // every history the tests write replays
	env.RegisterWorkflow(callOrders)
	return env
}

// nexusEventTypes are the Nexus events of a history, in order.
func nexusEventTypes(h *historypb.History) []enumspb.EventType {
	var out []enumspb.EventType
	for _, ev := range h.GetEvents() {
		if t := ev.GetEventType(); t >= enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED && t <= enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED {
			out = append(out, t)
		}
	}
	return out
}

func TestNexusSyncOperationWritesScheduledThenCompleted(t *testing.T) {
	env := newNexusEnv(t)
	env.RegisterNexusService(newOrdersService(t))
	env.ExecuteWorkflow(callOrders, "reserve", "sku-1", time.Minute)
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "reserved sku-1", out)
	h, err := env.GetHistory()
	require.NoError(t, err)
	require.Equal(t, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED}, nexusEventTypes(h))
	for _, ev := range h.GetEvents() {
		if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
			require.Equal(t, "orders-endpoint", a.GetEndpoint(), "the endpoint is recorded as the workflow named it")
			require.NotEmpty(t, a.GetRequestId())
		}
	}
}

func TestNexusOperationErrorsReachTheCallerAsOnAWorker(t *testing.T) {
	for _, tc := range []struct {
		sku   string
		check func(t *testing.T, err error)
	}{
		{"none", func(t *testing.T, err error) {
			var app *temporal.ApplicationError
			require.True(t, errors.As(err, &app), "%v", err)
			require.Equal(t, "none is out of stock", app.Message())
		}},
		{"bad", func(t *testing.T, err error) {
			var herr *nexus.HandlerError
			require.True(t, errors.As(err, &herr), "%v", err)
			require.Equal(t, nexus.HandlerErrorTypeBadRequest, herr.Type)
		}},
	} {
		t.Run(tc.sku, func(t *testing.T) {
			env := newNexusEnv(t)
			env.RegisterNexusService(newOrdersService(t))
			env.ExecuteWorkflow(callOrders, "reserve", tc.sku, time.Minute)
			err := env.GetWorkflowError()
			var opErr *temporal.NexusOperationError
			require.True(t, errors.As(err, &opErr), "%v", err)
			require.Equal(t, ordersService, opErr.Service)
			require.Equal(t, "reserve", opErr.Operation)
			require.Equal(t, "orders-endpoint", opErr.Endpoint)
			require.NotZero(t, opErr.ScheduledEventID, "the failure names the operation's scheduled event, as a server's does")
			tc.check(t, err)
			h, herr := env.GetHistory()
			require.NoError(t, herr)
			require.Equal(t, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED}, nexusEventTypes(h))
		})
	}
}

func TestNexusWorkflowRunOperationCompletesWithItsWorkflow(t *testing.T) {
	env := newNexusEnv(t)
	start := env.Now()
	env.RegisterWorkflow(Pack)
	env.RegisterNexusService(newOrdersService(t))
	env.ExecuteWorkflow(callOrders, "pack", "o-1", time.Duration(0))
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "packed o-1", out)
	require.Equal(t, time.Hour, env.Now().Sub(start), "the operation's workflow slept on the virtual clock")
	h, err := env.GetHistory()
	require.NoError(t, err)
	require.Equal(t, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED}, nexusEventTypes(h))
	var packed string
	require.NoError(t, env.GetWorkflowResultByID("pack-o-1", &packed), "the operation's workflow ran in the environment")
	require.Equal(t, "packed o-1", packed)
}

func TestNexusWorkflowRunOperationFailsWithItsWorkflow(t *testing.T) {
	env := newNexusEnv(t)
	env.RegisterWorkflow(Pack)
	env.RegisterNexusService(newOrdersService(t))
	env.ExecuteWorkflow(callOrders, "pack", "broken", time.Duration(0))
	err := env.GetWorkflowError()
	var opErr *temporal.NexusOperationError
	require.True(t, errors.As(err, &opErr), "%v", err)
	require.NotEmpty(t, opErr.OperationToken)
	var app *temporal.ApplicationError
	require.True(t, errors.As(err, &app), "%v", err)
	require.Equal(t, "Unpackable", app.Type())
}

func TestNexusWorkflowRunOperationWhoseWorkflowIsNotRegistered(t *testing.T) {
	env := newNexusEnv(t)
	env.RegisterNexusService(newOrdersService(t))
	env.ExecuteWorkflow(callOrders, "pack", "o-5", time.Duration(0))
	err := env.GetWorkflowError()
	var opErr *temporal.NexusOperationError
	require.True(t, errors.As(err, &opErr), "%v", err)
	var app *temporal.ApplicationError
	require.True(t, errors.As(err, &app), "%v", err)
	require.Contains(t, app.Message(), `workflow type "Pack" is not registered`)
}

func TestNexusOperationCanceledByItsCaller(t *testing.T) {
	for _, tc := range []struct {
		cancellation workflow.NexusOperationCancellationType
		events       []enumspb.EventType
	}{
		// WaitCompleted (the default): the operation's end, after its
		// workflow was canceled.
		{workflow.NexusOperationCancellationTypeWaitCompleted, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
			enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED,
			enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED}},
		// WaitRequested: once the handler received the request; the
		// operation ends later, as its workflow does.
		{workflow.NexusOperationCancellationTypeWaitRequested, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
			enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED,
			enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED}},
	} {
		t.Run(fmt.Sprint(tc.cancellation), func(t *testing.T) {
			env := newNexusEnv(t)
			env.RegisterWorkflow(Pack)
			env.RegisterNexusService(newOrdersService(t))
			var canceled []string
			env.SetOnNexusOperationCanceledListener(func(service, operation string) {
				canceled = append(canceled, service+"/"+operation)
			})
			env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
				c := workflow.NewNexusClient("orders-endpoint", ordersService)
				opCtx, cancel := workflow.WithCancel(ctx)
				defer cancel()
				fut := c.ExecuteOperation(opCtx, "pack", "o-2", workflow.NexusOperationOptions{CancellationType: tc.cancellation})
				if err := fut.GetNexusOperationExecution().Get(ctx, nil); err != nil {
					return "", err
				}
				cancel()
				err := fut.Get(ctx, nil)
				var canceled *temporal.CanceledError
				if !errors.As(err, &canceled) {
					return "", fmt.Errorf("want a canceled error, got %w", err)
				}
				// Stay until the workflow of the operation ended.
				return "canceled", workflow.Sleep(ctx, time.Minute)
			})
			var out string
			require.NoError(t, env.GetWorkflowResult(&out))
			require.Equal(t, "canceled", out)
			require.Equal(t, []string{"orders/pack"}, canceled)
			h, err := env.GetHistory()
			require.NoError(t, err)
			require.Equal(t, tc.events, nexusEventTypes(h))
			err = env.GetWorkflowErrorByID("pack-o-2")
			var canceledErr *temporal.CanceledError
			require.True(t, errors.As(err, &canceledErr), "the operation's workflow was canceled: %v", err)
		})
	}
}

func TestNexusScheduleToCloseTimeoutOnTheVirtualClock(t *testing.T) {
	env := newNexusEnv(t)
	start := env.Now()
	env.RegisterWorkflow(Pack)
	env.RegisterNexusService(newOrdersService(t))
	env.SetDetachedChildWait(false)
	env.ExecuteWorkflow(callOrders, "pack", "o-3", 10*time.Minute)
	err := env.GetWorkflowError()
	var timeout *temporal.TimeoutError
	require.True(t, errors.As(err, &timeout), "%v", err)
	require.Equal(t, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, timeout.TimeoutType())
	require.Equal(t, 10*time.Minute, env.Now().Sub(start))
	h, herr := env.GetHistory()
	require.NoError(t, herr)
	require.Equal(t, []enumspb.EventType{enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT}, nexusEventTypes(h))
}

func TestNexusStartToCloseTimeoutOnTheVirtualClock(t *testing.T) {
	env := newNexusEnv(t)
	start := env.Now()
	env.RegisterWorkflow(Pack)
	env.RegisterNexusService(newOrdersService(t))
	env.SetDetachedChildWait(false)
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		c := workflow.NewNexusClient("orders-endpoint", ordersService)
		return c.ExecuteOperation(ctx, "pack", "o-6", workflow.NexusOperationOptions{StartToCloseTimeout: 5 * time.Minute}).Get(ctx, nil)
	})
	var timeout *temporal.TimeoutError
	require.True(t, errors.As(env.GetWorkflowError(), &timeout), "%v", env.GetWorkflowError())
	require.Equal(t, enumspb.TIMEOUT_TYPE_START_TO_CLOSE, timeout.TimeoutType())
	require.Equal(t, 5*time.Minute, env.Now().Sub(start))
}

// A handler's client reaches the environment's workflows: here a
// synchronous operation signals its caller.
func TestNexusHandlerSignalsAWorkflowWithItsClient(t *testing.T) {
	env := newNexusEnv(t)
	notes := nexus.NewService("notes")
	require.NoError(t, notes.Register(nexus.NewSyncOperation("note", func(ctx context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
		return "noted", temporalnexus.GetClient(ctx).SignalWorkflow(ctx, "caller", "", "note", in)
	})))
	env.RegisterNexusService(notes)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "caller"})
	env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		var answer string
		if err := workflow.NewNexusClient("notes-endpoint", "notes").ExecuteOperation(ctx, "note", "hello", workflow.NexusOperationOptions{}).Get(ctx, &answer); err != nil {
			return "", err
		}
		var note string
		workflow.GetSignalChannel(ctx, "note").Receive(ctx, &note)
		return answer + ": " + note, nil
	})
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "noted: hello", out)
}

func TestNexusMocks(t *testing.T) {
	env := newNexusEnv(t)
	start := env.Now()
	var started, completed []string
	env.SetOnNexusOperationStartedListener(func(service, operation string, input converter.EncodedValue) {
		var in string
		require.NoError(t, input.Get(&in))
		started = append(started, operation+"("+in+")")
	})
	env.SetOnNexusOperationCompletedListener(func(service, operation string, result converter.EncodedValue, err error) {
		var out string
		if err == nil {
			require.NoError(t, result.Get(&out))
		}
		completed = append(completed, fmt.Sprintf("%s: %q %v", operation, out, err != nil))
	})
	svc := newOrdersService(t)
	env.OnNexusOperation(svc, "reserve", "sku-9", mock.Anything).Return(&nexus.HandlerStartOperationResultSync[string]{Value: "mock reserved"}, nil).After(5 * time.Minute).Once()
	ship := nexus.NewOperationReference[string, string]("ship")
	env.OnNexusOperation(ordersService, ship, "o-4", workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Hour}).
		Return(&nexus.HandlerStartOperationResultAsync{OperationToken: "ship-o-4"}, nil).Once()
	require.NoError(t, env.RegisterNexusAsyncOperationCompletion(ordersService, "ship", "ship-o-4", "shipped o-4", nil, 20*time.Minute))
	env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		reserved, err := callOrders(ctx, "reserve", "sku-9", time.Hour)
		if err != nil {
			return "", err
		}
		shipped, err := callOrders(ctx, "ship", "o-4", time.Hour)
		return reserved + ", " + shipped, err
	})
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "mock reserved, shipped o-4", out)
	require.Equal(t, 25*time.Minute, env.Now().Sub(start), "the mocked reservation took 5 minutes, the mocked completion came 20 minutes after the start, on the clock")
	require.Equal(t, []string{"reserve(sku-9)", "ship(o-4)"}, started)
	require.Equal(t, []string{`reserve: "mock reserved" false`, `ship: "shipped o-4" false`}, completed)
	env.AssertExpectations(t)
	env.AssertNexusOperationCalled(t, ordersService, "ship", "o-4", workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Hour})
	env.AssertNexusOperationNotCalled(t, ordersService, "reserve", "sku-1", mock.Anything)
	env.AssertNexusOperationNumberOfCalls(t, ordersService, 2)
}

func TestNexusUnregisteredServiceFailsTheOperation(t *testing.T) {
	for name, register := range map[string]bool{"another service registered": true, "no service registered": false} {
		t.Run(name, func(t *testing.T) {
			env := newNexusEnv(t)
			if register {
				billing := nexus.NewService("billing")
				require.NoError(t, billing.Register(nexus.NewSyncOperation("charge", func(context.Context, string, nexus.StartOperationOptions) (string, error) {
					return "charged", nil
				})))
				env.RegisterNexusService(billing)
			}
			env.ExecuteWorkflow(callOrders, "reserve", "sku-1", time.Minute)
			err := env.GetWorkflowError()
			var opErr *temporal.NexusOperationError
			require.True(t, errors.As(err, &opErr), "%v", err)
			var herr *nexus.HandlerError
			require.True(t, errors.As(err, &herr), "%v", err)
			require.Equal(t, nexus.HandlerErrorTypeInternal, herr.Type)
			var app *temporal.ApplicationError
			require.True(t, errors.As(err, &app), "%v", err)
			require.Equal(t, `panic: nexus service "orders" is not registered with the TestWorkflowEnvironment`, app.Message(), "as go.temporal.io/sdk's test environment says it")
		})
	}
}

func TestRegisterNexusServiceRefusesDuplicatesAndNamelessServices(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterNexusService(nexus.NewService("billing"))
	require.PanicsWithValue(t, `service name "billing" is already registered`, func() { env.RegisterNexusService(nexus.NewService("billing")) })
	require.Panics(t, func() { env.RegisterNexusService(nexus.NewService("")) })
}

// recordingPlugin registers a Nexus service as its worker starts.
type recordingPlugin struct {
	worker.PluginBase
	service *nexus.Service
}

func (p *recordingPlugin) Name() string { return "nexus-recording" }

func (p *recordingPlugin) StartWorker(ctx context.Context, options worker.PluginStartWorkerOptions, next func(context.Context, worker.PluginStartWorkerOptions) error) error {
	options.WorkerRegistry.RegisterNexusService(p.service)
	return next(ctx, options)
}

func TestAPluginRegistersANexusServiceWithTheEnvironment(t *testing.T) {
	env := newNexusEnv(t)
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{&recordingPlugin{service: newOrdersService(t)}}})
	env.ExecuteWorkflow(callOrders, "reserve", "sku-2", time.Minute)
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "reserved sku-2", out)
}

func TestAPluginMayRegisterANexusServiceWithAnActivityEnvironment(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{&recordingPlugin{service: newOrdersService(t)}}})
	value, err := env.ExecuteActivity(func(context.Context) (string, error) { return "done", nil })
	require.NoError(t, err, "activities call no Nexus operations; registering a service is no error, as in go.temporal.io/sdk")
	var out string
	require.NoError(t, value.Get(&out))
	require.Equal(t, "done", out)
}
