package internal

import (
	"errors"
	"fmt"
)

// errStartMissingTaskQueue is returned before a start request is sent without a
// task queue, which the server would refuse with a less helpful message.
var errStartMissingTaskQueue = errors.New("StartWorkflowOptions.TaskQueue is required: it names the task queue the workflow's worker polls")

// errHistoryNoMoreEvents is returned by HistoryEventIterator.Next when HasNext
// would have returned false.
var errHistoryNoMoreEvents = errors.New("no more history events: call HasNext before Next")

// wrapCallError says which call failed and on what, keeping err reachable
// with errors.As and errors.Is (a *serviceerror.NotFound stays one).
// A nil err gives nil.
func wrapCallError(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
