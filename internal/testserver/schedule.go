package testserver

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Schedules, as a Temporal server runs them (its scheduler workflow of
// server 1.32, whose behaviour this follows without its workflow): each
// schedule takes the actions its spec names (schedulespec.go) when the
// server's clock reaches them, a wake-up set on the clock as a timer is,
// so that with time skipping a daily schedule's next action comes when
// the clock skips to it. Its workflows start through
// Options.StartScheduledWorkflow, as the server's scheduler starts them
// through the frontend, and schedulerun.go applies its policies.
//
// Where it differs from a server: it learns at once that a workflow it
// started closed (a server's scheduler may notice it only at its next
// action or description), and its jitter is its own (deterministic, but
// not the server's hash).

// The limits and defaults of the server's scheduler.
const (
	defaultCatchupWindow   = 365 * 24 * time.Hour
	minCatchupWindow       = 10 * time.Second
	scheduleRetention      = 7 * 24 * time.Hour // how long a schedule with nothing left to do lives on
	futureActionCount      = 10                 // in DescribeSchedule
	recentActionCount      = 10
	futureActionCountList  = 5 // in ListSchedules
	recentActionCountList  = 5
	maxScheduleBuffer      = 1000
	backfillsPerStep       = 10
	maxScheduleNotesLength = 1000
	maxMatchingTimes       = 1000
	maxListPageSize        = 1000
	maxSpecFieldsListed    = 10
)

// The search attributes a server gives the workflows a schedule starts.
const (
	scheduledByIDAttribute      = "TemporalScheduledById"
	scheduledStartTimeAttribute = "TemporalScheduledStartTime"
)

const (
	scheduleInitialConflictToken = 1
	// scheduleIdentityFormat makes the identity the scheduled workflows'
	// starts carry, of the namespace and the schedule's ID.
	scheduleIdentityFormat = "temporal-scheduler-%s-%s"
)

// scheduleBook holds a server's schedules. Its lock is taken before the
// server's, never while holding it: a schedule's step starts, cancels and
// terminates workflows.
type scheduleBook struct {
	mu      sync.Mutex
	byID    map[string]*schedule
	created int // schedules created so far, to list the newest first
	// count is len(byID), read without the lock by runs that close.
	count atomic.Int32
}

// schedule is one schedule's definition and state.
type schedule struct {
	id, requestID string
	createdSeq    int
	// def is the schedule as DescribeSchedule shows it, its spec canonical
	// and its policies' defaults filled in; spec is its spec compiled (a
	// spec that does not compile is refused by the call that gives it).
	def              *schedulepb.Schedule
	spec             *scheduleSpec
	info             *schedulepb.ScheduleInfo
	memo             *commonpb.Memo
	searchAttributes *commonpb.SearchAttributes
	conflictToken    int64
	// lastProcessed: the actions due up to it are taken.
	lastProcessed time.Time
	buffer        []*bufferedStart
	backfills     []*schedulepb.BackfillRequest
	// lastCompletion and continuedFailure are handed to the next workflow
	// started.
	lastCompletion   *commonpb.Payloads
	continuedFailure *failurepb.Failure
	wakeup           *Timer
	wakeupAt         time.Time
	deleted          bool
}

// bufferedStart is an action due, waiting for its overlap policy.
type bufferedStart struct {
	nominal, actual time.Time
	overlap         enumspb.ScheduleOverlapPolicy
	manual          bool // triggered or backfilled
}

// StartScheduledWorkflowFunc starts the workflow of a schedule's action,
// as the frontend's StartWorkflowExecution does.
type StartScheduledWorkflowFunc func(*workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error)

func (b *scheduleBook) get(id string) (*schedule, error) {
	sc := b.byID[id]
	if sc == nil {
		return nil, serviceerror.NewNotFound(fmt.Sprintf("schedule %q not found", id))
	}
	return sc, nil
}

// CreateSchedule creates a schedule and applies its initial patch.
func (s *Server) CreateSchedule(req *workflowservice.CreateScheduleRequest) (*workflowservice.CreateScheduleResponse, error) {
	if s.opts.StartScheduledWorkflow == nil {
		return nil, serviceerror.NewUnimplemented("this server runs no schedules (testserver.Options.StartScheduledWorkflow is not set)")
	}
	if req.GetScheduleId() == "" {
		return nil, serviceerror.NewInvalidArgument("a schedule needs an ID (CreateScheduleRequest.ScheduleId)")
	}
	if req.GetRequestId() == "" {
		return nil, serviceerror.NewInvalidArgument("RequestId is not set on request.")
	}
	def := proto.CloneOf(req.GetSchedule())
	if def == nil {
		def = &schedulepb.Schedule{}
	}
	spec, err := s.checkScheduleDefinition(def, req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	if prev := b.byID[req.GetScheduleId()]; prev != nil {
		if prev.requestID == req.GetRequestId() { // a retry of the request that created it
			return &workflowservice.CreateScheduleResponse{ConflictToken: conflictTokenBytes(prev.conflictToken)}, nil
		}
		return nil, serviceerror.NewWorkflowExecutionAlreadyStarted(fmt.Sprintf("schedule %q is already registered", req.GetScheduleId()), "", "")
	}
	now := s.clock.Now()
	b.created++
	sc := &schedule{
		id: req.GetScheduleId(), requestID: req.GetRequestId(), createdSeq: b.created,
		def: def, spec: spec, info: &schedulepb.ScheduleInfo{CreateTime: timestamppb.New(now)},
		memo: proto.CloneOf(req.GetMemo()), searchAttributes: proto.CloneOf(req.GetSearchAttributes()),
		conflictToken: scheduleInitialConflictToken, lastProcessed: now,
	}
	fillSchedulePolicies(sc.def)
	if b.byID == nil {
		b.byID = make(map[string]*schedule)
	}
	b.byID[sc.id] = sc
	b.count.Store(int32(len(b.byID)))
	s.stepSchedule(sc, req.GetInitialPatch(), nil)
	return &workflowservice.CreateScheduleResponse{ConflictToken: conflictTokenBytes(sc.conflictToken)}, nil
}

// checkScheduleDefinition refuses a schedule a server refuses, and makes
// its spec canonical; it returns the spec compiled.
func (s *Server) checkScheduleDefinition(def *schedulepb.Schedule, id string) (*scheduleSpec, error) {
	spec, err := compileSpec(def.GetSpec(), s.opts.Namespace+"-"+id)
	if err != nil {
		return nil, serviceerror.NewInvalidArgument("Invalid schedule spec: " + err.Error())
	}
	def.Spec = spec.canonical
	start := def.GetAction().GetStartWorkflow()
	if start == nil {
		return spec, nil
	}
	switch {
	case start.GetWorkflowType().GetName() == "":
		return nil, serviceerror.NewInvalidArgument("WorkflowType is not set on request.")
	case start.GetTaskQueue().GetName() == "":
		return nil, serviceerror.NewInvalidArgument("missing task queue name")
	case start.GetCronSchedule() != "":
		return nil, serviceerror.NewInvalidArgument("Scheduled workflow must not contain CronSchedule")
	case start.GetWorkflowIdReusePolicy() != enumspb.WORKFLOW_ID_REUSE_POLICY_UNSPECIFIED &&
		start.GetWorkflowIdReusePolicy() != enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE:
		return nil, serviceerror.NewInvalidArgument("Scheduled workflow must not contain WorkflowIDReusePolicy")
	}
	for _, timeout := range []struct {
		name string
		d    *durationpb.Duration
	}{{"WorkflowExecutionTimeout", start.GetWorkflowExecutionTimeout()}, {"WorkflowRunTimeout", start.GetWorkflowRunTimeout()}, {"WorkflowTaskTimeout", start.GetWorkflowTaskTimeout()}} {
		if timeout.d.AsDuration() < 0 {
			return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("schedule %q: the workflow action's %s is negative (%v)", id, timeout.name, timeout.d.AsDuration()))
		}
	}
	return spec, nil
}

// fillSchedulePolicies gives a schedule's policies the defaults a
// server's DescribeSchedule shows: overlap SKIP, a catchup window of a
// year, and at least ten seconds.
func fillSchedulePolicies(def *schedulepb.Schedule) {
	if def.Action == nil {
		def.Action = &schedulepb.ScheduleAction{}
	}
	if def.Policies == nil {
		def.Policies = &schedulepb.SchedulePolicies{}
	}
	if def.State == nil {
		def.State = &schedulepb.ScheduleState{}
	}
	def.Policies.OverlapPolicy = resolveOverlap(def, def.Policies.GetOverlapPolicy())
	def.Policies.CatchupWindow = durationpb.New(catchupWindow(def))
}

func catchupWindow(def *schedulepb.Schedule) time.Duration {
	window := def.GetPolicies().GetCatchupWindow()
	switch {
	case window == nil:
		return defaultCatchupWindow
	case window.AsDuration() < minCatchupWindow:
		return minCatchupWindow
	}
	return window.AsDuration()
}

// resolveOverlap is the policy that applies: the one asked for, else the
// schedule's, else SKIP.
func resolveOverlap(def *schedulepb.Schedule, p enumspb.ScheduleOverlapPolicy) enumspb.ScheduleOverlapPolicy {
	if p == enumspb.SCHEDULE_OVERLAP_POLICY_UNSPECIFIED {
		p = def.GetPolicies().GetOverlapPolicy()
	}
	if p == enumspb.SCHEDULE_OVERLAP_POLICY_UNSPECIFIED {
		p = enumspb.SCHEDULE_OVERLAP_POLICY_SKIP
	}
	return p
}

func conflictTokenBytes(token int64) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(token))
}

