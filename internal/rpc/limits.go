package rpc

import (
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// serverLimits are the words with which the server refuses, or ends, work
// that exceeds one of its limits, and the limit each refers to: the
// server's messages say that a limit was exceeded, not which, nor how to
// change it. The first match wins. Names and defaults are those of the
// server's dynamic config (go.temporal.io/server common/dynamicconfig).
var serverLimits = []struct{ says, limit string }{
	{"memo size exceeds", memoLimit},
	{"memo exceeds size limit", memoLimit},
	{"history size exceeds limit", "limit on a workflow's history size, dynamic config limit.historySize.error (50 MiB by default); a workflow that runs long should continue as new before it reaches it"},
	{"history count exceeds limit", "limit on a workflow's history events, dynamic config limit.historyCount.error (51,200 by default); a workflow that runs long should continue as new before it reaches it"},
	{"blob data size exceeds limit", blobLimit},
	{"exceeds size limit", blobLimit},
	{"exceed size limit", blobLimit},
}

const (
	blobLimit = "limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default)"
	memoLimit = "limit on a memo, dynamic config limit.memoSize.error (2 MiB by default)"
)

// ExplainServerLimit returns the server's message msg followed by the
// limit it refers to, or "" when msg is not about one of its limits.
func ExplainServerLimit(msg string) string {
	lower := strings.ToLower(msg)
	for _, l := range serverLimits {
		if strings.Contains(lower, l.says) {
			return fmt.Sprintf("%s: over the server's %s", strings.TrimSuffix(strings.TrimSpace(msg), "."), l.limit)
		}
	}
	return ""
}

// payloadBytes is the size of all the payloads in msg.
func payloadBytes(msg proto.Message) int {
	n := 0
	var visit func(m protoreflect.Message)
	visit = func(m protoreflect.Message) {
		if p, ok := m.Interface().(*commonpb.Payload); ok {
			n += proto.Size(p)
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				for i := range v.List().Len() {
					visit(v.List().Get(i).Message())
				}
			case fd.IsMap() && fd.MapValue().Message() != nil:
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					visit(mv.Message())
					return true
				})
			case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
				visit(v.Message())
			}
			return true
		})
	}
	visit(msg.ProtoReflect())
	return n
}
