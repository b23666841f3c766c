package temporalnexus

import (
	"context"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/nexushandler"
)

// StartActivity starts a standalone activity for the operation and
// answers with its activity-execution token: the activity's end completes
// the caller's operation (through the callback the request carries), its
// result or failure converted with the operation's serialization context.
// activity is a func(context.Context, I) (O, error); StartUntypedActivity
// takes any activity. activityOpts need an ID and StartToCloseTimeout or
// ScheduleToCloseTimeout; TaskQueue defaults to the worker's. Standalone
// activities need server 1.31 or later.
//
// NOTE: Experimental
func StartActivity[I, O any, AF func(context.Context, I) (O, error)](
	ctx context.Context,
	nc NexusClient,
	activityOpts client.StartActivityOptions,
	activity AF,
	arg I,
) (TemporalOperationResult[O], error) {
	return StartUntypedActivity[O](ctx, nc, activityOpts, activity, arg)
}

// StartUntypedActivity is StartActivity for an activity given as a
// function of any signature or as a type name, with any arguments. It
// sends the operation's callback, links and request ID with the start,
// so that a retried start finds the activity it started. One
// asynchronous start per invocation.
//
// NOTE: Experimental
func StartUntypedActivity[R any](
	ctx context.Context,
	nc NexusClient,
	activityOpts client.StartActivityOptions,
	activity any,
	args ...any,
) (TemporalOperationResult[R], error) {
	if err := nc.claimAsync(); err != nil {
		return TemporalOperationResult[R]{}, err
	}
	token, err := startActivity(ctx, nc, activityOpts, activity, args)
	if err != nil {
		nc.releaseAsync()
		return TemporalOperationResult[R]{}, err
	}
	return NewAsyncResult[R](token), nil
}

func startActivity(ctx context.Context, nc NexusClient, activityOpts client.StartActivityOptions, activity any, args []any) (string, error) {
	oc, ok := nexushandler.FromContext(ctx)
	if !ok || oc.ResolveActivityName == nil {
		return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "internal error")
	}
	// The name the worker registered the activity under, aliases
	// included: the client alone does not know the worker's registrations.
	activityType, err := oc.ResolveActivityName(activity)
	if err != nil {
		return "", &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "invalid activity for the operation", Cause: err}
	}
	if activityOpts.TaskQueue == "" {
		activityOpts.TaskQueue = oc.TaskQueue
	}
	if activityOpts.ScheduleToCloseTimeout == 0 && activityOpts.StartToCloseTimeout == 0 {
		return "", &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "at least one of StartToCloseTimeout or ScheduleToCloseTimeout is required"}
	}
	options := nc.options
	links, err := requestLinks(options.Links, GetLogger(ctx).Warn)
	if err != nil {
		return "", &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "could not convert links for activity start", Cause: err}
	}
	start := &clientapi.NexusStart{RequestID: options.RequestID, Links: links, SerializationContext: propagatedContext(oc)}
	if options.CallbackURL != "" {
		// The callback's token has no run ID: the activity has not started.
		callbackToken, err := activityExecutionOperationToken(oc.Namespace, activityOpts.ID, "")
		if err != nil {
			return "", err
		}
		start.Callbacks = completionCallbacks(options, links, map[string]string{nexus.HeaderOperationToken: callbackToken})
	}
	handle, err := nc.client.ExecuteActivity(clientapi.WithNexusStart(ctx, start), activityOpts, activityType, args...)
	if err != nil {
		return "", err
	}
	if start.Link != nil {
		oc.AddResponseLink(start.Link)
	}
	return activityExecutionOperationToken(oc.Namespace, handle.GetID(), handle.GetRunID())
}
