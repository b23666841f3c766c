package typedtest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

func greet(_ context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }
func ping(context.Context) (string, error)                 { return "pong", nil }
func add(_ context.Context, a, b int) (int, error)         { return a + b, nil }
func join3(_ context.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, b, c), nil
}
func record(context.Context, string) error           { return nil }
func tick(context.Context) error                     { return nil }
func note2(context.Context, string, int) error       { return nil }
func note3(context.Context, string, int, bool) error { return nil }

var activityOptions = workflow.ActivityOptions{StartToCloseTimeout: time.Minute}

// everyShape calls one activity of each shape and reports what they
// returned.
func everyShape(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	g, err1 := typed.ExecuteActivity(ctx, greet, name).Get(ctx)
	p, err2 := typed.ExecuteActivity0(ctx, ping).Get(ctx)
	s, err3 := typed.ExecuteActivity2(ctx, add, 1, 2).Get(ctx)
	j, err4 := typed.ExecuteActivity3(ctx, join3, "x", 1, true).Get(ctx)
	_, err5 := typed.ExecuteActivityNoResult(ctx, record, name).Get(ctx)
	_, err6 := typed.ExecuteActivityNoResult0(ctx, tick).Get(ctx)
	_, err7 := typed.ExecuteActivityNoResult2(ctx, note2, "y", 2).Get(ctx)
	_, err8 := typed.ExecuteActivityNoResult3(ctx, note3, "z", 3, false).Get(ctx)
	return fmt.Sprint(g, " ", p, " ", s, " ", j), errors.Join(err1, err2, err3, err4, err5, err6, err7, err8)
}

func newEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return env
}

func TestOnActivityMocksEachShapeWithTypedResults(t *testing.T) {
	env := newEnv()
	typedtest.OnActivity(env, greet, "Ada").Return("Hi, Ada", nil).Once()
	typedtest.OnActivity0(env, ping).Return("mocked pong", nil)
	typedtest.OnActivity2(env, add, 1, mock.Anything).ReturnFunc(func(_ context.Context, a, b int) (int, error) { return a * 100, nil })
	typedtest.OnActivity3(env, join3, "x", 1, true).Return("joined", nil).Times(1)
	typedtest.OnActivityNoResult(env, record, "Ada").Return(typed.None{}, nil)
	typedtest.OnActivityNoResult0(env, tick).Return(typed.None{}, nil)
	typedtest.OnActivityNoResult2(env, note2, "y", 2).Return(typed.None{}, nil)
	typedtest.OnActivityNoResult3(env, note3, "z", 3, false).Return(typed.None{}, nil).Once()
	got, err := typedtest.ExecuteWorkflow(env, everyShape, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Hi, Ada mocked pong 100 joined"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	env.AssertExpectations(t)
}

func TestAMockedFailureReachesTheWorkflow(t *testing.T) {
	env := newEnv()
	typedtest.OnActivity(env, greet, mock.Anything).Return("", temporal.NewNonRetryableApplicationError("no greetings today", "Closed", nil))
	typedtest.OnActivityNoResult(env, record, mock.Anything).Return(typed.None{}, nil).Never()
	_, err := typedtest.ExecuteWorkflow(env, func(ctx workflow.Context, name string) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, activityOptions)
		return typed.ExecuteActivity(ctx, greet, name).Get(ctx)
	}, "Ada")
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != "Closed" {
		t.Fatalf("got %v, want the mocked ApplicationError of type Closed", err)
	}
}

