package worker_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// HeaderEcho returns name and the activity header that the inbound
// interceptor handed it.
func HeaderEcho(ctx context.Context, name string) (string, error) {
	fromHeader, _ := ctx.Value(activityHeaderValue{}).(string)
	return name + " saw " + activity.GetInfo(ctx).ActivityType.Name + " " + fromHeader, nil
}

// readiness is an activity that tells the test the workflow has reached
// its last wait.
type readiness struct {
	once sync.Once
	ch   chan struct{}
}

func (r *readiness) Ready(context.Context) error {
	r.once.Do(func() { close(r.ch) })
	return nil
}

// InterceptedWorkflow uses each kind of call the recording interceptor
// records, in an order that does not depend on timing: an activity, a
// sleep and a timer, a named coroutine waiting for a signal, a second
// activity, and a query handler. It returns what it learned from headers:
// the activity's echo of its header, and the start's client header.
func InterceptedWorkflow(ctx workflow.Context, name string) (string, error) {
	state := "started"
	if err := workflow.SetQueryHandler(ctx, "state", func() (string, error) { return state, nil }); err != nil {
		return "", err
	}
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var echoed string
	if err := workflow.ExecuteActivity(ctx, HeaderEcho, name).Get(ctx, &echoed); err != nil {
		return "", err
	}
	if err := workflow.Sleep(ctx, 10*time.Millisecond); err != nil {
		return "", err
	}
	if err := workflow.NewTimer(ctx, 10*time.Millisecond).Get(ctx, nil); err != nil {
		return "", err
	}
	var finish string
	workflow.GoNamed(ctx, "waiter", func(ctx workflow.Context) {
		workflow.GetSignalChannel(ctx, "finish").Receive(ctx, &finish)
	})
	ready := workflow.ExecuteActivity(ctx, "Ready")
	state = "waiting"
	if err := workflow.Await(ctx, func() bool { return finish != "" && ready.IsReady() }); err != nil {
		return "", err
	}
	if err := ready.Get(ctx, nil); err != nil {
		return "", err
	}
	fromClient, _ := ctx.Value(clientHeaderValue{}).(string)
	return strings.Join([]string{echoed, fromClient, finish}, "|"), nil
}

func dialWith(t *testing.T, options client.Options) client.Client {
	t.Helper()
	options.HostPort = testharness.HostPort(t)
	c, err := client.Dial(options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestInterceptorsSeeEveryCallInOrder runs a workflow on a worker made from
// a client that has an Interceptor: the client's part signs every call
// with a header, the worker's part (which the worker takes from the
// client) records the workflow's and the activities' calls and passes a
// header from the workflow to its activities.
func TestInterceptorsSeeEveryCallInOrder(t *testing.T) {
	log := &callLog{live: true}
	c := dialWith(t, client.Options{Interceptors: []interceptor.ClientInterceptor{&recordingInterceptor{log: log}}})
	ctx := testCtx(t)
	ready := &readiness{ch: make(chan struct{})}
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(InterceptedWorkflow)
		w.RegisterActivity(HeaderEcho)
		w.RegisterActivity(ready)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, InterceptedWorkflow, "Temporal")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ready.ch:
	case <-ctx.Done():
		t.Fatal("the workflow never reached its Ready activity")
	}
	v, err := c.QueryWorkflow(ctx, run.GetID(), "", "state")
	if err != nil {
		t.Fatal(err)
	}
	var state string
	if err := v.Get(&state); err != nil || state != "waiting" {
		t.Fatalf("query: %q, %v", state, err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "finish", "done"); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if want := "Temporal saw HeaderEcho workflow:HeaderEcho|client:ExecuteWorkflow InterceptedWorkflow|done"; result != want {
		t.Errorf("result %q, want %q", result, want)
	}
	if _, err := c.DescribeWorkflow(ctx, run.GetID(), ""); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"client ExecuteWorkflow InterceptedWorkflow",
		"Go root",
		"ExecuteWorkflow header=client:ExecuteWorkflow InterceptedWorkflow",
		"SetQueryHandler state",
		"ExecuteActivity(workflow) HeaderEcho",
		"ExecuteActivity(activity) HeaderEcho header=workflow:HeaderEcho",
		"GetInfo(activity) HeaderEcho",
		"Sleep 10ms",
		"NewTimer 10ms",
		"Go waiter",
		"ExecuteActivity(workflow) Ready",
		"Await",
		"GetSignalChannel finish",
		"ExecuteActivity(activity) Ready header=workflow:Ready",
		"client QueryWorkflow state",
		"HandleQuery state header=client:QueryWorkflow state",
		"client SignalWorkflow finish",
		"HandleSignal finish header=client:SignalWorkflow finish",
		"client DescribeWorkflow",
	}
	if got := log.list(); !slices.Equal(got, want) {
		t.Errorf("calls seen:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	// The history replays with the same interceptor, which sees the same
	// workflow calls (but no client or activity calls).
	replayLog := &callLog{}
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		Interceptors: []interceptor.WorkerInterceptor{&recordingInterceptor{log: replayLog}},
	})
	if err != nil {
		t.Fatal(err)
	}
	replayer.RegisterWorkflow(InterceptedWorkflow)
	if err := replayer.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID()}); err != nil {
		t.Fatal(err)
	}
	var wantReplayed []string
	for _, call := range want {
		if !strings.HasPrefix(call, "client ") && !strings.Contains(call, "(activity)") && !strings.HasPrefix(call, "HandleQuery") {
			wantReplayed = append(wantReplayed, call)
		}
	}
	if got := replayLog.list(); !slices.Equal(got, wantReplayed) {
		t.Errorf("calls seen in replay:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(wantReplayed, "\n  "))
	}
}

