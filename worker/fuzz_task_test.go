package worker_test

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	protocolpb "go.temporal.io/api/protocol/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/historyfuzz"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// FuzzWorkflowTask hands a worker workflow tasks as a damaged server
// would send them — fields missing, histories damaged as in
// FuzzReplayHistory, unknown event types, queries with bad arguments,
// tokens the server then refuses — through a real gRPC connection to a
// fake frontend, so the worker runtime (internal/workerrt) polls, pages,
// caches and reports as it does in production.
//
// Whatever the task, the worker answers it — completed, failed, or (for a
// failed retry, which the SDK does not report) a log record — with an
// error that names the event; it does not panic, Stop returns, and no
// goroutine is left behind.
//
//	go test -run '^$' -fuzz FuzzWorkflowTask -fuzztime 10m ./worker
func FuzzWorkflowTask(f *testing.F) {
	histories := historyfuzz.LoadFixtures(f, fixtures)
	for i := range histories {
		for _, shape := range []uint32{
			0x0000_0001,              // the first task, whole history in the response
			0x0000_0012,              // the second task, its events only: the worker fetches the rest
			0x0000_0322,              // the second task in pages of 3
			shapeFollowUp | 0x01,     // the completion's answer is the next task (sticky)
			shapeReject | 0x01,       // the server refuses the completion
			shapeQueries | 0x02,      // queries with the task, some with bad arguments
			shapeLegacyQuery | 0x03,  // a query task
			shapeAttempt2 | 0x02,     // a retry
			0x01 | 0x01<<shapeDamage, // no workflow execution
			0x02 | 0x02<<shapeDamage, // no workflow type
			0x02 | 0x04<<shapeDamage, // no history
			0x02 | 0x08<<shapeDamage, // nonsense event IDs in the response
			0x02 | 0x10<<shapeDamage, // protocol messages of no known protocol
			0x12 | 0x20<<shapeDamage, // a page token the server does not know
			0x02 | 0x40<<shapeDamage, // no run ID
			0x02 | 0x80<<shapeDamage, // no task token (an empty poll)
		} {
			f.Add(uint8(i), shape, []byte{})
		}
		f.Add(uint8(i), uint32(shapeFollowUp|0x02), []byte{historyfuzz.OpChangeType, 0, 6, 0, 190})
		f.Add(uint8(i), uint32(shapeQueries|0x01), []byte{historyfuzz.OpCorruptPayloads, 0, 0, 1})
	}
	for i := range 2 {
		f.Add(uint8(i), uint32(1<<shapeConverter|0x02), []byte{})                  // a converter that panics
		f.Add(uint8(i), uint32(2<<shapeConverter|shapeQueries|0x01), []byte{})     // a codec that cuts short
		f.Add(uint8(i), uint32(1<<shapeConverter|shapeLegacyQuery|0x03), []byte{}) // a query it breaks
	}
	frontend := startFakeFrontend(f)
	var clients []client.Client // by faultyConverters' index
	for _, dc := range faultyConverters() {
		c, err := client.Dial(client.Options{HostPort: frontend.addr, Logger: frontend.log, DataConverter: dc})
		if err != nil {
			f.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	var execs int
	f.Fuzz(func(t *testing.T, which uint8, shape uint32, edits []byte) {
		execs++
		events := historyfuzz.Edit(histories[int(which)%len(histories)].GetEvents(), edits)
		sc := newTaskScenario(fmt.Sprintf("fuzz-%d", execs), events, shape)
		frontend.begin(sc)
		before := runtime.NumGoroutine()
		c := clients[int(shape>>shapeConverter&3)%len(clients)]
		w := worker.New(c, sc.taskQueue, worker.Options{})
		registerQueryableFixtures(w)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-sc.polled:
		case <-time.After(replayTimeLimit):
			t.Fatal("the worker did not poll")
		}
		sc.waitForAnswer(frontend.log, replayTimeLimit)
		// Stop clears the sticky cache (the process has no other worker):
		// a run it kept would show as a leak.
		historyfuzz.RunBounded(t, replayTimeLimit, w.Stop)
		historyfuzz.RequireNoGoroutineLeak(t, before)
		frontend.end()
		sc.check(t, frontend.log.take())
	})
}

// registerQueryableFixtures registers the fixture workflows, three of
// them behind a query handler that takes arguments (registering a handler
// adds no command, so the recorded histories still replay).
func registerQueryableFixtures(w worker.Worker) {
	for _, wf := range []any{SideEffectsWorkflow, MutableSideEffectsWorkflow, VersionsWorkflow,
		ContinueAsNewWorkflow, SequentialActivitiesWorkflow, PingPongWorkflow} {
		w.RegisterWorkflow(wf)
	}
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context, name string) (string, error) {
		setFuzzQueryHandler(ctx)
		return ActivitiesWorkflow(ctx, name)
	}, workflow.RegisterOptions{Name: "ActivitiesWorkflow"})
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context) (int, error) {
		setFuzzQueryHandler(ctx)
		return TimersWorkflow(ctx)
	}, workflow.RegisterOptions{Name: "TimersWorkflow"})
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context) ([]string, error) {
		setFuzzQueryHandler(ctx)
		return SignalsWorkflow(ctx)
	}, workflow.RegisterOptions{Name: "SignalsWorkflow"})
}