// A typed mock writes the history an untyped mock of the same call writes.
func TestTypedAndUntypedMocksWriteTheSameHistory(t *testing.T) {
	typedEnv := newEnv()
	typedEnv.RegisterWorkflowWithOptions(everyShape, workflow.RegisterOptions{Name: "EveryShape"})
	typedtest.OnActivity(typedEnv, greet, "Ada").Return("Hi", nil)
	typedtest.OnActivity0(typedEnv, ping).Return("p", nil)
	typedtest.OnActivity2(typedEnv, add, 1, 2).Return(3, nil)
	typedtest.OnActivity3(typedEnv, join3, mock.Anything, mock.Anything, mock.Anything).Return("j", nil)
	typedtest.OnActivityNoResult(typedEnv, record, "Ada").Return(typed.None{}, nil)
	typedtest.OnActivityNoResult0(typedEnv, tick).Return(typed.None{}, nil)
	typedtest.OnActivityNoResult2(typedEnv, note2, "y", 2).Return(typed.None{}, nil)
	typedtest.OnActivityNoResult3(typedEnv, note3, "z", 3, false).Return(typed.None{}, nil)
	typedEnv.ExecuteWorkflow("EveryShape", "Ada")

	untypedEnv := newEnv()
	untypedEnv.RegisterWorkflowWithOptions(everyShape, workflow.RegisterOptions{Name: "EveryShape"})
	untypedEnv.OnActivity(greet, mock.Anything, "Ada").Return("Hi", nil)
	untypedEnv.OnActivity(ping, mock.Anything).Return("p", nil)
	untypedEnv.OnActivity(add, mock.Anything, 1, 2).Return(3, nil)
	untypedEnv.OnActivity(join3, mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return("j", nil)
	untypedEnv.OnActivity(record, mock.Anything, "Ada").Return(nil)
	untypedEnv.OnActivity(tick, mock.Anything).Return(nil)
	untypedEnv.OnActivity(note2, mock.Anything, "y", 2).Return(nil)
	untypedEnv.OnActivity(note3, mock.Anything, "z", 3, false).Return(nil)
	untypedEnv.ExecuteWorkflow("EveryShape", "Ada")

	for _, env := range []*testsuite.TestWorkflowEnvironment{typedEnv, untypedEnv} {
		var got string
		if err := env.GetWorkflowResult(&got); err != nil || got != "Hi p 3 j" {
			t.Fatalf("got %q, %v; want %q", got, err, "Hi p 3 j")
		}
	}
	typedHistory, err := typedEnv.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	untypedHistory, err := untypedEnv.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	if err := typedtest.CompareHistories(untypedHistory, typedHistory); err != nil {
		t.Fatal(err)
	}
}

func zero(workflow.Context) (string, error)                   { return "zero", nil }
func two(_ workflow.Context, a string, b int) (string, error) { return fmt.Sprint(a, b), nil }
func three(_ workflow.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, b, c), nil
}
func fails(workflow.Context, string) error                { return errors.New("it failed") }
func succeeds0(workflow.Context) error                    { return nil }
func succeeds2(workflow.Context, string, int) error       { return nil }
func succeeds3(workflow.Context, string, int, bool) error { return nil }

func TestExecuteWorkflowReturnsTheResultOfEachShape(t *testing.T) {
	check := func(got string, err error, want string) {
		t.Helper()
		if err != nil || got != want {
			t.Errorf("got %q, %v; want %q", got, err, want)
		}
	}
	got, err := typedtest.ExecuteWorkflow0(newEnv(), zero)
	check(got, err, "zero")
	got, err = typedtest.ExecuteWorkflow2(newEnv(), two, "a", 1)
	check(got, err, "a1")
	got, err = typedtest.ExecuteWorkflow3(newEnv(), three, "b", 2, true)
	check(got, err, "b2 true")
	if err := typedtest.ExecuteWorkflowNoResult(newEnv(), fails, "x"); err == nil || !strings.Contains(err.Error(), "it failed") {
		t.Errorf("a failing workflow returned %v, want its error", err)
	}
	for i, err := range []error{
		typedtest.ExecuteWorkflowNoResult0(newEnv(), succeeds0),
		typedtest.ExecuteWorkflowNoResult2(newEnv(), succeeds2, "a", 1),
		typedtest.ExecuteWorkflowNoResult3(newEnv(), succeeds3, "a", 1, true),
	} {
		if err != nil {
			t.Errorf("workflow %d: %v", i, err)
		}
	}
}

func parent(ctx workflow.Context) (string, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "the-child"})
	return typed.ExecuteChildWorkflow2(ctx, two, "child", 7).Get(ctx)
}

