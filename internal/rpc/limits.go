package rpc

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// serverLimits are the words with which the server refuses, or ends, work
// that exceeds one of its limits, the limit each refers to, and what to do
// about it: the server's messages say that a limit was exceeded, not
// which, nor how to change it. The first match wins. Names and defaults
// are those of the server's dynamic config (go.temporal.io/server
// common/dynamicconfig).
var serverLimits = []struct{ says, limit, hint string }{
	{"memo size exceeds", memoLimit, ""},
	{"memo exceeds size limit", memoLimit, ""},
	{"history size exceeds limit", "limit on a workflow's history size, dynamic config limit.historySize.error (50 MiB by default); a workflow that runs long should continue as new before it reaches it", ""},
	{"history count exceeds limit", "limit on a workflow's history events, dynamic config limit.historyCount.error (51,200 by default); a workflow that runs long should continue as new before it reaches it", ""},
	{"blob data size exceeds limit", blobLimit, passByReference},
	{"exceeds size limit", blobLimit, passByReference},
	{"exceed size limit", blobLimit, passByReference},
}

const (
	blobLimit = "limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default)"
	memoLimit = "limit on a memo, dynamic config limit.memoSize.error (2 MiB by default)"
	// passByReference is what to do about data too large for the server.
	passByReference = "keep large data out of payloads: store it elsewhere (a blob store, a database) and pass its key"
)

// ExplainServerLimit returns the server's message msg followed by the
// limit it refers to and what to do, or "" when msg is not about one of
// its limits.
func ExplainServerLimit(msg string) string { return explainServerLimit(msg, "") }

// explainServerLimit is ExplainServerLimit with detail (how large the
// request was, say) between the limit and what to do.
func explainServerLimit(msg, detail string) string {
	lower := strings.ToLower(msg)
	for _, l := range serverLimits {
		if !strings.Contains(lower, l.says) {
			continue
		}
		explained := fmt.Sprintf("%s: over the server's %s", strings.TrimSuffix(strings.TrimSpace(msg), "."), l.limit)
		for _, more := range []string{detail, l.hint} {
			if more != "" {
				explained += "; " + more
			}
		}
		return explained
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

// MessageTooLargeError is a call that gRPC refused because a message, the
// request or the answer, exceeded a size limit: repeating it cannot help.
// Its message says which message, which limit, and what to do. Like the
// error go.temporal.io/sdk returns for it, it is no serviceerror: its
// GRPCStatus, which status.Code and serviceerror.ToStatus read, is gRPC's
// own (ResourceExhausted, gRPC's words).
type MessageTooLargeError struct {
	msg    string
	status *status.Status
}

func (e *MessageTooLargeError) Error() string { return e.msg }

// GRPCStatus is the status gRPC gave the call.
func (e *MessageTooLargeError) GRPCStatus() *status.Status { return e.status }

// grpcSizes reads the sizes in gRPC's refusals: "larger than max (size vs.
// limit)", or "larger than max limit" when it does not tell the size.
var grpcSizes = regexp.MustCompile(`larger than max \(?(\d+)(?: vs\. (\d+)\))?`)

// newMessageTooLargeError explains st, gRPC's refusal of a message of the
// call of method with req, by the size of req: a request over the limit
// was refused by the server (gRPC's "received") or by this client before
// it was sent ("trying to send"); otherwise the answer was over this
// client's limit.
func newMessageTooLargeError(st *status.Status, method string, req any) *MessageTooLargeError {
	grpcSays := st.Message()
	limit := -1
	if m := grpcSizes.FindStringSubmatch(grpcSays); m != nil {
		limit, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			limit, _ = strconv.Atoi(m[2])
		}
	}
	call := path.Base(method)
	request := call + " request"
	requestSize := -1
	if msg, ok := req.(proto.Message); ok {
		requestSize = proto.Size(msg)
		request = fmt.Sprintf("%s request (%s, %s of it payloads)", call, formatBytes(requestSize), formatBytes(payloadBytes(msg)))
	}
	limitSize := ""
	if limit >= 0 {
		limitSize = " of " + formatBytes(limit)
	}
	var msg string
	switch {
	case strings.Contains(grpcSays, "send"):
		msg = fmt.Sprintf("the %s is over this client's limit on a gRPC message%s, ConnectionOptions.MaxPayloadSize (%s); %s; the server has a limit of its own, 4 MiB on a dev server", request, limitSize, grpcSays, passByReference)
	case requestSize < 0 || limit < 0 || requestSize > limit:
		msg = fmt.Sprintf("the %s is over the server's limit on a gRPC message%s (%s); %s", request, limitSize, grpcSays, passByReference)
	default:
		msg = fmt.Sprintf("the answer to %s is over this client's limit on a gRPC message%s (%s); raise ConnectionOptions.MaxPayloadSize", call, limitSize, grpcSays)
	}
	return &MessageTooLargeError{msg: msg, status: st}
}