const fuzzQueryType = "repeat"

func setFuzzQueryHandler(ctx workflow.Context) {
	if err := workflow.SetQueryHandler(ctx, fuzzQueryType, func(s string, n int) (string, error) {
		if n < 0 || n > 10 {
			return "", fmt.Errorf("n is %d, want 0 to 10", n)
		}
		return strings.Repeat(s, n), nil
	}); err != nil {
		panic(err)
	}
}

// The shape of a task scenario, a bit field. The low byte picks the task:
// bits 0-3 are which workflow task of history it is (1 is the first),
// bit 4 gives the response only the task's new events, and bits 8-11 are
// the page size (0 for one page).
const (
	shapeTailOnly    = 1 << 4
	shapeDamage      = 12 // 8 bits: fields of the response damaged, see damageResponse
	shapeQueries     = 1 << 20
	shapeLegacyQuery = 1 << 21
	shapeReject      = 1 << 22
	shapeFollowUp    = 1 << 23
	shapeAttempt2    = 1 << 24
	// 2 bits: the worker's client has a faulty data converter (see
	// faultyConverters): one that panics, or a codec that cuts short.
	shapeConverter = 25
)

// faultyConverters are the data converters a fuzz input may give the
// worker, by the value of its shape's converter bits: the default one, one
// that panics decoding every payload of odd length, and a hand-written
// "encryption" codec that cuts a 12-byte nonce off every payload without
// a length check (a short payload makes it panic, a long one decodes to
// garbage). A worker must fail the tasks and queries they break, never
// the process.
func faultyConverters() []converter.DataConverter {
	return []converter.DataConverter{
		converter.GetDefaultDataConverter(),
		oddLengthPanics{converter.GetDefaultDataConverter()},
		converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), bareNonceCodec{}),
	}
}

// oddLengthPanics panics decoding a payload whose data has an odd length.
type oddLengthPanics struct{ converter.DataConverter }

func (c oddLengthPanics) FromPayload(p *commonpb.Payload, ptr any) error {
	if len(p.GetData())%2 == 1 {
		panic("oddLengthPanics: odd payload")
	}
	return c.DataConverter.FromPayload(p, ptr)
}

