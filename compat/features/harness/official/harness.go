// Package harness is a small runner for features of the cross-SDK
// features suite (github.com/temporalio/features, harness/go/harness):
// the part of its Feature and Runner API that the versioning and Nexus
// features use, written for this module so that the same feature files run on
// both SDKs, and RunTest, which runs one as a Go test on the dev server.
// The source is in ours; official is generated from it with
// the SDK's import prefix rewritten (compat/features'
// TestFeaturesAreOneSource).
package harness

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/nexus-rpc/sdk-go/nexus"
	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Feature is one feature: what its worker registers and runs, how it is
// executed and what its run must end with.
type Feature struct {
	// Workflows is one workflow or a slice of them: functions or
	// WorkflowWithOptions. The first is the one ExecuteDefault starts.
	Workflows any
	// Activities is one activity or a slice of them: functions or
	// ActivityWithOptions.
	Activities any
	// NexusServices is one *nexus.Service or a slice of them, registered
	// on the runner's worker. A feature with Nexus services gets an
	// endpoint that targets its namespace and task queue:
	// Runner.NexusEndpoint.
	NexusServices any
	// ExpectRunResult, when set, is the result the run must return.
	ExpectRunResult any
	// WorkerOptions are the options of the runner's worker; its
	// WorkflowPanicPolicy is set to FailWorkflow.
	WorkerOptions worker.Options
	// StartWorkflowOptionsMutator, when set, changes ExecuteDefault's
	// start options.
	StartWorkflowOptionsMutator func(*client.StartWorkflowOptions)
	// Execute starts the feature's run; ExecuteDefault when nil.
	Execute func(ctx context.Context, r *Runner) (client.WorkflowRun, error)
	// CheckResult checks the run's result; CheckResultDefault when nil.
	CheckResult func(ctx context.Context, r *Runner, run client.WorkflowRun) error
	// CheckHistory checks the histories; CheckHistoryDefault when nil.
	CheckHistory func(ctx context.Context, r *Runner, run client.WorkflowRun) error
}

// WorkflowWithOptions is a workflow registered with options.
type WorkflowWithOptions struct {
	Workflow any
	Options  workflow.RegisterOptions
}

// ActivityWithOptions is an activity registered with options.
type ActivityWithOptions struct {
	Activity any
	Options  activity.RegisterOptions
}

// RunnerConfig says where a feature runs.
type RunnerConfig struct {
	ServerHostPort string
	Namespace      string
	TaskQueue      string
	// NexusEndpoint is the name of the Nexus endpoint that targets the
	// namespace and task queue. When it is empty and the feature has Nexus
	// services, NewRunner creates one with a unique name and Close deletes
	// it (upstream, the features runner does this for features/nexus).
	NexusEndpoint string
}

// Runner runs one feature: a client, a worker on the config's task queue,
// then the feature's Execute and checks.
type Runner struct {
	RunnerConfig
	Client client.Client
	Worker worker.Worker
	// Feature is the runner's own copy: features change its WorkerOptions
	// between workers.
	Feature    *Feature
	CreateTime time.Time
	// createdEndpoint is the Nexus endpoint NewRunner created, which Close
	// deletes.
	createdEndpoint *nexuspb.Endpoint
}

// SkipError is what Skip returns: the feature does not run on this server.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "feature skipped: " + e.Reason }

// NewRunner dials the server and starts the feature's worker.
func NewRunner(config RunnerConfig, feature Feature) (*Runner, error) {
	r := &Runner{RunnerConfig: config, Feature: &feature}
	c, err := client.Dial(client.Options{HostPort: config.ServerHostPort, Namespace: config.Namespace})
	if err != nil {
		return nil, fmt.Errorf("dialing %s: %w", config.ServerHostPort, err)
	}
	r.Client = c
	r.CreateTime = time.Now()
	r.Feature.WorkerOptions.WorkflowPanicPolicy = worker.FailWorkflow
	if r.NexusEndpoint == "" && len(asSlice(feature.NexusServices)) > 0 {
		if err := r.createNexusEndpoint(); err != nil {
			r.Close()
			return nil, err
		}
	}
	if err := r.StartWorker(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Run executes the feature, checks its result and its histories, and
// closes the runner.
func (r *Runner) Run(ctx context.Context) error {
	defer r.Close()
	execute := r.Feature.Execute
	if execute == nil {
		execute = func(ctx context.Context, r *Runner) (client.WorkflowRun, error) { return r.ExecuteDefault(ctx) }
	}
	run, err := execute(ctx, r)
	if run == nil || err != nil {
		return err
	}
	if r.Feature.CheckResult != nil {
		err = r.Feature.CheckResult(ctx, r, run)
	} else {
		err = r.CheckResultDefault(ctx, run)
	}
	if err != nil {
		return err
	}
	if r.Feature.CheckHistory != nil {
		return r.Feature.CheckHistory(ctx, r, run)
	}
	return r.CheckHistoryDefault(ctx, run)
}

// Close stops the worker, deletes the Nexus endpoint NewRunner created
// and closes the client.
func (r *Runner) Close() {
	r.StopWorker()
	if r.createdEndpoint != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		// Failing to delete leaves an endpoint no run uses: not the
		// feature's failure, as upstream, which only logs it.
		_, _ = r.Client.OperatorService().DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{
			Id:      r.createdEndpoint.GetId(),
			Version: r.createdEndpoint.GetVersion(),
		})
		cancel()
		r.createdEndpoint = nil
	}
	if r.Client != nil {
		r.Client.Close()
		r.Client = nil
	}
}

