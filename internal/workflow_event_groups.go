package internal

import (
	"fmt"
	"slices"

	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/converter"
)

// EventGroupOptions configure an explicit event group
// (workflow.EventGroupOptions).
type EventGroupOptions struct {
	// Label is a display string for the group, for the UI. It is encoded
	// as a JSON string and then passed through the workflow's payload
	// codecs, so it may hold what the codecs protect; the ID is never
	// encoded. Empty: the group has no label.
	Label string
}

// EventGroup names a set of workflow commands that belong together, for
// the UI and for tools that read histories (workflow.EventGroup). Every
// command made under it carries an event group marker: the server copies
// the marker to the command's history event. Groups do not change what a
// workflow does, and replay ignores them.
//
// Besides the groups a workflow makes with NewEventGroup, the commands of
// an update handler belong to the update's own group, whose ID is
// "inbound-update:" and the update ID. Signal handlers have no group of
// their own.
type EventGroup struct {
	// ID identifies the group; it is recorded as given, never encoded, so
	// it should hold no secret. For an update's group it is
	// "inbound-update:" and the update ID.
	ID string

	label    string
	updateID string // set for an update's own group only
}

// NewEventGroup returns the explicit event group id, without a label. The
// ID must not be empty.
func NewEventGroup(id string) EventGroup {
	return NewEventGroupWithOptions(id, EventGroupOptions{})
}

// NewEventGroupWithOptions returns the explicit event group id with
// options. The ID must not be empty: an empty one panics, which fails the
// workflow task.
func NewEventGroupWithOptions(id string, options EventGroupOptions) EventGroup {
	if id == "" {
		panic("workflow.NewEventGroup: the event group ID is empty; give the group an ID that names what its commands do together")
	}
	return EventGroup{ID: id, label: options.Label}
}

// updateEventGroup is the group of the commands an update handler makes.
func updateEventGroup(updateID string) EventGroup {
	return EventGroup{ID: "inbound-update:" + updateID, updateID: updateID}
}

// eventGroupScope is what WithEventGroups binds to a context: the explicit
// groups in the order they were first given (one per ID, the first one
// wins), and the update's group inside an update handler.
type eventGroupScope struct {
	explicit []EventGroup
	update   *EventGroup
}

type eventGroupScopeKey struct{}

func eventGroupScopeOf(ctx Context) *eventGroupScope {
	s, _ := ctx.Value(eventGroupScopeKey{}).(*eventGroupScope)
	return s
}

// WithEventGroups returns a child of ctx whose commands carry groups too,
// besides the groups ctx already has. A group whose ID ctx already has is
// dropped: the first group of an ID wins, label included.
func WithEventGroups(ctx Context, groups ...EventGroup) Context {
	if len(groups) == 0 {
		return ctx
	}
	scope := &eventGroupScope{}
	if parent := eventGroupScopeOf(ctx); parent != nil {
		scope.update = parent.update
		scope.explicit = append(scope.explicit, parent.explicit...)
	}
	scope.explicit = appendNewGroups(scope.explicit, groups)
	return WithValue(ctx, eventGroupScopeKey{}, scope)
}

// withUpdateEventGroup is the context an update handler runs with: its
// commands belong to the update's group, and to none of the explicit
// groups of the context the handler was registered with.
func withUpdateEventGroup(ctx Context, updateID string) Context {
	group := updateEventGroup(updateID)
	return WithValue(ctx, eventGroupScopeKey{}, &eventGroupScope{update: &group})
}

// appendNewGroups appends to list the groups whose IDs it does not hold
// yet, in order.
func appendNewGroups(list, groups []EventGroup) []EventGroup {
next:
	for _, g := range groups {
		for _, have := range list {
			if have.ID == g.ID {
				continue next
			}
		}
		list = append(list, g)
	}
	return list
}

// eventGroupMarkers are the markers the commands of one call carry: the
// update's group first, then ctx's explicit groups, then the call's own
// (options' EventGroups) whose IDs are new. Nil, without allocating, when
// there are none.
func (r *workflowRun) eventGroupMarkers(ctx Context, direct []EventGroup) []*sdkpb.EventGroupMarker {
	scope := eventGroupScopeOf(ctx)
	if scope == nil && len(direct) == 0 {
		return nil
	}
	var explicit []EventGroup
	var update *EventGroup
	if scope != nil {
		explicit, update = scope.explicit, scope.update
	}
	if len(direct) > 0 {
		// Clipped, so that appending never writes into the scope's list.
		explicit = appendNewGroups(slices.Clip(explicit), direct)
	}
	n := len(explicit)
	if update != nil {
		n++ // an update's group is not in the explicit IDs' space
	}
	if n == 0 {
		return nil
	}
	dc := r.dataConverter(ctx)
	markers := make([]*sdkpb.EventGroupMarker, 0, n)
	if update != nil {
		markers = append(markers, update.marker(dc))
	}
	for _, g := range explicit {
		markers = append(markers, g.marker(dc))
	}
	return markers
}

// marker is the group's marker as go.temporal.io/sdk writes it. A label
// that cannot be encoded panics, failing the workflow task.
func (g EventGroup) marker(dc converter.DataConverter) *sdkpb.EventGroupMarker {
	if g.updateID != "" {
		return &sdkpb.EventGroupMarker{Variant: &sdkpb.EventGroupMarker_InboundUpdate_{
			InboundUpdate: &sdkpb.EventGroupMarker_InboundUpdate{InboundUpdateId: g.updateID},
		}}
	}
	label := &sdkpb.EventGroupMarker_Label{Id: g.ID}
	if g.label != "" {
		// The label is JSON whatever the workflow's converter; the
		// converter then sees it as a raw payload, so that only its
		// codecs act on it.
		p, err := converter.GetDefaultDataConverter().ToPayload(g.label)
		if err == nil {
			p, err = dc.ToPayload(converter.NewRawValue(p))
		}
		if err != nil {
			panic(fmt.Errorf("event group %q: its label cannot be encoded: %w", g.ID, err))
		}
		label.Label = p
	}
	return &sdkpb.EventGroupMarker{Variant: &sdkpb.EventGroupMarker_Label_{Label: label}}
}