func (c oddLengthPanics) FromPayloads(ps *commonpb.Payloads, ptrs ...any) error {
	for i, p := range ps.GetPayloads() {
		if i < len(ptrs) {
			if err := c.FromPayload(p, ptrs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// bareNonceCodec prefixes a 12-byte nonce and cuts it off again, without
// checking the length: the bug of many hand-written codecs.
type bareNonceCodec struct{}

func (bareNonceCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		out[i] = &commonpb.Payload{Metadata: p.GetMetadata(), Data: append([]byte("nonce-nonce-"), p.GetData()...)}
	}
	return out, nil
}

func (bareNonceCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		out[i] = &commonpb.Payload{Metadata: p.GetMetadata(), Data: p.Data[12:]}
	}
	return out, nil
}

// taskScenario is one fuzz input made into what the fake frontend serves.
type taskScenario struct {
	taskQueue string
	runID     string
	history   []*historypb.HistoryEvent // what GetWorkflowExecutionHistory serves
	pageSize  int
	tasks     []*workflowservice.PollWorkflowTaskQueueResponse // the first by poll, the next as the completion's answer
	reject    bool
	polled    chan struct{} // closed when the first task is handed out

	mu        sync.Mutex
	served    bool // the first task was handed out
	handedOut int
	completed []*workflowservice.RespondWorkflowTaskCompletedRequest
	failed    []*workflowservice.RespondWorkflowTaskFailedRequest
	answered  []*workflowservice.RespondQueryTaskCompletedRequest
}

func newTaskScenario(name string, events []*historypb.HistoryEvent, shape uint32) *taskScenario {
	sc := &taskScenario{
		taskQueue: name,
		runID:     name + "-run",
		pageSize:  int(shape>>8) & 0xf,
		reject:    shape&shapeReject != 0,
		polled:    make(chan struct{}),
	}
	// The tasks: history up to the n-th WorkflowTaskStarted, and up to the
	// one after it.
	n := max(int(shape&0xf), 1)
	ends := taskEnds(events)
	first := len(events)
	if n <= len(ends) {
		first = ends[n-1]
	}
	sc.history = events[:first]
	task := sc.task(events, 0, first, shape)
	if shape&shapeLegacyQuery != 0 {
		task.Query = &querypb.WorkflowQuery{QueryType: fuzzQueryType, QueryArgs: fuzzQueryArgs(shape)}
	}
	damageResponse(task, byte(shape>>shapeDamage))
	sc.tasks = append(sc.tasks, task)
	if shape&shapeFollowUp != 0 && n < len(ends) {
		// A sticky task: only the events after the first task.
		next := sc.task(events, first, ends[n], shape&^shapeTailOnly)
		next.History = &historypb.History{Events: events[first:ends[n]]}
		next.NextPageToken = nil
		sc.tasks = append(sc.tasks, next)
	}
	return sc
}

// taskEnds lists, for each WorkflowTaskStarted of events, the index after it.
func taskEnds(events []*historypb.HistoryEvent) []int {
	var ends []int
	for i, ev := range events {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED {
			ends = append(ends, i+1)
		}
	}
	return ends
}

// task is the poll response for the task whose history ends at events[end-1]
// and whose new events start at events[from].
func (sc *taskScenario) task(events []*historypb.HistoryEvent, from, end int, shape uint32) *workflowservice.PollWorkflowTaskQueueResponse {
	var typ *commonpb.WorkflowType
	if len(events) > 0 {
		typ = events[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType()
	}
	t := &workflowservice.PollWorkflowTaskQueueResponse{
		TaskToken:         []byte(sc.taskQueue + "-token-" + strconv.Itoa(end)),
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: sc.taskQueue + "-wf", RunId: sc.runID},
		WorkflowType:      typ,
		Attempt:           1,
	}
	if shape&shapeAttempt2 != 0 {
		t.Attempt = 2
	}
	if end > 0 {
		t.StartedEventId = events[end-1].GetEventId()
	}
	for i := end - 2; i >= 0; i-- {
		if events[i].GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED {
			t.PreviousStartedEventId = events[i].GetEventId()
			break
		}
	}
	if shape&shapeTailOnly != 0 {
		// A sticky task's events: those after the previous task.
		if ends := taskEnds(events[:end]); len(ends) > 1 {
			from = ends[len(ends)-2]
		}
	}
	page := events[from:end]
	if sc.pageSize > 0 && from == 0 && len(page) > sc.pageSize {
		page = page[:sc.pageSize]
		t.NextPageToken = []byte(strconv.Itoa(sc.pageSize))
	}
	t.History = &historypb.History{Events: page}
	if shape&shapeQueries != 0 {
		t.Queries = map[string]*querypb.WorkflowQuery{
			"good":        {QueryType: fuzzQueryType, QueryArgs: payloadsOf(`"ab"`, `2`)},
			"bad-args":    {QueryType: fuzzQueryType, QueryArgs: fuzzQueryArgs(shape)},
			"no-args":     {QueryType: fuzzQueryType},
			"unknown":     {QueryType: "no-such-query", QueryArgs: payloadsOf(`1`)},
			"stack-trace": {QueryType: "__stack_trace", QueryArgs: payloadsOf(`{`)},
			"metadata":    {QueryType: "__temporal_workflow_metadata"},
		}
	}
	return t
}

// fuzzQueryArgs are arguments the query handler cannot take, picked by
// the shape's high bits.
func fuzzQueryArgs(shape uint32) *commonpb.Payloads {
	switch (shape >> 28) % 4 {
	case 0:
		return payloadsOf(`"ab"`, `"not a number"`)
	case 1:
		return payloadsOf(`"ab"`, `99`) // the handler refuses it
	case 2:
		return &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte("no metadata")}}}
	default:
		return payloadsOf(`"ab"`, `1`, `2`, `3`) // too many
	}
}

func payloadsOf(jsons ...string) *commonpb.Payloads {
	p := &commonpb.Payloads{}
	for _, j := range jsons {
		p.Payloads = append(p.Payloads, &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(j)})
	}
	return p
}

