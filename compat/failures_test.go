package compat

import (
	"context"
	"errors"
	"fmt"
	officialconverter "go.temporal.io/sdk/converter"
	"reflect"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/sdk/activity"
	official "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/failure"
	ours "github.com/durable-go/sdk/temporal"
)

type quotaError struct{ limit int }

func (e *quotaError) Error() string { return fmt.Sprintf("over quota %d", e.limit) }

type reason struct {
	Code string `json:"code"`
}

// errorPair is the same error made with each SDK's public constructors.
type errorPair struct {
	name     string
	ours     error
	official error
	details  int // how many details each error of the chain carries at most
}

func errorPairs() []errorPair {
	cause := func() error { return fmt.Errorf("wrapped: %w", &quotaError{limit: 3}) }
	return []errorPair{
		{"application error with details",
			ours.NewApplicationError("declined", "CardDeclined", reason{"51"}, 2),
			official.NewApplicationError("declined", "CardDeclined", reason{"51"}, 2), 2},
		{"non-retryable application error with cause chain",
			ours.NewNonRetryableApplicationError("outer", "Outer", cause(), "d"),
			official.NewNonRetryableApplicationError("outer", "Outer", cause(), "d"), 1},
		{"application error with options",
			ours.NewApplicationErrorWithOptions("retry later", "Busy", ours.ApplicationErrorOptions{
				NextRetryDelay: 90 * time.Second, Category: ours.ApplicationErrorCategoryBenign, Details: []any{true}}),
			official.NewApplicationErrorWithOptions("retry later", "Busy", official.ApplicationErrorOptions{
				NextRetryDelay: 90 * time.Second, Category: official.ApplicationErrorCategoryBenign, Details: []any{true}}), 1},
		{"payload validation error with a detail",
			ours.NewPayloadValidationError(reason{"too large"}),
			official.NewPayloadValidationError(reason{"too large"}), 1},
		{"payload validation error without details",
			ours.NewPayloadValidationError(nil),
			official.NewPayloadValidationError(nil), 0},
		{"canceled with details",
			ours.NewCanceledError(reason{"user"}, "more"),
			official.NewCanceledError(reason{"user"}, "more"), 2},
		{"canceled with message and cause",
			ours.NewCanceledErrorWithOptions(ours.CanceledErrorOptions{Message: "stopped", Cause: errors.New("shutdown")}),
			official.NewCanceledErrorWithOptions(official.CanceledErrorOptions{Message: "stopped", Cause: errors.New("shutdown")}), 0},
		{"timeout with heartbeat details",
			ours.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, ours.NewApplicationError("last attempt", "X"), 75, "step-3"),
			official.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, official.NewApplicationError("last attempt", "X"), 75, "step-3"), 2},
		{"heartbeat timeout",
			ours.NewHeartbeatTimeoutError("hb"),
			official.NewHeartbeatTimeoutError("hb"), 1},
		{"nested causes",
			ours.NewApplicationErrorWithCause("a", "A", ours.NewCanceledErrorWithOptions(ours.CanceledErrorOptions{
				Cause: ours.NewTimeoutError(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, &quotaError{limit: 1})})),
			official.NewApplicationErrorWithCause("a", "A", official.NewCanceledErrorWithOptions(official.CanceledErrorOptions{
				Cause: official.NewTimeoutError(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, &quotaError{limit: 1})})), 0},
		{"plain Go errors", cause(), cause(), 0},
		{"errors.Join", errors.Join(errors.New("a"), errors.New("b")), errors.Join(errors.New("a"), errors.New("b")), 0},
	}
}

