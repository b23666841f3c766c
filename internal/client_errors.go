package internal

import (
	"errors"
	"fmt"

	"go.temporal.io/api/serviceerror"
)

// errStartMissingTaskQueue is returned before a start request is sent without a
// task queue, which the server would refuse with a less helpful message.
var errStartMissingTaskQueue = errors.New("StartWorkflowOptions.TaskQueue is required: it names the task queue the workflow's worker polls")

// errHistoryNoMoreEvents is returned by HistoryEventIterator.Next when HasNext
// would have returned false.
var errHistoryNoMoreEvents = errors.New("no more history events: call HasNext before Next")

// wrapCallError says which call failed and on what. An error the server
// returned stays the typed serviceerror it is, unwrapped, as
// go.temporal.io/sdk returns it: ported code that type-asserts
// (err.(*serviceerror.NotFound)) must keep working. A nil err gives nil.
func wrapCallError(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	if _, fromServer := err.(serviceerror.ServiceError); fromServer {
		return err
	}
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