// damageResponse clears or spoils the fields of t that bits select.
func damageResponse(t *workflowservice.PollWorkflowTaskQueueResponse, bits byte) {
	if bits&0x01 != 0 {
		t.WorkflowExecution = nil
	}
	if bits&0x02 != 0 {
		t.WorkflowType = nil
	}
	if bits&0x04 != 0 {
		t.History = nil
	}
	if bits&0x08 != 0 {
		t.StartedEventId, t.PreviousStartedEventId = -t.StartedEventId, t.StartedEventId+1000
	}
	if bits&0x10 != 0 {
		body, _ := anypb.New(&commonpb.WorkflowType{Name: "not a protocol message"})
		t.Messages = []*protocolpb.Message{{Id: "m1", ProtocolInstanceId: "p1", Body: body}, {Id: "m2"}}
	}
	if bits&0x20 != 0 && len(t.NextPageToken) > 0 {
		t.NextPageToken = []byte("a token the server never gave")
	}
	if bits&0x40 != 0 && t.WorkflowExecution != nil {
		t.WorkflowExecution.RunId = ""
	}
	if bits&0x80 != 0 {
		t.TaskToken = nil
	}
}

// check verifies that every task handed out was answered, and that what
// the worker said about failures names the event.
func (sc *taskScenario) check(t *testing.T, logs []string) {
	t.Helper()
	sc.mu.Lock()
	defer sc.mu.Unlock()
	answers := len(sc.completed) + len(sc.failed) + len(sc.answered)
	taskFailedLogs := 0
	for _, l := range logs {
		if strings.HasPrefix(l, "workflow task failed") {
			taskFailedLogs++
			if !historyfuzz.NamesEvent.MatchString(l) && !strings.Contains(l, "reading the history of workflow") {
				t.Errorf("a failed task's log does not name the event:\n%s", l)
			}
		}
	}
	for _, req := range sc.failed {
		if req.GetFailure().GetMessage() == "" {
			t.Errorf("a failed task was reported without a message: %v", req)
		}
	}
	// A retry's failure is logged, not reported: only the first attempt's
	// is (as in go.temporal.io/sdk), so that a stuck workflow's history
	// does not fill with failures.
	if answers < sc.handedOut && answers+taskFailedLogs < sc.handedOut {
		t.Errorf("%d tasks handed out, %d answered, %d failures logged: a task was dropped\nlogs:\n%s",
			sc.handedOut, answers, taskFailedLogs, strings.Join(logs, "\n"))
	}
	for _, req := range sc.completed {
		task := sc.taskByToken(req.GetTaskToken())
		for id := range task.GetQueries() {
			if req.GetQueryResults()[id] == nil {
				t.Errorf("query %q of a completed task has no answer", id)
			}
		}
	}
	if sc.reject && len(sc.completed) > 0 && !containsLog(logs, "the server refused a workflow task's completion") {
		t.Errorf("the refused completion is not in the logs:\n%s", strings.Join(logs, "\n"))
	}
}

