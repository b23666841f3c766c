package workflow

import "github.com/durable-go/sdk/internal"

// EventGroup names a set of commands that belong together, for the UI and
// for tools that read histories: the commands made with a Context that
// WithEventGroups gave groups, or with options whose EventGroups list them,
// carry an event group marker, which the server copies to their history
// events. Groups change nothing of what the workflow does, and replay
// ignores them, so adding or removing them is not a non-deterministic
// change.
//
//   - ID: the group's identity, recorded as given (never passed through
//     the payload codecs, so it should hold no secret).
//
// An update handler's commands belong to the update's own group (ID
// "inbound-update:" and the update ID) instead of the groups of the
// Context the handler was registered with. Signal handlers have no group
// of their own.
type EventGroup = internal.EventGroup

// EventGroupOptions configure NewEventGroupWithOptions.
//
//   - Label: a display text for the group, encoded as a JSON string and
//     then through the workflow's payload codecs. Default: none.
type EventGroupOptions = internal.EventGroupOptions

// NewEventGroup returns the event group id, without a label. An empty ID
// panics, which fails the workflow task.
func NewEventGroup(id string) EventGroup { return internal.NewEventGroup(id) }

// NewEventGroupWithOptions returns the event group id with options. An
// empty ID panics, which fails the workflow task.
func NewEventGroupWithOptions(id string, options EventGroupOptions) EventGroup {
	return internal.NewEventGroupWithOptions(id, options)
}

// WithEventGroups returns a child of ctx whose commands also belong to
// groups. Nested calls add to the groups ctx has; of groups with the same
// ID, the first one (its label included) is kept:
//
//	payment := workflow.NewEventGroupWithOptions("payment", workflow.EventGroupOptions{Label: "charge the card"})
//	pctx := workflow.WithEventGroups(ctx, payment)
//	err := workflow.ExecuteActivity(pctx, Charge, order).Get(pctx, nil)
func WithEventGroups(ctx Context, groups ...EventGroup) Context {
	return internal.WithEventGroups(ctx, groups...)
}
