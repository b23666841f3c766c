// Package payloadlimit checks the size of the payloads a client or a worker
// is about to send, before the server refuses them.
//
// The server refuses a request whose payloads are larger than its blob
// size limit (2 MiB by default), and a memo larger than its memo limit; for
// a workflow task's completion that means the workflow is terminated. So,
// as go.temporal.io/sdk v1.51 does, a worker that knows its namespace's
// limits (DescribeNamespace reports them) refuses to send such payloads
// itself: the workflow task fails with cause PAYLOADS_TOO_LARGE and is
// retried, an activity fails with the error, a query answers with it.
// Below those limits, payloads larger than a warning size (512 KiB; memos
// 2 KiB; client.Options.PayloadLimits changes them) are sent, with a
// warning logged first.
//
// What counts is what the server measures: the wire size of each group of
// payloads a field holds (Payloads), one payload for a Nexus operation's
// input, the keys and data of a marker's details and of upserted search
// attributes and memo fields, the whole memo. The rules for each request
// are in Checker.enter; search attributes are not sized (the server sizes
// them with what it knows of the execution).
package payloadlimit

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/proxy"
	querypb "go.temporal.io/api/query/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/log"
)

// Sizes are limits in bytes, of one group of payloads and of a memo; zero
// is no limit.
type Sizes struct {
	Payload int64
	Memo    int64
}

// Default warning sizes, go.temporal.io/sdk's.
const (
	DefaultPayloadWarning = 512 * 1024
	DefaultMemoWarning    = 2 * 1024
)

// Log keys of a warning and of a refusal, go.temporal.io/sdk's.
const (
	KeyPayloadSize      = "PayloadSize"
	KeyPayloadSizeLimit = "PayloadSizeLimit"
	KeyMemoSize         = "MemoSize"
	KeyMemoSizeLimit    = "MemoSizeLimit"
)

// payloadSizeError is a refusal: payloads larger than the server takes.
// Its type's name is the failure's type when it fails a task, as in
// go.temporal.io/sdk (whose error type has this name).
type payloadSizeError struct {
	message     string
	size, limit int64
}

func (e payloadSizeError) Error() string { return e.message }

// The refusals' and the warnings' messages, go.temporal.io/sdk's (TMPRL1103
// is the code its documentation explains).
const (
	payloadsRefused = "[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit."
	memoRefused     = "[TMPRL1103] Attempted to upload memo with size that exceeded the error limit."
	payloadsWarning = "[TMPRL1103] Attempted to upload payloads with size that exceeded the warning limit."
	memoWarning     = "[TMPRL1103] Attempted to upload memo with size that exceeded the warning limit."
)

// TooLarge reports whether err is a Checker's refusal, with the size
// measured and the limit it passed.
func TooLarge(err error) (size, limit int64, ok bool) {
	e, ok := err.(payloadSizeError)
	if !ok {
		return 0, 0, false
	}
	return e.size, e.limit, true
}

// Checker checks requests against warning sizes and, once told them, the
// sizes the server refuses. Its methods may be called concurrently.
type Checker struct {
	warn   Sizes
	refuse atomic.Pointer[Sizes]
	logger log.Logger
}

// Warnings are the warning sizes of client.Options.PayloadLimits: the
// defaults for zero, an error for a negative size.
func Warnings(payload, memo int) (Sizes, error) {
	if payload < 0 || memo < 0 {
		return Sizes{}, fmt.Errorf("invalid client options: PayloadLimits.PayloadSizeWarning (%d) and MemoSizeWarning (%d) must not be negative (zero means the default, %d and %d bytes)",
			payload, memo, DefaultPayloadWarning, DefaultMemoWarning)
	}
	return Sizes{Payload: int64(cmp.Or(payload, DefaultPayloadWarning)), Memo: int64(cmp.Or(memo, DefaultMemoWarning))}, nil
}

// New returns a Checker that logs a warning to logger above warn and
// refuses nothing until Refuse is called.
func New(warn Sizes, logger log.Logger) *Checker {
	return &Checker{warn: warn, logger: logger}
}

// Refuse makes the checker refuse payloads above s (the namespace's
// limits; zero sizes refuse nothing).
func (c *Checker) Refuse(s Sizes) { c.refuse.Store(&s) }

// checks say which checks apply to the payloads of a subtree.
type checks uint8

const (
	refuse checks = 1 << iota
	warn
	allChecks = refuse | warn
)

type payloadChecksKey struct{}
type memoChecksKey struct{}

func checksOf(ctx context.Context, key any) checks {
	if c, ok := ctx.Value(key).(checks); ok {
		return c
	}
	return allChecks
}