// createNexusEndpoint creates a Nexus endpoint with a unique name that
// targets the runner's namespace and task queue, and names it in
// NexusEndpoint.
func (r *Runner) createNexusEndpoint() error {
	// Endpoint names allow fewer characters than task queue names.
	name := "features-nexus-" + strings.NewReplacer("/", "-", "_", "-").Replace(r.TaskQueue) + "-" + uuid.NewString()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := r.Client.OperatorService().CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{
		Spec: &nexuspb.EndpointSpec{
			Name: name,
			Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
				Namespace: r.Namespace,
				TaskQueue: r.TaskQueue,
			}}},
		},
	})
	if err != nil {
		return fmt.Errorf("creating the Nexus endpoint %s for task queue %s: %w", name, r.TaskQueue, err)
	}
	r.NexusEndpoint = name
	r.createdEndpoint = resp.GetEndpoint()
	return nil
}

// Skip returns the error that marks the feature skipped.
func (r *Runner) Skip(reason string) error { return &SkipError{Reason: reason} }

// ExecuteDefault starts the first workflow without arguments.
func (r *Runner) ExecuteDefault(ctx context.Context) (client.WorkflowRun, error) {
	opts := client.StartWorkflowOptions{TaskQueue: r.TaskQueue, WorkflowExecutionTimeout: time.Minute}
	if r.Feature.StartWorkflowOptionsMutator != nil {
		r.Feature.StartWorkflowOptionsMutator(&opts)
	}
	workflows := asSlice(r.Feature.Workflows)
	if len(workflows) == 0 {
		return nil, errors.New("feature has no workflow")
	}
	if w, ok := workflows[0].(WorkflowWithOptions); ok {
		if w.Options.Name != "" {
			return r.Client.ExecuteWorkflow(ctx, opts, w.Options.Name)
		}
		return r.Client.ExecuteWorkflow(ctx, opts, w.Workflow)
	}
	return r.Client.ExecuteWorkflow(ctx, opts, workflows[0])
}

// CheckResultDefault waits for the run and compares its result with
// ExpectRunResult when that is set.
func (r *Runner) CheckResultDefault(ctx context.Context, run client.WorkflowRun) error {
	var got any
	if r.Feature.ExpectRunResult != nil {
		got = reflect.New(reflect.TypeOf(r.Feature.ExpectRunResult)).Interface()
	}
	if err := run.Get(ctx, got); err != nil {
		return fmt.Errorf("expected success, got: %w", err)
	}
	if got != nil {
		if value := reflect.ValueOf(got).Elem().Interface(); !reflect.DeepEqual(value, r.Feature.ExpectRunResult) {
			return fmt.Errorf("run result %#v, want %#v", value, r.Feature.ExpectRunResult)
		}
	}
	return nil
}

// CheckHistoryDefault waits until every workflow started on the task
// queue has closed, and replays all their histories with the feature's
// workflows.
func (r *Runner) CheckHistoryDefault(ctx context.Context, _ client.WorkflowRun) error {
	var executions []*common.WorkflowExecution
	var running []string
	query := fmt.Sprintf("TaskQueue = '%s'", r.TaskQueue)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		executions, running = nil, nil
		resp, err := r.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: r.Namespace, Query: query, PageSize: 1000})
		if err != nil {
			return fmt.Errorf("listing workflows: %w", err)
		}
		for _, info := range resp.Executions {
			executions = append(executions, info.Execution)
			if info.Status == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
				running = append(running, info.Execution.WorkflowId)
			}
		}
		if len(executions) > 0 && len(running) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after 5s, %d workflows found on %s, still running: %v", len(executions), r.TaskQueue, running)
		}
	}
	replayer := worker.NewWorkflowReplayer()
	for _, w := range asSlice(r.Feature.Workflows) {
		if w, ok := w.(WorkflowWithOptions); ok {
			replayer.RegisterWorkflowWithOptions(w.Workflow, w.Options)
			continue
		}
		replayer.RegisterWorkflow(w)
	}
	for _, execution := range executions {
		history := &historypb.History{}
		iter := r.Client.GetWorkflowHistory(ctx, execution.WorkflowId, execution.RunId, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			event, err := iter.Next()
			if err != nil {
				return fmt.Errorf("reading the history of %s: %w", execution.WorkflowId, err)
			}
			history.Events = append(history.Events, event)
		}
		if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
			return fmt.Errorf("replaying %s (run %s): %w", execution.WorkflowId, execution.RunId, err)
		}
	}
	return nil
}