func TestGetWorkflowResultByIDReadsAChildsResult(t *testing.T) {
	env := newEnv()
	env.RegisterWorkflow(two)
	if _, err := typedtest.ExecuteWorkflow0(env, parent); err != nil {
		t.Fatal(err)
	}
	got, err := typedtest.GetWorkflowResultByID[string](env, "the-child")
	if err != nil || got != "child7" {
		t.Errorf("the child's result: %q, %v; want child7", got, err)
	}
}

func TestAnUpdateReadBeforeItCompletedSaysSo(t *testing.T) {
	env := newEnv()
	update := typed.NewUpdate[string, int]("never-handled")
	result := typedtest.UpdateWorkflow(env, update, "u1", "x")
	if _, err := result.Get(); err == nil || !strings.Contains(err.Error(), "has not completed") {
		t.Errorf("before the run: %v, want an error saying the update has not completed", err)
	}
	_, _ = typedtest.ExecuteWorkflow0(env, zero)
	if _, err := result.Get(); err == nil || result.Accepted() {
		t.Errorf("an update the workflow has no handler for: %v (accepted %v), want its rejection", err, result.Accepted())
	}
}

func TestCompareHistoriesNamesTheFirstDifference(t *testing.T) {
	run := func(name string, start time.Time) *testsuite.TestWorkflowEnvironment {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.SetStartTime(start)
		env.RegisterWorkflowWithOptions(everyShape, workflow.RegisterOptions{Name: "EveryShape"})
		for _, fn := range []any{greet, ping, add, join3, record, tick, note2, note3} {
			env.RegisterActivity(fn)
		}
		env.ExecuteWorkflow("EveryShape", name)
		return env
	}
	history := func(env *testsuite.TestWorkflowEnvironment) *historypb.History {
		h, err := env.GetHistory()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	ada := history(run("Ada", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	adaLater := history(run("Ada", time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)))
	bob := history(run("Bob", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))

	if err := typedtest.CompareHistories(ada, adaLater); err != nil {
		t.Errorf("two runs with the same input at different times: %v, want the same history", err)
	}
	err := typedtest.CompareHistories(ada, bob)
	if err == nil || !strings.HasPrefix(err.Error(), "event 1 differs: want WorkflowExecutionStarted") {
		t.Errorf("runs with other inputs: %v, want their first event named", err)
	}
	shorter := &historypb.History{Events: ada.GetEvents()[:5]}
	want := fmt.Sprintf("want %d events, got 5 (the first 5 are the same)", len(ada.GetEvents()))
	if err := typedtest.CompareHistories(ada, shorter); err == nil || err.Error() != want {
		t.Errorf("a cut history: %v, want the lengths said", err)
	}
}

// The history's size counts the bytes of what differs between runs (a
// request ID "task-9" in one run is "task-11" in another), so it is not
// compared, nor a suggestion to continue as new for that size alone; a
// suggestion for another reason, and the times of attributes, are as
// compared as the event times are: the first not, the second yes.
func TestCompareHistoriesIgnoresWhatDependsOnTimesAndMadeUpNames(t *testing.T) {
	started := func(requestID string, size int64, reasons ...enumspb.SuggestContinueAsNewReason) *historypb.History {
		return &historypb.History{Events: []*historypb.HistoryEvent{{
			EventId:   3,
			EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{WorkflowTaskStartedEventAttributes: &historypb.WorkflowTaskStartedEventAttributes{
				ScheduledEventId: 2, RequestId: requestID, HistorySizeBytes: size,
				SuggestContinueAsNew: len(reasons) > 0, SuggestContinueAsNewReasons: reasons,
			}},
		}}}
	}
	tooLarge := enumspb.SUGGEST_CONTINUE_AS_NEW_REASON_HISTORY_SIZE_TOO_LARGE
	tooMany := enumspb.SUGGEST_CONTINUE_AS_NEW_REASON_TOO_MANY_HISTORY_EVENTS
	if err := typedtest.CompareHistories(started("task-9", 3210), started("task-11", 3211)); err != nil {
		t.Errorf("sizes that differ by a request ID's length: %v", err)
	}
	if err := typedtest.CompareHistories(started("task-9", 3210), started("task-11", 5000, tooLarge)); err != nil {
		t.Errorf("a suggestion to continue as new for the size alone: %v", err)
	}
	if err := typedtest.CompareHistories(started("task-9", 3210, tooMany, tooLarge), started("task-11", 3211, tooMany)); err != nil {
		t.Errorf("a suggestion for too many events, with and without the size: %v", err)
	}
	if err := typedtest.CompareHistories(started("task-9", 3210), started("task-9", 3210, tooMany)); err == nil {
		t.Error("a suggestion to continue as new for too many events went unnoticed")
	}

	startedAt := func(expires time.Time, input string) *historypb.History {
		return &historypb.History{Events: []*historypb.HistoryEvent{{
			EventId:   1,
			EventTime: timestamppb.New(expires.Add(-time.Hour)),
			EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType:                    &commonpb.WorkflowType{Name: input},
				WorkflowExecutionExpirationTime: timestamppb.New(expires),
			}},
		}}}
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := typedtest.CompareHistories(startedAt(now, "A"), startedAt(now.Add(123456789*time.Nanosecond), "A")); err != nil {
		t.Errorf("an expiration time of another run: %v", err)
	}
	if err := typedtest.CompareHistories(startedAt(now, "A"), startedAt(now, "B")); err == nil {
		t.Error("another workflow type went unnoticed")
	}
}

func one(_ workflow.Context, name string) (string, error) { return "one " + name, nil }

// everyChild starts a child of each shape, one after the other, and
// reports what they returned.
func everyChild(ctx workflow.Context, name string) (string, error) {
	o, err1 := typed.ExecuteChildWorkflow(ctx, one, name).Get(ctx)
	z, err2 := typed.ExecuteChildWorkflow0(ctx, zero).Get(ctx)
	t, err3 := typed.ExecuteChildWorkflow2(ctx, two, "a", 1).Get(ctx)
	h, err4 := typed.ExecuteChildWorkflow3(ctx, three, "b", 2, true).Get(ctx)
	_, err5 := typed.ExecuteChildWorkflowNoResult(ctx, fails, name).Get(ctx)
	_, err6 := typed.ExecuteChildWorkflowNoResult0(ctx, succeeds0).Get(ctx)
	_, err7 := typed.ExecuteChildWorkflowNoResult2(ctx, succeeds2, "c", 3).Get(ctx)
	_, err8 := typed.ExecuteChildWorkflowNoResult3(ctx, succeeds3, "d", 4, false).Get(ctx)
	return fmt.Sprint(o, " ", z, " ", t, " ", h), errors.Join(err1, err2, err3, err4, err5, err6, err7, err8)
}

func TestOnWorkflowMocksEachShapeWithTypedResults(t *testing.T) {
	env := newEnv()
	typedtest.OnWorkflow(env, one, "Ada").Return("mocked one", nil).Once()
	typedtest.OnWorkflow0(env, zero).Return("mocked zero", nil)
	typedtest.OnWorkflow2(env, two, "a", mock.Anything).ReturnFunc(func(_ workflow.Context, a string, b int) (string, error) {
		return fmt.Sprint("func ", a, b*100), nil
	})
	typedtest.OnWorkflow3(env, three, "b", 2, true).Return("mocked three", nil).Times(1)
	typedtest.OnWorkflowNoResult(env, fails, "Ada").Return(typed.None{}, nil) // the real one fails
	typedtest.OnWorkflowNoResult0(env, succeeds0).Return(typed.None{}, nil)
	typedtest.OnWorkflowNoResult2(env, succeeds2, "c", 3).Return(typed.None{}, nil)
	typedtest.OnWorkflowNoResult3(env, succeeds3, "d", 4, false).Return(typed.None{}, nil).Once()
	got, err := typedtest.ExecuteWorkflow(env, everyChild, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if want := "mocked one mocked zero func a100 mocked three"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	env.AssertExpectations(t)
}

func TestAMockedChildFailureReachesTheParent(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want func(error) bool
	}{
		{"fails", temporal.NewNonRetryableApplicationError("no children today", "Closed", nil), func(err error) bool {
			var appErr *temporal.ApplicationError
			return errors.As(err, &appErr) && appErr.Type() == "Closed"
		}},
		{"does not start", testsuite.ErrMockStartChildWorkflowFailed, func(err error) bool {
			var appErr *temporal.ApplicationError
			return errors.As(err, &appErr) && appErr.Type() == "ChildWorkflowExecutionAlreadyStartedError"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := newEnv()
			typedtest.OnWorkflow(env, one, mock.Anything).Return("", c.err)
			_, err := typedtest.ExecuteWorkflow(env, func(ctx workflow.Context, name string) (string, error) {
				return typed.ExecuteChildWorkflow(ctx, one, name).Get(ctx)
			}, "Ada")
			if !c.want(err) {
				t.Fatalf("the parent ended with %v", err)
			}
		})
	}
}

// A typed mock of a child writes the history an untyped mock of the same
// child writes.
func TestTypedAndUntypedChildMocksWriteTheSameHistory(t *testing.T) {
	typedEnv := newEnv()
	typedEnv.RegisterWorkflowWithOptions(everyChild, workflow.RegisterOptions{Name: "EveryChild"})
	typedtest.OnWorkflow(typedEnv, one, "Ada").Return("1", nil)
	typedtest.OnWorkflow0(typedEnv, zero).Return("0", nil).After(time.Hour)
	typedtest.OnWorkflow2(typedEnv, two, "a", 1).Return("2", nil)
	typedtest.OnWorkflow3(typedEnv, three, mock.Anything, mock.Anything, mock.Anything).Return("3", nil)
	typedtest.OnWorkflowNoResult(typedEnv, fails, "Ada").Return(typed.None{}, nil)
	typedtest.OnWorkflowNoResult0(typedEnv, succeeds0).Return(typed.None{}, nil)
	typedtest.OnWorkflowNoResult2(typedEnv, succeeds2, "c", 3).Return(typed.None{}, nil)
	typedtest.OnWorkflowNoResult3(typedEnv, succeeds3, "d", 4, false).Return(typed.None{}, nil)
	typedEnv.ExecuteWorkflow("EveryChild", "Ada")

	untypedEnv := newEnv()
	untypedEnv.RegisterWorkflowWithOptions(everyChild, workflow.RegisterOptions{Name: "EveryChild"})
	untypedEnv.OnWorkflow(one, mock.Anything, "Ada").Return("1", nil)
	untypedEnv.OnWorkflow(zero, mock.Anything).Return("0", nil).After(time.Hour)
	untypedEnv.OnWorkflow(two, mock.Anything, "a", 1).Return("2", nil)
	untypedEnv.OnWorkflow(three, mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return("3", nil)
	untypedEnv.OnWorkflow(fails, mock.Anything, "Ada").Return(nil)
	untypedEnv.OnWorkflow(succeeds0, mock.Anything).Return(nil)
	untypedEnv.OnWorkflow(succeeds2, mock.Anything, "c", 3).Return(nil)
	untypedEnv.OnWorkflow(succeeds3, mock.Anything, "d", 4, false).Return(nil)
	untypedEnv.ExecuteWorkflow("EveryChild", "Ada")

	for _, env := range []*testsuite.TestWorkflowEnvironment{typedEnv, untypedEnv} {
		var got string
		if err := env.GetWorkflowResult(&got); err != nil || got != "1 0 2 3" {
			t.Fatalf("got %q, %v; want %q", got, err, "1 0 2 3")
		}
	}
	typedHistory, err := typedEnv.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	untypedHistory, err := untypedEnv.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	if err := typedtest.CompareHistories(untypedHistory, typedHistory); err != nil {
		t.Fatal(err)
	}
	children := 0
	for _, e := range typedHistory.GetEvents() {
		if e.GetEventType() == enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED {
			children++
		}
	}
	if children != 8 {
		t.Errorf("the history holds %d completed children, want 8", children)
	}
}
