package main

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/workflow"
)

// SlidingWindowInput is the state a SlidingWindowWorkflow run carries to
// the next, as in the Temporal docs' batch sliding-window sample.
type SlidingWindowInput struct {
	PageSize      int // records loaded per run; the run continues as new after each page
	WindowSize    int // children running at once
	Offset        int // the first record of this run's page
	MaximumOffset int // one past the last record
	Progress      int // records whose children reported completion
	// CurrentRecords are the records whose children are still running.
	CurrentRecords map[int]bool
}

// completionSignal is the signal a child sends its parent when done.
const completionSignal = "ReportCompletion"

// SlidingWindowWorkflow processes records MaximumOffset-Offset records,
// keeping WindowSize child workflows running at a time, and continues as
// new after every page to keep its history small. It returns the number
// of records processed.
//
// Unlike the docs' code, it drains the completion signals that arrived
// since its last wait before continuing as new: signals left unread in a
// channel are lost with the run, and the next run would wait forever for
// children that already finished.
func SlidingWindowWorkflow(ctx workflow.Context, in SlidingWindowInput) (int, error) {
	if in.CurrentRecords == nil {
		in.CurrentRecords = make(map[int]bool)
	}
	completions := workflow.GetSignalChannel(ctx, completionSignal)
	completed := func(record int) {
		if in.CurrentRecords[record] {
			delete(in.CurrentRecords, record)
			in.Progress++
		}
	}
	receive := func() {
		var record int
		completions.Receive(ctx, &record)
		completed(record)
	}

	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var records []int
	if err := workflow.ExecuteActivity(actx, GetRecords, in.PageSize, in.Offset, in.MaximumOffset).Get(ctx, &records); err != nil {
		return in.Progress, err
	}
	parentID := workflow.GetInfo(ctx).WorkflowExecution.ID
	for _, record := range records {
		for len(in.CurrentRecords) >= in.WindowSize {
			receive()
		}
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID: fmt.Sprintf("%s/record-%d", parentID, record),
			// The child outlives this run when it continues as new.
			ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON,
		})
		child := workflow.ExecuteChildWorkflow(cctx, RecordProcessorWorkflow, parentID, record)
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return in.Progress, err
		}
		in.CurrentRecords[record] = true
	}
	in.Offset += len(records)
	if in.Offset < in.MaximumOffset {
		// The fix: take every completion that already arrived.
		for {
			var record int
			if !completions.ReceiveAsync(&record) {
				break
			}
			completed(record)
		}
		return in.Progress, workflow.NewContinueAsNewError(ctx, SlidingWindowWorkflow, in)
	}
	for len(in.CurrentRecords) > 0 {
		receive()
	}
	return in.Progress, nil
}

// RecordProcessorWorkflow processes one record and tells its parent.
func RecordProcessorWorkflow(ctx workflow.Context, parentID string, record int) error {
	// Records take different times, so they finish out of order.
	if err := workflow.Sleep(ctx, time.Duration(record%4+1)*100*time.Millisecond); err != nil {
		return err
	}
	workflow.GetLogger(ctx).Info("processed", "Record", record)
	return workflow.SignalExternalWorkflow(ctx, parentID, "", completionSignal, record).Get(ctx, nil)
}

// GetRecords is the activity that loads a page of record numbers.
func GetRecords(_ context.Context, pageSize, offset, maximumOffset int) ([]int, error) {
	var records []int
	for r := offset; r < offset+pageSize && r < maximumOffset; r++ {
		records = append(records, r)
	}
	return records, nil
}
