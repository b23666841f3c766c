package testenv

import (
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal"
)

// withInitialVersioningBehavior gives the ContinueAsNewError a run ended
// with (runErr, read from its close event) the initial versioning
// behavior the event recorded: go.temporal.io/sdk's test environment
// hands back the error the workflow returned, which carries it, where a
// client's Get does not.
func withInitialVersioningBehavior(runErr error, closeEvent *historypb.HistoryEvent) error {
	if can, ok := runErr.(*internal.ContinueAsNewError); ok {
		can.InitialVersioningBehavior = internal.ContinueAsNewVersioningBehavior(closeEvent.GetWorkflowExecutionContinuedAsNewEventAttributes().GetInitialVersioningBehavior())
	}
	return runErr
}