// Check checks the payloads of msg, a request about to be sent. It
// returns a refusal (see TooLarge) for the first group too large to send;
// a query's answer too large is not refused but replaced, in msg, by a
// failed answer that says so, which the server then takes. Warnings are
// logged as they are found.
func (c *Checker) Check(ctx context.Context, msg proto.Message) error {
	if c == nil || !c.mayExceed(msg) {
		return nil
	}
	return proxy.VisitPayloads(ctx, msg, proxy.VisitPayloadsOptions{
		Visitor:              c.visit,
		SkipSearchAttributes: true,
		ContextHook:          c.enter,
	})
}

// mayExceed reports whether msg is large enough for any limit to apply:
// every size the checks measure is at most the whole message's, so most
// requests, far smaller than the smallest limit, are not walked. The memo
// limits (2 KiB by default) apply only to a message that can hold a memo.
func (c *Checker) mayExceed(msg proto.Message) bool {
	payload, memo := c.warn.Payload, c.warn.Memo
	if s := c.refuse.Load(); s != nil {
		payload, memo = smallestLimit(payload, s.Payload), smallestLimit(memo, s.Memo)
	}
	if payload == 0 && memo == 0 {
		return false
	}
	size := int64(proto.Size(msg))
	return (payload > 0 && size > payload) || (memo > 0 && size > memo && mayHoldMemo(msg))
}

// smallestLimit is the smaller of two limits, zero being none.
func smallestLimit(a, b int64) int64 {
	if a == 0 || (b > 0 && b < a) {
		return b
	}
	return a
}

// mayHoldMemo reports whether msg may carry a memo: the worker's answers
// do only in commands that start a run or change its memo; other
// requests are walked to find out.
func mayHoldMemo(msg proto.Message) bool {
	switch m := msg.(type) {
	case *workflowservice.RespondWorkflowTaskCompletedRequest:
		for _, cmd := range m.GetCommands() {
			switch cmd.GetCommandType() {
			case enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION,
				enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES:
				return true
			}
		}
		return false
	case *workflowservice.RespondActivityTaskCompletedRequest, *workflowservice.RespondActivityTaskFailedRequest,
		*workflowservice.RespondActivityTaskCanceledRequest, *workflowservice.RespondQueryTaskCompletedRequest,
		*workflowservice.RespondWorkflowTaskFailedRequest, *workflowservice.RespondNexusTaskCompletedRequest,
		*workflowservice.RespondNexusTaskFailedRequest, *workflowservice.RecordActivityTaskHeartbeatRequest:
		return false
	}
	return true
}

// visit sizes one field's payloads.
func (c *Checker) visit(ctx *proxy.VisitPayloadsContext, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	var size int64
	if ctx.SinglePayloadRequired {
		// Of the single-payload fields, the server sizes a Nexus
		// operation's input only.
		if _, ok := ctx.Parent.(*commandpb.ScheduleNexusOperationCommandAttributes); !ok || len(payloads) == 0 {
			return payloads, nil
		}
		size = int64(proto.Size(payloads[0]))
	} else {
		size = int64(proto.Size(&commonpb.Payloads{Payloads: payloads}))
	}
	switch answer := ctx.Parent.(type) {
	case *querypb.WorkflowQueryResult:
		if err := c.checkPayloads(size, allChecks); err != nil {
			answer.Answer, answer.ErrorMessage, answer.ResultType = nil, err.Error(), enumspb.QUERY_RESULT_TYPE_FAILED
		}
		return payloads, nil
	case *workflowservice.RespondQueryTaskCompletedRequest:
		if err := c.checkPayloads(size, allChecks); err != nil {
			answer.QueryResult, answer.ErrorMessage, answer.CompletedType = nil, err.Error(), enumspb.QUERY_RESULT_TYPE_FAILED
		}
		return payloads, nil
	}
	if err := c.checkPayloads(size, checksOf(ctx, payloadChecksKey{})); err != nil {
		return nil, err
	}
	return payloads, nil
}