// withMessagesOnce is the failure go.temporal.io/sdk writes with the one
// difference this SDK makes on purpose: an error that wraps another as
// "context: cause" (fmt.Errorf's %w) carries "context" as its message, not
// "context: cause", since the cause follows as the failure's Cause;
// go.temporal.io/sdk's decoded errors say every wrapped message twice or
// more ("wrapped: over quota 3 (type: wrapError, ...): over quota 3").
func withMessagesOnce(f *failurepb.Failure) *failurepb.Failure {
	f = proto.Clone(f).(*failurepb.Failure)
	dc := officialconverter.GetDefaultDataConverter()
	encoded := f.GetEncodedAttributes() != nil
	for level := f; level != nil; level = level.GetCause() {
		officialconverter.DecodeCommonFailureAttributes(dc, level)
	}
	for level := f; level != nil; level = level.GetCause() {
		if level.GetCause() != nil && level.GetApplicationFailureInfo().GetType() == "wrapError" {
			level.Message = strings.TrimSuffix(level.GetMessage(), ": "+level.GetCause().GetMessage())
		}
	}
	for level := f; encoded && level != nil; level = level.GetCause() {
		if err := officialconverter.EncodeCommonFailureAttributes(dc, level); err != nil {
			panic(err)
		}
	}
	return f
}

func TestFailureConvertersWriteIdenticalFailures(t *testing.T) {
	for _, encode := range []bool{false, true} {
		ourFC := ours.NewDefaultFailureConverter(ours.DefaultFailureConverterOptions{EncodeCommonAttributes: encode})
		theirFC := official.NewDefaultFailureConverter(official.DefaultFailureConverterOptions{EncodeCommonAttributes: encode})
		for _, pair := range errorPairs() {
			t.Run(fmt.Sprintf("%s/encoded=%v", pair.name, encode), func(t *testing.T) {
				mine, theirs := ourFC.ErrorToFailure(pair.ours), withMessagesOnce(theirFC.ErrorToFailure(pair.official))
				if !proto.Equal(mine, theirs) {
					t.Errorf("failures differ:\n ours     %v\n official %v", mine, theirs)
				}
			})
		}
	}
}

func TestFailureConvertersReadEachOther(t *testing.T) {
	for _, encode := range []bool{false, true} {
		ourFC := ours.NewDefaultFailureConverter(ours.DefaultFailureConverterOptions{EncodeCommonAttributes: encode})
		theirFC := official.NewDefaultFailureConverter(official.DefaultFailureConverterOptions{EncodeCommonAttributes: encode})
		for _, pair := range errorPairs() {
			t.Run(fmt.Sprintf("%s/encoded=%v", pair.name, encode), func(t *testing.T) {
				ourFailure, theirFailure := ourFC.ErrorToFailure(pair.ours), theirFC.ErrorToFailure(pair.official)
				want := describeOfficial(theirFC.FailureToError(theirFailure), pair.details)
				if got := describeOurs(ourFC.FailureToError(theirFailure), pair.details); !reflect.DeepEqual(got, want) {
					t.Errorf("ours reading official:\n got  %+v\n want %+v", got, want)
				}
				wantOnce := describeOfficial(theirFC.FailureToError(withMessagesOnce(theirFailure)), pair.details)
				if got := describeOfficial(theirFC.FailureToError(ourFailure), pair.details); !reflect.DeepEqual(got, wantOnce) {
					t.Errorf("official reading ours:\n got  %+v\n want %+v", got, wantOnce)
				}
				// Reading keeps the failure: writing it again gives it back.
				if again := ourFC.ErrorToFailure(ourFC.FailureToError(theirFailure)); !proto.Equal(again, theirFailure) {
					t.Errorf("re-encoding official failure is lossy")
				}
			})
		}
	}
}

// link describes one error of a cause chain in SDK-neutral terms.
type link struct {
	Kind         string
	Error        string
	Type         string
	NonRetryable bool
	TimeoutType  enumspb.TimeoutType
	StackTrace   string
	Details      []any
}

// decodeDetails decodes up to n details into generic values.
func decodeDetails(get func(...any) error, n int) []any {
	if n == 0 {
		return nil
	}
	ptrs := make([]any, n)
	for i := range ptrs {
		ptrs[i] = new(any)
	}
	if err := get(ptrs...); err != nil {
		return []any{"error: " + err.Error()}
	}
	out := make([]any, n)
	for i, p := range ptrs {
		out[i] = *p.(*any)
	}
	return out
}

