package policy

import commonpb "go.temporal.io/api/common/v1"

// Priority orders and balances tasks waiting in a task queue. Activities and
// child workflows inherit their workflow's priority unless they set their
// own; a zero field means "inherit or default".
type Priority struct {
	// PriorityKey ranks tasks from 1 (first) to the server's maximum
	// (5 by default); 0 means the middle, 3 by default.
	PriorityKey int
	// FairnessKey groups tasks (by tenant, say) so that dispatch is shared
	// fairly between groups in proportion to their weights. At most 64 bytes.
	FairnessKey string
	// FairnessWeight is the weight of the FairnessKey group, clamped to
	// [0.001, 1000]; 1 by default. Task queue configuration may override it.
	FairnessWeight float32
}

// PriorityToProto converts a priority for the wire. The zero Priority gives
// nil, as there is nothing to send.
func PriorityToProto(p Priority) *commonpb.Priority {
	if p == (Priority{}) {
		return nil
	}
	return &commonpb.Priority{
		PriorityKey:    int32(p.PriorityKey),
		FairnessKey:    p.FairnessKey,
		FairnessWeight: p.FairnessWeight,
	}
}

// PriorityFromProto converts a priority from the wire; nil gives the zero
// Priority.
func PriorityFromProto(p *commonpb.Priority) Priority {
	return Priority{
		PriorityKey:    int(p.GetPriorityKey()),
		FairnessKey:    p.GetFairnessKey(),
		FairnessWeight: p.GetFairnessWeight(),
	}
}
