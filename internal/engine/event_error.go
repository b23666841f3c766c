package engine

import (
	"errors"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/commands"
)

// eventError is a failure to apply a history event, for the errors that
// do not say which event themselves: whoever reads it (in a log, in the
// failed workflow task's message) learns where history and code parted.
type eventError struct {
	event *historypb.HistoryEvent
	err   error
}

func (e *eventError) Error() string {
	if e.event.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED {
		return "in the workflow task that " + commands.DescribeEvent(e.event) + " started: " + e.err.Error()
	}
	return "applying " + commands.DescribeEvent(e.event) + ": " + e.err.Error()
}

func (e *eventError) Unwrap() error { return e.err }

// atEvent names ev in err unless err names its event already.
func atEvent(ev *historypb.HistoryEvent, err error) error {
	var nd *commands.NondeterminismError
	var it *commands.IllegalTransitionError
	var ue *UnsupportedEventError
	if (errors.As(err, &nd) && nd.Event != nil) || (errors.As(err, &it) && it.Event != nil) || errors.As(err, &ue) {
		return err
	}
	return &eventError{event: ev, err: err}
}