// TestClientHeaderReachesSignalWithStartAndTermination checks the client
// calls that TestInterceptorsSeeEveryCallInOrder does not make: the header
// of a signal-with-start reaches both the start and the signal.
func TestClientHeaderReachesSignalWithStartAndTermination(t *testing.T) {
	log := &callLog{live: true}
	c := dialWith(t, client.Options{Interceptors: []interceptor.ClientInterceptor{&recordingInterceptor{log: log}}})
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(SignalsWorkflow) })
	id := unique(t, "wf")
	if _, err := c.SignalWithStartWorkflow(ctx, id, SignalsSignalName, "a", client.StartWorkflowOptions{TaskQueue: tq}, SignalsWorkflow); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the workflow's first task", func() bool { return slices.Contains(log.list(), "GetSignalChannel add") })
	if err := c.TerminateWorkflow(ctx, id, "", "enough"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"client SignalWithStartWorkflow add",
		"Go root",
		// The signal is in the first task's history, so it arrives before
		// the workflow function starts.
		"HandleSignal add header=client:SignalWithStartWorkflow add",
		"ExecuteWorkflow header=client:SignalWithStartWorkflow add",
		"GetSignalChannel add",
		"client TerminateWorkflow enough",
	}
	if got := log.list(); !slices.Equal(got, want) {
		t.Errorf("calls seen:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// orderTagger appends its name to a shared list whenever a workflow or an
// activity enters its inbound interceptor.
type orderTagger struct {
	interceptor.InterceptorBase
	name  string
	mu    *sync.Mutex
	order *[]string
}

// tag records an entry; workflow interceptors call it too.
//
//workflowcheck:ignore test instrumentation: the lock, there for the activities' goroutines, is never held across a yield
func (o *orderTagger) tag(what string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	*o.order = append(*o.order, what+" "+o.name)
}

func (o *orderTagger) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &orderTaggerWorkflow{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, tagger: o}
}

func (o *orderTagger) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &orderTaggerActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, tagger: o}
}

type orderTaggerWorkflow struct {
	interceptor.WorkflowInboundInterceptorBase
	tagger *orderTagger
}

func (w *orderTaggerWorkflow) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	w.tagger.tag("workflow")
	return w.Next.ExecuteWorkflow(ctx, in)
}

type orderTaggerActivity struct {
	interceptor.ActivityInboundInterceptorBase
	tagger *orderTagger
}

func (a *orderTaggerActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	a.tagger.tag("activity")
	return a.Next.ExecuteActivity(ctx, in)
}