// enter applies the server's rule for msg before its payloads are
// visited: some messages are sized as a whole (a marker's details, a
// search-attribute or memo upsert, a memo, a schedule's start), after
// which their payloads are not sized again; failures are only warned of,
// since the server takes them (appending what does not fit); Nexus
// results are not sized at all, as the server does not size them.
func (c *Checker) enter(ctx context.Context, msg proto.Message) (context.Context, error) {
	noPayloadChecks := func() context.Context { return context.WithValue(ctx, payloadChecksKey{}, checks(0)) }
	switch m := msg.(type) {
	case *commandpb.RecordMarkerCommandAttributes:
		var size int64
		for key, details := range m.GetDetails() {
			size += int64(len(key) + proto.Size(details))
		}
		if err := c.checkPayloads(size, allChecks); err != nil {
			return nil, err
		}
		return noPayloadChecks(), nil
	case *commandpb.UpsertWorkflowSearchAttributesCommandAttributes:
		if err := c.checkPayloads(mapDataSize(m.GetSearchAttributes().GetIndexedFields()), allChecks); err != nil {
			return nil, err
		}
		return noPayloadChecks(), nil
	case *commandpb.ModifyWorkflowPropertiesCommandAttributes:
		if err := c.checkPayloads(mapDataSize(m.GetUpsertedMemo().GetFields()), allChecks); err != nil {
			return nil, err
		}
		return noPayloadChecks(), nil
	case *commonpb.Memo:
		if err := c.checkMemo(int64(proto.Size(m)), checksOf(ctx, memoChecksKey{})); err != nil {
			return nil, err
		}
		return noPayloadChecks(), nil
	case *querypb.WorkflowQueryResult, *workflowservice.RespondQueryTaskCompletedRequest:
		// Sized in visit, where a too large answer becomes a failed one.
		return noPayloadChecks(), nil
	case *workflowservice.CreateScheduleRequest:
		// The server sizes a schedule's memo and its workflow's input
		// together, for a start-workflow action only.
		if start, ok := m.GetSchedule().GetAction().GetAction().(*schedulepb.ScheduleAction_StartWorkflow); ok {
			size := int64(proto.Size(m.GetMemo()) + proto.Size(start.StartWorkflow.GetInput()))
			if err := c.checkPayloads(size, allChecks); err != nil {
				return nil, err
			}
		}
		return context.WithValue(noPayloadChecks(), memoChecksKey{}, checks(0)), nil
	case *workflowservice.UpdateScheduleRequest:
		// The server does not size an updated schedule's memo.
		return context.WithValue(ctx, memoChecksKey{}, warn), nil
	case *workflowservice.RespondActivityTaskFailedRequest, *workflowservice.RespondActivityTaskFailedByIdRequest,
		*workflowservice.RespondWorkflowTaskFailedRequest:
		return context.WithValue(context.WithValue(ctx, payloadChecksKey{}, warn), memoChecksKey{}, warn), nil
	case *workflowservice.RespondNexusTaskFailedRequest:
		return context.WithValue(ctx, payloadChecksKey{}, warn), nil
	case *workflowservice.RespondNexusTaskCompletedRequest:
		return noPayloadChecks(), nil
	}
	return ctx, nil
}

// mapDataSize is how the server sizes a map of single payloads: keys and
// data, not the payloads' metadata.
func mapDataSize(fields map[string]*commonpb.Payload) int64 {
	var size int64
	for key, p := range fields {
		size += int64(len(key) + len(p.GetData()))
	}
	return size
}

func (c *Checker) checkPayloads(size int64, which checks) error {
	return c.check(size, which, func(s *Sizes) int64 { return s.Payload }, payloadsRefused, payloadsWarning, KeyPayloadSize, KeyPayloadSizeLimit)
}

func (c *Checker) checkMemo(size int64, which checks) error {
	return c.check(size, which, func(s *Sizes) int64 { return s.Memo }, memoRefused, memoWarning, KeyMemoSize, KeyMemoSizeLimit)
}

func (c *Checker) check(size int64, which checks, limitOf func(*Sizes) int64, refused, warning, sizeKey, limitKey string) error {
	if which&refuse != 0 {
		if s := c.refuse.Load(); s != nil {
			if limit := limitOf(s); limit > 0 && size > limit {
				return payloadSizeError{message: refused, size: size, limit: limit}
			}
		}
	}
	if which&warn != 0 && c.logger != nil {
		if limit := limitOf(&c.warn); limit > 0 && size > limit {
			c.logger.Warn(warning, sizeKey, size, limitKey, limit)
		}
	}
	return nil
}

type checkedKey struct{}

// Checked marks ctx as the context of a request that its sender has
// checked: a worker's answers, which the worker checks with the
// namespace's limits, are not checked again, and not warned of twice, by
// the client's check of every request it sends.
func Checked(ctx context.Context) context.Context { return context.WithValue(ctx, checkedKey{}, true) }

// WasChecked reports whether ctx is marked by Checked.
func WasChecked(ctx context.Context) bool { return ctx.Value(checkedKey{}) != nil }