// waitForAnswer waits until the worker has answered the first task or
// logged its failure, or until limit: stopping the worker before it has
// received the task would lose it in flight, which the server recovers
// from by a timeout but this fake does not.
func (sc *taskScenario) waitForAnswer(logs *lineLogger, limit time.Duration) {
	if len(sc.tasks[0].GetTaskToken()) == 0 {
		return // an empty poll: nothing to answer
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		sc.mu.Lock()
		answers := len(sc.completed) + len(sc.failed) + len(sc.answered)
		sc.mu.Unlock()
		if answers > 0 || logs.has("workflow task failed") {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (sc *taskScenario) taskByToken(token []byte) *workflowservice.PollWorkflowTaskQueueResponse {
	for _, task := range sc.tasks {
		if string(task.GetTaskToken()) == string(token) {
			return task
		}
	}
	return nil
}

func containsLog(logs []string, prefix string) bool {
	for _, l := range logs {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// fakeFrontend serves one taskScenario at a time over gRPC.
type fakeFrontend struct {
	workflowservice.UnimplementedWorkflowServiceServer
	addr string
	log  *lineLogger

	mu sync.Mutex
	sc *taskScenario
}

func startFakeFrontend(tb testing.TB) *fakeFrontend {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ff := &fakeFrontend{addr: lis.Addr().String(), log: &lineLogger{}}
	// The server sends serviceerror types as their gRPC statuses, as the
	// Temporal server's interceptors do.
	s := grpc.NewServer(grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}), grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err != nil {
			return nil, serviceerror.ToStatus(err).Err()
		}
		return resp, nil
	}))
	workflowservice.RegisterWorkflowServiceServer(s, ff)
	go func() { _ = s.Serve(lis) }()
	tb.Cleanup(s.Stop)
	return ff
}

func (ff *fakeFrontend) begin(sc *taskScenario) {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	ff.sc = sc
	ff.log.take()
}

func (ff *fakeFrontend) end() {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	ff.sc = nil
}

func (ff *fakeFrontend) scenario() *taskScenario {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return ff.sc
}

func (ff *fakeFrontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{Capabilities: &workflowservice.GetSystemInfoResponse_Capabilities{SdkMetadata: true}}, nil
}

// PollWorkflowTaskQueue hands out the scenario's first task once, on its
// normal queue; every other poll waits until the worker gives up.
func (ff *fakeFrontend) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	if sc := ff.scenario(); sc != nil && req.GetTaskQueue().GetName() == sc.taskQueue {
		sc.mu.Lock()
		first := !sc.served
		sc.served = true
		if first && len(sc.tasks[0].GetTaskToken()) > 0 { // without a token, the answer is an empty poll
			sc.handedOut++
		}
		sc.mu.Unlock()
		if first {
			defer close(sc.polled)
			return sc.tasks[0], nil
		}
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (ff *fakeFrontend) RespondWorkflowTaskCompleted(_ context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	sc := ff.scenario()
	if sc == nil {
		return nil, serviceerror.NewNotFound("Workflow task not found.")
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.completed = append(sc.completed, req)
	if sc.reject {
		return nil, serviceerror.NewNotFound("Workflow task not found.")
	}
	resp := &workflowservice.RespondWorkflowTaskCompletedResponse{}
	if req.GetReturnNewWorkflowTask() && sc.handedOut < len(sc.tasks) {
		resp.WorkflowTask = sc.tasks[sc.handedOut]
		sc.handedOut++
	}
	return resp, nil
}

func (ff *fakeFrontend) RespondWorkflowTaskFailed(_ context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	if sc := ff.scenario(); sc != nil {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		sc.failed = append(sc.failed, req)
	}
	return &workflowservice.RespondWorkflowTaskFailedResponse{}, nil
}

func (ff *fakeFrontend) RespondQueryTaskCompleted(_ context.Context, req *workflowservice.RespondQueryTaskCompletedRequest) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	if sc := ff.scenario(); sc != nil {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		sc.answered = append(sc.answered, req)
	}
	return &workflowservice.RespondQueryTaskCompletedResponse{}, nil
}

// GetWorkflowExecutionHistory serves the history as of the first task,
// page by page, checking the request as the server does.
func (ff *fakeFrontend) GetWorkflowExecutionHistory(_ context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	sc := ff.scenario()
	if req.GetExecution().GetWorkflowId() == "" {
		return nil, serviceerror.NewInvalidArgument("WorkflowId is not set on request.")
	}
	if sc == nil || req.GetExecution().GetWorkflowId() != sc.taskQueue+"-wf" ||
		(req.GetExecution().GetRunId() != "" && req.GetExecution().GetRunId() != sc.runID) {
		return nil, serviceerror.NewNotFound("workflow execution not found")
	}
	start := 0
	if tok := req.GetNextPageToken(); len(tok) > 0 {
		n, err := strconv.Atoi(string(tok))
		if err != nil || n < 0 || n > len(sc.history) {
			return nil, serviceerror.NewInvalidArgument("Invalid NextPageToken.")
		}
		start = n
	}
	end := len(sc.history)
	if sc.pageSize > 0 {
		end = min(start+sc.pageSize, end)
	}
	resp := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: sc.history[start:end]}}
	if end < len(sc.history) {
		resp.NextPageToken = []byte(strconv.Itoa(end))
	}
	return resp, nil
}

// lineLogger keeps what the SDK logs, one line per record: the
// message, then its key-value pairs.
type lineLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLogger) record(msg string, keyvals []any) {
	var b strings.Builder
	b.WriteString(msg)
	for i := 0; i+1 < len(keyvals); i += 2 {
		fmt.Fprintf(&b, " %v=%v", keyvals[i], keyvals[i+1])
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, b.String())
}

func (l *lineLogger) Debug(msg string, keyvals ...any) { l.record(msg, keyvals) }
func (l *lineLogger) Info(msg string, keyvals ...any)  { l.record(msg, keyvals) }
func (l *lineLogger) Warn(msg string, keyvals ...any)  { l.record(msg, keyvals) }
func (l *lineLogger) Error(msg string, keyvals ...any) { l.record(msg, keyvals) }

// has reports a line logged so far that begins with prefix.
func (l *lineLogger) has(prefix string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return containsLog(l.lines, prefix)
}

// take returns the lines logged so far and forgets them.
func (l *lineLogger) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.lines
	l.lines = nil
	return lines
}