func describeOurs(err error, n int) []link {
	var chain []link
	for ; err != nil; err = errors.Unwrap(err) {
		l := link{Kind: reflect.TypeOf(err).Elem().Name(), Error: err.Error()}
		switch e := err.(type) {
		case *ours.ApplicationError:
			l.Type, l.NonRetryable = e.Type(), e.NonRetryable()
			if e.HasDetails() {
				l.Details = decodeDetails(e.Details, n)
			}
		case *ours.CanceledError:
			if e.HasDetails() {
				l.Details = decodeDetails(e.Details, n)
			}
		case *ours.TimeoutError:
			l.TimeoutType = e.TimeoutType()
			if e.HasLastHeartbeatDetails() {
				l.Details = decodeDetails(e.LastHeartbeatDetails, n)
			}
		case *ours.PanicError:
			l.StackTrace = e.StackTrace()
		}
		chain = append(chain, l)
	}
	return chain
}

func describeOfficial(err error, n int) []link {
	var chain []link
	for ; err != nil; err = errors.Unwrap(err) {
		l := link{Kind: reflect.TypeOf(err).Elem().Name(), Error: err.Error()}
		switch e := err.(type) {
		case *official.ApplicationError:
			l.Type, l.NonRetryable = e.Type(), e.NonRetryable()
			if e.HasDetails() {
				l.Details = decodeDetails(e.Details, n)
			}
		case *official.CanceledError:
			if e.HasDetails() {
				l.Details = decodeDetails(e.Details, n)
			}
		case *official.TimeoutError:
			l.TimeoutType = e.TimeoutType()
			if e.HasLastHeartbeatDetails() {
				l.Details = decodeDetails(e.LastHeartbeatDetails, n)
			}
		case *official.PanicError:
			l.StackTrace = e.StackTrace()
		}
		chain = append(chain, l)
	}
	return chain
}

// runOfficialWorkflow runs wf in the official SDK's test environment and
// returns the error the workflow returned (unwrapped from the
// WorkflowExecutionError), as made by the official SDK.
func runOfficialWorkflow(t *testing.T, wf any) error {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(func(context.Context) error {
		return official.NewApplicationError("card declined", "CardDeclined", reason{"51"})
	}, activity.RegisterOptions{Name: "Charge"})
	env.RegisterActivityWithOptions(func(context.Context) error {
		panic("card reader on fire")
	}, activity.RegisterOptions{Name: "Crash"})
	env.RegisterWorkflowWithOptions(func(workflow.Context) error {
		return official.NewNonRetryableApplicationError("child failed", "ChildFailure", nil, "why")
	}, workflow.RegisterOptions{Name: "Child"})
	env.ExecuteWorkflow(wf)
	err := env.GetWorkflowError()
	if err == nil {
		t.Fatal("workflow did not fail")
	}
	return errors.Unwrap(err)
}

func callActivity(name string) func(workflow.Context) error {
	return func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         &official.RetryPolicy{MaximumAttempts: 1},
		})
		return workflow.ExecuteActivity(ctx, name).Get(ctx, nil)
	}
}

func callChild(ctx workflow.Context) error {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "child-1"})
	return workflow.ExecuteChildWorkflow(ctx, "Child").Get(ctx, nil)
}

