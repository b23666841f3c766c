package resilience

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Shape is what a Mixed workflow does.
type Shape int

const (
	ShapeActivities Shape = iota // two activities in a row
	ShapeTimer                   // a timer, then an activity
	ShapeSignal                  // waits for a signal, then an activity
	ShapeAll                     // an activity, a timer, a signal and an activity
	ShapeChild                   // a child workflow of ShapeActivities, then an activity
	numShapes
)

// MixedInput is a Mixed workflow's input.
type MixedInput struct {
	Shape Shape
	N     int
	// Timer is how long the timer of ShapeTimer and ShapeAll lasts.
	Timer time.Duration
	// ActivityTime is how long each activity takes, so that faults find
	// some running.
	ActivityTime time.Duration
}

// Want is the result a Mixed workflow must return for in.
func (in MixedInput) Want() int {
	switch in.Shape {
	case ShapeActivities:
		return in.N + 2
	case ShapeSignal:
		return in.N + signalValue + 1
	case ShapeAll:
		return in.N + signalValue + 2
	case ShapeChild:
		return in.N + 3
	default:
		return in.N + 1
	}
}

const (
	addSignal   = "add"
	signalValue = 1000
)

// Mixed runs the steps its shape names, adding one per activity and the
// signal's value, so that its result shows every step ran exactly once.
func Mixed(ctx workflow.Context, in MixedInput) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, MaximumInterval: time.Second},
	})
	v := in.N
	addOne := func() error { return workflow.ExecuteActivity(ctx, AddOne, v, in.ActivityTime).Get(ctx, &v) }
	sleep := func() error { return workflow.Sleep(ctx, in.Timer) }
	receive := func() error {
		var add int
		workflow.GetSignalChannel(ctx, addSignal).Receive(ctx, &add)
		v += add
		return nil
	}
	child := func() error {
		in := MixedInput{Shape: ShapeActivities, N: v, ActivityTime: in.ActivityTime}
		return workflow.ExecuteChildWorkflow(ctx, Mixed, in).Get(ctx, &v)
	}
	var steps []func() error
	switch in.Shape {
	case ShapeActivities:
		steps = []func() error{addOne, addOne}
	case ShapeTimer:
		steps = []func() error{sleep, addOne}
	case ShapeSignal:
		steps = []func() error{receive, addOne}
	case ShapeAll:
		steps = []func() error{addOne, sleep, receive, addOne}
	case ShapeChild:
		steps = []func() error{child, addOne}
	default:
		return 0, fmt.Errorf("unknown shape %d", in.Shape)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// AddOne returns v+1 after d, and records its run in the ledger.
func AddOne(ctx context.Context, v int, d time.Duration) (int, error) {
	info := activity.GetInfo(ctx)
	key := info.WorkflowExecution.ID + "/" + info.ActivityID
	activities.started(key, info.TaskToken)
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	activities.succeeded(key, info.TaskToken)
	return v + 1, nil
}

// activityLedger counts, per activity (workflow ID and activity ID), how
// often its code ran to success and how often the server accepted a
// success report for it.
type activityLedger struct {
	mu        sync.Mutex
	tokens    map[string]string // task token → activity
	successes map[string]int    // runs that returned a result
	accepted  map[string]int    // RespondActivityTaskCompleted calls the server accepted
	failed    int               // RespondActivityTaskCompleted attempts that failed: lost, or refused by the server
	// By task token: the runs that succeeded, and those the worker
	// reported a success for (in any attempt of the call).
	succeededTokens, reportedTokens map[string]bool

	// onStart and onSuccess, when set, hear of each run (the crash test's
	// worker process tells its parent).
	onStart, onSuccess func(key string)
}

var activities activityLedger

func (l *activityLedger) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens, l.successes, l.accepted, l.failed = map[string]string{}, map[string]int{}, map[string]int{}, 0
	l.succeededTokens, l.reportedTokens = map[string]bool{}, map[string]bool{}
}

func (l *activityLedger) started(key string, token []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tokens != nil {
		l.tokens[string(token)] = key
	}
	if l.onStart != nil {
		l.onStart(key)
	}
}

func (l *activityLedger) succeeded(key string, token []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.successes != nil {
		l.successes[key]++
		l.succeededTokens[string(token)] = true
	}
	if l.onSuccess != nil {
		l.onSuccess(key)
	}
}

// countReports is a gRPC interceptor for the worker's connection: it
// sees every attempt of every call, and counts the success reports.
func (l *activityLedger) countReports(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if r, ok := req.(*workflowservice.RespondActivityTaskCompletedRequest); ok {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.reportedTokens[string(r.GetTaskToken())] = true
		if err == nil {
			l.accepted[l.tokens[string(r.GetTaskToken())]]++
		} else {
			l.failed++
		}
	}
	return err
}

// ledgerFigures are what a test reports of its activities.
type ledgerFigures struct {
	Activities, Runs, Retried, Accepted, FailedReports, AcceptedTwice int
	// Success reports for a task whose run did not succeed, and successes
	// never reported: a worker's bugs the server cannot catch.
	ReportedWithoutSuccess, SucceededUnreported int
}