// DescribeSchedule describes a schedule as a server does: its definition
// (its spec canonical), what it did and will do, its memo and search
// attributes.
func (s *Server) DescribeSchedule(id string) (*workflowservice.DescribeScheduleResponse, error) {
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	sc, err := b.get(id)
	if err != nil {
		return nil, err
	}
	def := proto.CloneOf(sc.def)
	def.Spec = describedSpec(sc.def.GetSpec())
	info := proto.CloneOf(sc.info)
	info.FutureActionTimes = sc.futureActionTimes(futureActionCount)
	info.BufferSize = int64(len(sc.buffer))
	// A workflow that closed a moment ago is running no more.
	info.RunningWorkflows = slices.DeleteFunc(info.RunningWorkflows, func(w *commonpb.WorkflowExecution) bool {
		return s.chainOf(w).status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
	return &workflowservice.DescribeScheduleResponse{
		Schedule: def, Info: info, Memo: proto.CloneOf(sc.memo),
		SearchAttributes: proto.CloneOf(sc.searchAttributes), ConflictToken: conflictTokenBytes(sc.conflictToken),
	}, nil
}

// futureActionTimes are the next n times the schedule will act, as far
// as its remaining actions go.
func (sc *schedule) futureActionTimes(n int) []*timestamppb.Timestamp {
	if state := sc.def.GetState(); state.GetLimitedActions() {
		n = min(n, int(max(state.GetRemainingActions(), 0)))
	}
	updated := sc.info.GetUpdateTime().AsTime()
	var out []*timestamppb.Timestamp
	for t := sc.lastProcessed; len(out) < n; {
		t = sc.spec.next(t).actual
		if t.IsZero() {
			break
		}
		if updated.After(t) { // due before the last update, which dropped it
			continue
		}
		out = append(out, timestamppb.New(t))
	}
	return out
}

// UpdateSchedule replaces a schedule's definition (and, when the request
// has them, its search attributes). A conflict token that is not the
// schedule's drops the update, as a server's scheduler drops it: the
// call succeeds.
func (s *Server) UpdateSchedule(req *workflowservice.UpdateScheduleRequest) error {
	def := proto.CloneOf(req.GetSchedule())
	if def == nil {
		def = &schedulepb.Schedule{}
	}
	spec, err := s.checkScheduleDefinition(def, req.GetScheduleId())
	if err != nil {
		return err
	}
	if req.GetMemo() != nil {
		return serviceerror.NewFailedPrecondition("memo updates are not supported on workflow-backed schedules")
	}
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	sc, err := b.get(req.GetScheduleId())
	if err != nil {
		return err
	}
	if token := req.GetConflictToken(); len(token) >= 8 {
		if t := int64(binary.BigEndian.Uint64(token)); t != 0 && t != sc.conflictToken {
			return nil
		}
	}
	s.stepSchedule(sc, nil, &scheduleUpdate{def: def, spec: spec, searchAttributes: req.GetSearchAttributes()})
	return nil
}

// scheduleUpdate is an update's new definition.
type scheduleUpdate struct {
	def              *schedulepb.Schedule
	spec             *scheduleSpec
	searchAttributes *commonpb.SearchAttributes
}

// PatchSchedule triggers a schedule's action, backfills it, pauses or
// unpauses it.
func (s *Server) PatchSchedule(req *workflowservice.PatchScheduleRequest) error {
	patch := proto.CloneOf(req.GetPatch())
	if patch == nil {
		return serviceerror.NewInvalidArgument("Patch is not set on request.")
	}
	if len(patch.GetPause()) > maxScheduleNotesLength || len(patch.GetUnpause()) > maxScheduleNotesLength {
		return serviceerror.NewInvalidArgument("Schedule notes exceeds limit.")
	}
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	sc, err := b.get(req.GetScheduleId())
	if err != nil {
		return err
	}
	if trigger := patch.GetTriggerImmediately(); trigger != nil && trigger.GetScheduledTime() == nil {
		trigger.ScheduledTime = timestamppb.New(s.clock.Now())
	}
	s.stepSchedule(sc, patch, nil)
	return nil
}

// DeleteSchedule deletes a schedule; the workflows it started run on.
func (s *Server) DeleteSchedule(id string) error {
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	sc, err := b.get(id)
	if err != nil {
		return err
	}
	s.dropScheduleLocked(sc)
	return nil
}

func (s *Server) dropScheduleLocked(sc *schedule) {
	b := &s.schedules
	sc.deleted = true
	s.clock.Stop(sc.wakeup)
	sc.wakeup = nil
	delete(b.byID, sc.id)
	b.count.Store(int32(len(b.byID)))
}

// ListSchedules lists the schedules, the newest first, a page at a time
// (the page token is where the page starts). It takes no query: the
// server keeps no visibility store.
func (s *Server) ListSchedules(req *workflowservice.ListSchedulesRequest) (*workflowservice.ListSchedulesResponse, error) {
	if req.GetQuery() != "" {
		return nil, serviceerror.NewUnimplemented(fmt.Sprintf(
			"the embedded Temporal server lists schedules without a query (got %q): run a Temporal dev server (`temporal server start-dev`) for visibility queries", req.GetQuery()))
	}
	from := 0
	if token := req.GetNextPageToken(); len(token) > 0 {
		n, err := strconv.Atoi(string(token))
		if err != nil || n < 0 {
			return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("invalid page token %q: pass the NextPageToken of the previous page", token))
		}
		from = n
	}
	size := int(req.GetMaximumPageSize())
	if size <= 0 || size > maxListPageSize {
		size = maxListPageSize
	}
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	all := make([]*schedule, 0, len(b.byID))
	for _, sc := range b.byID {
		all = append(all, sc)
	}
	slices.SortFunc(all, func(a, b *schedule) int { return b.createdSeq - a.createdSeq })
	out := &workflowservice.ListSchedulesResponse{}
	for i := from; i < len(all) && len(out.Schedules) < size; i++ {
		out.Schedules = append(out.Schedules, all[i].listEntry())
		if i+1 < len(all) && len(out.Schedules) == size {
			out.NextPageToken = []byte(strconv.Itoa(i + 1))
		}
	}
	return out, nil
}

// listEntry is the schedule as ListSchedules shows it: what a server
// keeps in its scheduler's memo.
func (sc *schedule) listEntry() *schedulepb.ScheduleListEntry {
	spec := proto.CloneOf(sc.def.GetSpec())
	spec.TimezoneData = nil
	spec.StructuredCalendar = spec.StructuredCalendar[:min(len(spec.StructuredCalendar), maxSpecFieldsListed)]
	spec.ExcludeStructuredCalendar = spec.ExcludeStructuredCalendar[:min(len(spec.ExcludeStructuredCalendar), maxSpecFieldsListed)]
	spec.Interval = spec.Interval[:min(len(spec.Interval), maxSpecFieldsListed)]
	recent := sc.info.GetRecentActions()
	recent = recent[max(len(recent)-recentActionCountList, 0):]
	var workflowType *commonpb.WorkflowType
	if start := sc.def.GetAction().GetStartWorkflow(); start != nil {
		workflowType = proto.CloneOf(start.GetWorkflowType())
	}
	return &schedulepb.ScheduleListEntry{
		ScheduleId: sc.id, Memo: proto.CloneOf(sc.memo), SearchAttributes: proto.CloneOf(sc.searchAttributes),
		Info: &schedulepb.ScheduleListInfo{
			Spec: spec, WorkflowType: workflowType, Notes: sc.def.GetState().GetNotes(), Paused: sc.def.GetState().GetPaused(),
			RecentActions: cloneAll(recent), FutureActionTimes: sc.futureActionTimes(futureActionCountList),
		},
	}
}

// ListScheduleMatchingTimes lists the times a schedule's spec names
// between two times (at most 1000), whether or not it will act then.
func (s *Server) ListScheduleMatchingTimes(req *workflowservice.ListScheduleMatchingTimesRequest) (*workflowservice.ListScheduleMatchingTimesResponse, error) {
	if req.GetStartTime() == nil || req.GetEndTime() == nil {
		return nil, serviceerror.NewInvalidArgument("ListScheduleMatchingTimes needs a start time and an end time")
	}
	b := &s.schedules
	b.mu.Lock()
	defer b.mu.Unlock()
	sc, err := b.get(req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	out := &workflowservice.ListScheduleMatchingTimesResponse{}
	end := req.GetEndTime().AsTime()
	for t := req.GetStartTime().AsTime(); len(out.StartTime) < maxMatchingTimes; {
		t = sc.spec.next(t).actual
		if t.IsZero() || t.After(end) {
			break
		}
		out.StartTime = append(out.StartTime, timestamppb.New(t))
	}
	return out, nil
}

func cloneAll[T proto.Message](in []T) []T {
	out := make([]T, len(in))
	for i, m := range in {
		out[i] = proto.CloneOf(m)
	}
	return out
}