// TestInterceptorOrder checks that the client's interceptors wrap the
// worker's, and that the first of each list is the outermost.
func TestInterceptorOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	tagger := func(name string) *orderTagger { return &orderTagger{name: name, mu: &mu, order: &order} }
	c := dialWith(t, client.Options{Interceptors: []interceptor.ClientInterceptor{tagger("client1"), tagger("client2")}})
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{Interceptors: []interceptor.WorkerInterceptor{tagger("worker1"), tagger("worker2")}},
		func(w worker.Worker) {
			w.RegisterWorkflow(ActivitiesWorkflow)
			w.RegisterActivity(Greet)
			w.RegisterActivity(Shout)
		})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, ActivitiesWorkflow, "order")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"workflow client1", "workflow client2", "workflow worker1", "workflow worker2"}
	for range 3 {
		want = append(want, "activity client1", "activity client2", "activity worker1", "activity worker2")
	}
	if !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

// tenantKey is the context key of the value tenantPropagator carries.
type tenantKey struct{}

// tenantPropagator carries a tenant name, a string under tenantKey, from
// Go contexts and workflow contexts into the "tenant" header and back.
type tenantPropagator struct{}

func (tenantPropagator) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	if tenant, ok := ctx.Value(tenantKey{}).(string); ok {
		w.Set("tenant", headerPayload(tenant))
	}
	return nil
}

func (tenantPropagator) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	if p, ok := r.Get("tenant"); ok {
		var tenant string
		if err := converterFromPayload(p, &tenant); err != nil {
			return nil, err
		}
		return context.WithValue(ctx, tenantKey{}, tenant), nil
	}
	return ctx, nil
}

func (tenantPropagator) InjectFromWorkflow(ctx workflow.Context, w workflow.HeaderWriter) error {
	if tenant, ok := ctx.Value(tenantKey{}).(string); ok {
		w.Set("tenant", headerPayload(tenant))
	}
	return nil
}

func (tenantPropagator) ExtractToWorkflow(ctx workflow.Context, r workflow.HeaderReader) (workflow.Context, error) {
	if p, ok := r.Get("tenant"); ok {
		var tenant string
		if err := converterFromPayload(p, &tenant); err != nil {
			return nil, err
		}
		return workflow.WithValue(ctx, tenantKey{}, tenant), nil
	}
	return ctx, nil
}

// TenantActivity returns the tenant its context carries.
func TenantActivity(ctx context.Context) (string, error) {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	return "activity:" + tenant, nil
}

// TenantWorkflow returns the tenant its context carries and the one its
// activity's context carries; it fails without a tenant.
func TenantWorkflow(ctx workflow.Context) (string, error) {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	if tenant == "" {
		return "", errors.New("no tenant in the workflow context")
	}
	var fromActivity string
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	if err := workflow.ExecuteActivity(ctx, TenantActivity).Get(ctx, &fromActivity); err != nil {
		return "", err
	}
	return "workflow:" + tenant + " " + fromActivity, nil
}

// TestContextPropagatorCarriesValuesToWorkflowsAndActivities starts a
// workflow from a context that carries a tenant: the client's propagator
// puts it in the start header, the worker's (the same, from the client)
// puts it in the workflow's context, and from there in the header and the
// context of the workflow's activity. The history replays only with the
// propagator.
func TestContextPropagatorCarriesValuesToWorkflowsAndActivities(t *testing.T) {
	c := dialWith(t, client.Options{ContextPropagators: []workflow.ContextPropagator{tenantPropagator{}}})
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(TenantWorkflow)
		w.RegisterActivity(TenantActivity)
	})
	run, err := c.ExecuteWorkflow(context.WithValue(ctx, tenantKey{}, "acme"), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, TenantWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if want := "workflow:acme activity:acme"; result != want {
		t.Errorf("result %q, want %q", result, want)
	}

	replay := func(propagators ...workflow.ContextPropagator) error {
		r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{ContextPropagators: propagators})
		if err != nil {
			t.Fatal(err)
		}
		r.RegisterWorkflow(TenantWorkflow)
		return r.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID()})
	}
	if err := replay(tenantPropagator{}); err != nil {
		t.Errorf("replay with the propagator: %v", err)
	}
	if err := replay(); err == nil {
		t.Error("replay without the propagator succeeded, but the workflow cannot find its tenant then")
	}
}
