package engine

import (
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/commands"
)

// UnsupportedEventError is a history event of a feature this SDK does not
// implement yet. It is not non-determinism: the workflow code may well be
// right, but this SDK cannot replay it.
type UnsupportedEventError struct {
	Event *historypb.HistoryEvent
	// empty for an event type this SDK does not know at all.
	Feature string
}

func (e *UnsupportedEventError) Error() string {
	if e.Feature == "" {
		return fmt.Sprintf("history has %s, an event type this SDK does not know: the history was written by a newer server or SDK; upgrade this SDK",
			commands.DescribeEvent(e.Event))
	}
	return fmt.Sprintf("history has %s, which belongs to %s: this SDK does not support %s yet (the README lists what is not supported); run this workflow on a worker of go.temporal.io/sdk",
		commands.DescribeEvent(e.Event), e.Feature, e.Feature)
}

// informational are the events that change nothing the workflow code can
// see: the engine applies them by skipping them.
var informational = map[enumspb.EventType]bool{
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:                 true,
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:                  true,
	enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED_EXTERNALLY:       true,
	enumspb.EVENT_TYPE_ACTIVITY_PROPERTIES_MODIFIED_EXTERNALLY:       true,
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED:            true,
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_PAUSED:                     true,
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UNPAUSED:                   true,
	enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIME_SKIPPING_TRANSITIONED: true,
}

// unsupportedFeatures names the feature of each event type that no command
// kind owns yet. When a feature lands, its kind owns the events and they
// leave this table (Nexus operations were the last).
var unsupportedFeatures = map[enumspb.EventType]string{}

// checkInformational accepts an event that no command kind owns and the
// engine does not handle itself only if it changes nothing for the code:
// an informational event, or one of a type this SDK does not know that the
// server marks worker_may_ignore (a newer server's events that older
// workers may skip, as go.temporal.io/sdk skips them). An unknown event
// without the mark, or one of a feature this SDK lacks, is an error.
func checkInformational(ev *historypb.HistoryEvent) error {
	if informational[ev.GetEventType()] {
		return nil
	}
	feature := unsupportedFeatures[ev.GetEventType()]
	if feature == "" && ev.GetWorkerMayIgnore() {
		return nil
	}
	return &UnsupportedEventError{Event: ev, Feature: feature}
}