// DoUntilEventually calls predicate at once and then every interval
// until it returns true, or fails after timeout.
func (r *Runner) DoUntilEventually(ctx context.Context, interval, timeout time.Duration, predicate func() bool) error {
	if predicate() {
		return nil
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	expired := time.After(timeout)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-expired:
			return fmt.Errorf("timeout waiting for condition to be met")
		case <-ticker.C:
			if predicate() {
				return nil
			}
		}
	}
}

// QueryUntilEventually queries the run every interval until the answer
// equals expected, or fails after timeout. A query the workflow cannot
// answer yet is tried again.
func (r *Runner) QueryUntilEventually(ctx context.Context, run client.WorkflowRun, query string, expected any, interval, timeout time.Duration) error {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	expired := time.After(timeout)
	var last error
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-expired:
			return fmt.Errorf("timeout waiting for query %v to get proper value, last error: %w", query, last)
		case <-ticker.C:
			value, err := r.Client.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), query)
			var queryFailed *serviceerror.QueryFailed
			if errors.As(err, &queryFailed) || (err != nil && strings.Contains(err.Error(), "task is not scheduled")) {
				continue
			} else if err != nil {
				return fmt.Errorf("failed querying %v: %w", query, err)
			}
			got := reflect.New(reflect.TypeOf(expected)).Interface()
			if err := value.Get(got); err != nil {
				return fmt.Errorf("failed converting result of query %v: %w", query, err)
			}
			if actual := reflect.ValueOf(got).Elem().Interface(); reflect.DeepEqual(actual, expected) {
				return nil
			} else {
				last = fmt.Errorf("query %v answered %#v, want %#v", query, actual, expected)
			}
		}
	}
}

// StartWorker starts a worker with the feature's options and
// registrations; one must not be running.
func (r *Runner) StartWorker() error {
	if r.Worker != nil {
		return errors.New("worker is currently running, cannot start a new one")
	}
	var services []*nexus.Service
	for _, s := range asSlice(r.Feature.NexusServices) {
		service, ok := s.(*nexus.Service)
		if !ok {
			return fmt.Errorf("a Nexus service must be a *nexus.Service, got %T", s)
		}
		services = append(services, service)
	}
	r.Worker = worker.New(r.Client, r.TaskQueue, r.Feature.WorkerOptions)
	for _, w := range asSlice(r.Feature.Workflows) {
		if w, ok := w.(WorkflowWithOptions); ok {
			r.Worker.RegisterWorkflowWithOptions(w.Workflow, w.Options)
			continue
		}
		r.Worker.RegisterWorkflow(w)
	}
	for _, a := range asSlice(r.Feature.Activities) {
		if a, ok := a.(ActivityWithOptions); ok {
			r.Worker.RegisterActivityWithOptions(a.Activity, a.Options)
			continue
		}
		r.Worker.RegisterActivity(a)
	}
	for _, service := range services {
		r.Worker.RegisterNexusService(service)
	}
	if err := r.Worker.Start(); err != nil {
		return fmt.Errorf("failed starting worker: %w", err)
	}
	return nil
}

// StopWorker stops the running worker, if any.
func (r *Runner) StopWorker() {
	if r.Worker != nil {
		r.Worker.Stop()
		r.Worker = nil
	}
}

// ResetStickyQueue moves the run's workflow tasks back to the normal task
// queue, so that a worker started after StopWorker gets them at once.
func (r *Runner) ResetStickyQueue(ctx context.Context, run client.WorkflowRun) error {
	_, err := r.Client.WorkflowService().ResetStickyTaskQueue(ctx, &workflowservice.ResetStickyTaskQueueRequest{
		Namespace: r.Namespace,
		Execution: &common.WorkflowExecution{WorkflowId: run.GetID(), RunId: run.GetRunID()},
	})
	return err
}

// FindEvent returns the first event of the history for which cond is
// true, or nil when none is.
func FindEvent(history client.HistoryEventIterator, cond func(*historypb.HistoryEvent) bool) (*historypb.HistoryEvent, error) {
	for history.HasNext() {
		event, err := history.Next()
		if err != nil {
			return nil, err
		}
		if cond(event) {
			return event, nil
		}
	}
	return nil, nil
}

// asSlice turns one value or a slice of values into a slice.
func asSlice(v any) []any {
	value := reflect.ValueOf(v)
	if !value.IsValid() {
		return nil
	}
	if value.Kind() != reflect.Slice {
		return []any{v}
	}
	out := make([]any, value.Len())
	for i := range out {
		out[i] = value.Index(i).Interface()
	}
	return out
}