// TestWrapperFailuresMadeByOfficialWorkers checks activity, panic and child
// workflow failures made by the official SDK's worker code: we read them,
// and our constructors given the same facts write the very same failures.
func TestWrapperFailuresMadeByOfficialWorkers(t *testing.T) {
	theirFC := official.GetDefaultFailureConverter()
	ourFC := ours.GetDefaultFailureConverter()

	t.Run("activity error wrapping application error", func(t *testing.T) {
		err := runOfficialWorkflow(t, callActivity("Charge"))
		var theirActivity *official.ActivityError
		if !errors.As(err, &theirActivity) {
			t.Fatalf("got %T", err)
		}
		f := theirFC.ErrorToFailure(theirActivity)
		decoded := ourFC.FailureToError(f)
		var a *ours.ActivityError
		var app *ours.ApplicationError
		var r reason
		if !errors.As(decoded, &a) || !errors.As(decoded, &app) || app.Details(&r) != nil || r.Code != "51" ||
			a.ActivityType().GetName() != "Charge" || a.ScheduledEventID() != theirActivity.ScheduledEventID() ||
			a.StartedEventID() != theirActivity.StartedEventID() || a.RetryState() != theirActivity.RetryState() ||
			decoded.Error() != theirActivity.Error() {
			t.Errorf("decoded = %v", decoded)
		}
		mine := failure.NewActivityError(a.ScheduledEventID(), a.StartedEventID(), a.Identity(), "Charge", a.ActivityID(),
			a.RetryState(), ours.NewApplicationError("card declined", "CardDeclined", reason{"51"}))
		if got := ourFC.ErrorToFailure(mine); !proto.Equal(got, f) {
			t.Errorf("our activity failure differs:\n ours     %v\n official %v", got, f)
		}
	})

	t.Run("activity panic", func(t *testing.T) {
		err := runOfficialWorkflow(t, callActivity("Crash"))
		var theirPanic *official.PanicError
		if !errors.As(err, &theirPanic) || theirPanic.StackTrace() == "" {
			t.Fatalf("got %v", err)
		}
		f := theirFC.ErrorToFailure(theirPanic)
		decoded := ourFC.FailureToError(f)
		var p *ours.PanicError
		if !errors.As(decoded, &p) || p.Error() != theirPanic.Error() || p.StackTrace() != theirPanic.StackTrace() {
			t.Errorf("decoded = %v", decoded)
		}
		mine := failure.NewPanicError(theirPanic.Error(), theirPanic.StackTrace())
		if got := ourFC.ErrorToFailure(mine); !proto.Equal(got, f) {
			t.Errorf("our panic failure differs:\n ours     %v\n official %v", got, f)
		}
		// And the official SDK reads ours as a PanicError.
		var back *official.PanicError
		if !errors.As(theirFC.FailureToError(ourFC.ErrorToFailure(mine)), &back) || back.StackTrace() != theirPanic.StackTrace() {
			t.Error("official SDK does not read our panic")
		}
	})

	t.Run("child workflow error", func(t *testing.T) {
		err := runOfficialWorkflow(t, callChild)
		var theirChild *official.ChildWorkflowExecutionError
		if !errors.As(err, &theirChild) {
			t.Fatalf("got %T %v", err, err)
		}
		f := theirFC.ErrorToFailure(theirChild)
		decoded := ourFC.FailureToError(f)
		var c *ours.ChildWorkflowExecutionError
		var app *ours.ApplicationError
		var why string
		if !errors.As(decoded, &c) || !errors.As(decoded, &app) || !app.NonRetryable() || app.Details(&why) != nil ||
			why != "why" || c.WorkflowID() != "child-1" || c.WorkflowType() != "Child" || decoded.Error() != theirChild.Error() {
			t.Errorf("decoded = %v", decoded)
		}
		mine := failure.NewChildWorkflowExecutionError(c.Namespace(), c.WorkflowID(), c.RunID(), c.WorkflowType(),
			c.InitiatedEventID(), c.StartedEventID(), c.RetryState(),
			ours.NewNonRetryableApplicationError("child failed", "ChildFailure", nil, "why"))
		if got := ourFC.ErrorToFailure(mine); !proto.Equal(got, f) {
			t.Errorf("our child failure differs:\n ours     %v\n official %v", got, f)
		}
	})
}

// TestServerAndTerminatedFailures uses failures as the server writes them.
func TestServerAndTerminatedFailures(t *testing.T) {
	for _, f := range []*failurepb.Failure{
		{Message: "internal", Source: "Server", FailureInfo: &failurepb.Failure_ServerFailureInfo{ServerFailureInfo: &failurepb.ServerFailureInfo{NonRetryable: true}}},
		{Message: "terminated by admin", FailureInfo: &failurepb.Failure_TerminatedFailureInfo{TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}},
		{Message: "reset", FailureInfo: &failurepb.Failure_ResetWorkflowFailureInfo{ResetWorkflowFailureInfo: &failurepb.ResetWorkflowFailureInfo{}}},
		{Message: "from a newer server", Cause: &failurepb.Failure{Message: "inner"}},
	} {
		got := describeOurs(ours.GetDefaultFailureConverter().FailureToError(f), 0)
		want := describeOfficial(official.GetDefaultFailureConverter().FailureToError(f), 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n ours     %+v\n official %+v", f.Message, got, want)
		}
	}
}
