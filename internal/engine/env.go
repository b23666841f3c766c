package engine

import (
	"fmt"
	"strconv"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
)

// Now is the workflow's clock: the time its current workflow task started.
func (x *Run) Now() time.Time { return x.now }

// IsReplaying reports that the code is re-running a task history recorded.
func (x *Run) IsReplaying() bool { return x.replaying }

// Info describes the run.
func (x *Run) Info() *Info { return &x.info }

// NextSeq is the sequence number the next command will be known by; the
// default ID of an activity or timer.
func (x *Run) NextSeq() int64 { return x.book.NextSeq() }

// outcomeHandler turns a command outcome into a result or a Go error,
// its failure decoded with fc (the run's when nil).
func (x *Run) outcomeHandler(fc FailureConverter, done func(*commonpb.Payloads, error)) func(commands.Outcome) {
	if fc == nil {
		fc = x.fc
	}
	return func(o commands.Outcome) {
		if o.Failure != nil {
			done(nil, fc.FailureToError(o.Failure))
			return
		}
		done(o.Result, nil)
	}
}

// ScheduleActivity schedules an activity; a summary, when given, goes with
// the command as its user metadata, for the UI. An empty ActivityId
// becomes the command's sequence number. done runs once with the result or
// the error: an *ActivityError, or a CanceledError when canceled and
// waitForCancel is false (with it, the activity's own end decides); its
// failure is decoded with fc (the run's when nil). The error is the
// summary's, which the data converter could not encode.
func (x *Run) ScheduleActivity(attrs *commandpb.ScheduleActivityTaskCommandAttributes, summary string, waitForCancel bool,
	fc FailureConverter, done func(*commonpb.Payloads, error)) (*commands.Activity, error) {
	metadata, err := x.userMetadata(summary)
	if err != nil {
		return nil, err
	}
	if attrs.ActivityId == "" {
		attrs.ActivityId = strconv.FormatInt(x.book.NextSeq(), 10)
	}
	return x.book.ScheduleActivity(attrs, metadata, waitForCancel, x.outcomeHandler(fc, done)), nil
}

// StartTimer starts a timer; done runs once: with nil when it fires, with
// a CanceledError when it is canceled. A summary, when given, goes with the
// command as its user metadata, for the UI.
func (x *Run) StartTimer(d time.Duration, summary string, done func(error)) (*commands.Timer, error) {
	metadata, err := x.userMetadata(summary)
	if err != nil {
		return nil, err
	}
	attrs := &commandpb.StartTimerCommandAttributes{
		TimerId:            strconv.FormatInt(x.book.NextSeq(), 10),
		StartToFireTimeout: durationpb.New(d),
	}
	return x.book.StartTimer(attrs, metadata, x.outcomeHandler(nil, func(_ *commonpb.Payloads, err error) { done(err) })), nil
}

// userMetadata encodes a command's summary with the data converter, as
// go.temporal.io/sdk does; nil when there is none.
func (x *Run) userMetadata(summary string) (*sdkpb.UserMetadata, error) {
	if summary == "" {
		return nil, nil
	}
	p, err := x.dc.ToPayload(summary)
	if err != nil {
		err = fmt.Errorf("encoding the summary %q: %w", summary, err)
		codecfail.FailTask(err)
		return nil, err
	}
	return &sdkpb.UserMetadata{Summary: p}, nil
}

// SetEventGroups sets the event group markers (workflow.EventGroup) that
// the commands of the workflow API call being made carry, and returns the
// ones it replaces: the caller puts them back when its call returns. The
// commands that cancel the call's commands later carry them too.
func (x *Run) SetEventGroups(markers []*sdkpb.EventGroupMarker) (previous []*sdkpb.EventGroupMarker) {
	return x.book.SetEventGroups(markers)
}

// SetReadOnly forbids new commands while code that may only read the
// workflow's state runs (a query handler, an update validator): making
// one panics with a *commands.ReadOnlyError.
func (x *Run) SetReadOnly(readOnly bool) { x.book.SetReadOnly(readOnly) }

// UpsertSearchAttributes records new search attribute values.
func (x *Run) UpsertSearchAttributes(sa *commonpb.SearchAttributes) {
	x.book.UpsertSearchAttributes(&commandpb.UpsertWorkflowSearchAttributesCommandAttributes{SearchAttributes: sa})
}

// UpsertMemo records new memo values.
func (x *Run) UpsertMemo(memo *commonpb.Memo) {
	x.book.ModifyProperties(&commandpb.ModifyWorkflowPropertiesCommandAttributes{UpsertedMemo: memo})
}

// CloseWorkflow records how the workflow code ended; the closing command is
// produced after the task's other commands. Only the first call counts.
func (x *Run) CloseWorkflow(c Close) {
	if x.closing == nil {
		x.closing = &c
	}
}
