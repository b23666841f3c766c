package engine

import (
	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/commands"
)

// ScheduleNexusOperation schedules a Nexus operation; a summary, when
// given, goes with the command as its user metadata. started runs at most
// once, with the operation's token, when its handler started it
// asynchronously; done runs once, with the result or the error (a
// NexusOperationError from the failure the server recorded, or, for a
// canceled operation resolved before its end, a CanceledError or the
// cancel request's failure), its failures decoded with fc (the run's
// failure converter when nil). resolve says when a canceled operation
// resolves. The error is the summary's, which the data converter could
// not encode.
func (x *Run) ScheduleNexusOperation(attrs *commandpb.ScheduleNexusOperationCommandAttributes, summary string, resolve commands.NexusCancelResolution,
	fc FailureConverter, started func(token string), done func(*commonpb.Payloads, error),
) (*commands.NexusOperation, error) {
	metadata, err := x.userMetadata(summary)
	if err != nil {
		return nil, err
	}
	if fc == nil {
		fc = x.fc
	}
	return x.book.ScheduleNexusOperation(attrs, metadata, resolve, commands.NexusCallbacks{
		Started: started,
		Done: func(o commands.Outcome) {
			if o.Failure != nil {
				done(nil, fc.FailureToError(o.Failure))
				return
			}
			done(o.Result, nil)
		},
	}), nil
}
