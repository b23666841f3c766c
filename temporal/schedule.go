package temporal

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

var (
	// ErrScheduleAlreadyRunning is returned by ScheduleClient.Create when
	// a schedule with the same ID exists.
	ErrScheduleAlreadyRunning = clientapi.ErrScheduleAlreadyRunning

	// ErrSkipScheduleUpdate, returned by the DoUpdate function given to
	// ScheduleHandle.Update, leaves the schedule unchanged; Update then
	// returns nil.
	ErrSkipScheduleUpdate = clientapi.ErrSkipScheduleUpdate
)