// ran reports whether the activity's code ran to success here.
func (l *activityLedger) ran(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.successes[key] > 0
}

func (l *activityLedger) figures() ledgerFigures {
	l.mu.Lock()
	defer l.mu.Unlock()
	var f ledgerFigures
	f.Activities = len(l.successes)
	for _, n := range l.successes {
		f.Runs += n
		if n > 1 {
			f.Retried++
		}
	}
	for _, n := range l.accepted {
		f.Accepted += n
		if n > 1 {
			f.AcceptedTwice++
		}
	}
	f.FailedReports = l.failed
	for token := range l.reportedTokens {
		if !l.succeededTokens[token] {
			f.ReportedWithoutSuccess++
		}
	}
	for token := range l.succeededTokens {
		if !l.reportedTokens[token] {
			f.SucceededUnreported++
		}
	}
	return f
}

// mixedInputs returns n inputs, the shapes in turn.
func mixedInputs(n int, timer, activityTime time.Duration) []MixedInput {
	ins := make([]MixedInput, n)
	for i := range ins {
		ins[i] = MixedInput{Shape: Shape(i % int(numShapes)), N: i * 10, Timer: timer, ActivityTime: activityTime}
	}
	return ins
}

var idSeq atomic.Int64

// unique names a workflow ID or task queue after the test.
func unique(t *testing.T, what string) string {
	return fmt.Sprintf("%s-%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), what, time.Now().UnixNano(), idSeq.Add(1))
}

// startMixed starts a Mixed workflow per input on taskQueue, and sends
// the signal to those that wait for one. The workflow IDs are prefix-i.
func startMixed(t *testing.T, c client.Client, taskQueue, prefix string, ins []MixedInput, opts client.StartWorkflowOptions) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ids := make([]string, len(ins))
	errs := make([]error, len(ins))
	parallel(len(ins), 16, func(i int) {
		o := opts
		o.ID, o.TaskQueue = fmt.Sprintf("%s-%d", prefix, i), taskQueue
		ids[i] = o.ID
		if _, err := c.ExecuteWorkflow(ctx, o, Mixed, ins[i]); err != nil {
			errs[i] = err
			return
		}
		if ins[i].Shape == ShapeSignal || ins[i].Shape == ShapeAll {
			errs[i] = c.SignalWorkflow(ctx, o.ID, "", addSignal, signalValue)
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("starting workflow %d: %v", i, err)
		}
	}
	return ids
}

// requireResults waits for every workflow and checks its result; it
// returns how long the wait took.
func requireResults(t *testing.T, c client.Client, ids []string, ins []MixedInput, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	errs := make([]error, len(ids))
	parallel(len(ids), 32, func(i int) {
		var got int
		if err := c.GetWorkflow(ctx, ids[i], "").Get(ctx, &got); err != nil {
			errs[i] = err
		} else if want := ins[i].Want(); got != want {
			errs[i] = fmt.Errorf("result %d, want %d", got, want)
		}
	})
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			if failed <= 5 {
				t.Errorf("workflow %s (%+v): %v", ids[i], ins[i], err)
			}
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d workflows did not complete correctly", failed, len(ids))
	}
	return time.Since(start)
}

// requireOneCompletionPerActivity checks the histories: every activity
// scheduled was completed exactly once, and the workflow completed. The
// server makes sure of the first part whatever a worker does, so it also
// checks what only the worker decides: that each completion history
// records follows a run of the activity's code that succeeded (ran says
// whether one did, by activity key) — a worker that reported a success
// it never had, or one activity's result for another, would fail here.
func requireOneCompletionPerActivity(t *testing.T, c client.Client, ids []string, ran func(key string) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	errs := make([]error, len(ids))
	parallel(len(ids), 16, func(i int) {
		scheduled, completed, closed := 0, 0, false
		activityIDs := map[int64]string{} // by the ID of the scheduled event
		var neverRan []string
		it := c.GetWorkflowHistory(ctx, ids[i], "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				errs[i] = err
				return
			}
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
				scheduled++
				activityIDs[ev.GetEventId()] = ev.GetActivityTaskScheduledEventAttributes().GetActivityId()
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
				completed++
				key := ids[i] + "/" + activityIDs[ev.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()]
				if !ran(key) {
					neverRan = append(neverRan, key)
				}
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
				closed = true
			}
		}
		switch {
		case scheduled != completed || !closed:
			errs[i] = fmt.Errorf("%d activities scheduled, %d completed, workflow completed: %v", scheduled, completed, closed)
		case len(neverRan) > 0:
			errs[i] = fmt.Errorf("history records the completion of activities whose code never succeeded: %v", neverRan)
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("workflow %s: %v", ids[i], err)
		}
	}
}

// parallel runs fn(0..n-1) on at most width goroutines.
func parallel(n, width int, fn func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, width)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fn(i)
		}()
	}
	wg.Wait()
}

// newMixedWorker returns a worker of Mixed and AddOne on taskQueue.
func newMixedWorker(c client.Client, taskQueue string, opts worker.Options) worker.Worker {
	w := worker.New(c, taskQueue, opts)
	w.RegisterWorkflow(Mixed)
	w.RegisterActivity(AddOne)
	return w
}
