package payloadlimit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
)

// warnings records the warnings a Checker logs.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) Debug(string, ...any) {}
func (w *warnings) Info(string, ...any)  {}
func (w *warnings) Error(string, ...any) {}
func (w *warnings) Warn(msg string, keyvals ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, fmt.Sprintln(append([]any{msg}, keyvals...)...))
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := w.lines
	w.lines = nil
	return lines
}

func payloads(size int) *commonpb.Payloads {
	return &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: make([]byte, size)}}}
}

func completion(cmds ...*commandpb.Command) *workflowservice.RespondWorkflowTaskCompletedRequest {
	return &workflowservice.RespondWorkflowTaskCompletedRequest{Commands: cmds}
}

func completeWorkflow(resultSize int) *commandpb.Command {
	return &commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{
			CompleteWorkflowExecutionCommandAttributes: &commandpb.CompleteWorkflowExecutionCommandAttributes{Result: payloads(resultSize)},
		},
	}
}

func newChecker(t *testing.T) (*Checker, *warnings) {
	t.Helper()
	w := &warnings{}
	c := New(Sizes{Payload: 1000, Memo: 100}, w)
	c.Refuse(Sizes{Payload: 5000, Memo: 500})
	return c, w
}

func TestPayloadsAboveTheServersLimitAreRefusedWithTheSizeAndLimit(t *testing.T) {
	c, w := newChecker(t)
	req := completion(completeWorkflow(6000))
	err := c.Check(context.Background(), req)
	size, limit, ok := TooLarge(err)
	if !ok {
		t.Fatalf("Check = %v, want a refusal", err)
	}
	if want := int64(proto.Size(payloads(6000))); size != want || limit != 5000 {
		t.Errorf("refused size %d, limit %d; want %d, 5000", size, limit, want)
	}
	if err.Error() != payloadsRefused {
		t.Errorf("message %q, want %q", err.Error(), payloadsRefused)
	}
	if lines := w.take(); len(lines) != 0 {
		t.Errorf("a refusal also warned: %q", lines)
	}
	if _, _, ok := TooLarge(fmt.Errorf("other")); ok {
		t.Error("TooLarge took another error for a refusal")
	}
}

func TestPayloadsAboveTheWarningSizeAreSentWithAWarning(t *testing.T) {
	c, w := newChecker(t)
	if err := c.Check(context.Background(), completion(completeWorkflow(2000))); err != nil {
		t.Fatalf("Check = %v, want none", err)
	}
	lines := w.take()
	if len(lines) != 1 || !strings.Contains(lines[0], payloadsWarning) || !strings.Contains(lines[0], KeyPayloadSizeLimit+" 1000") {
		t.Errorf("warnings %q, want one that says %q with the limit", lines, payloadsWarning)
	}
	if err := c.Check(context.Background(), completion(completeWorkflow(900))); err != nil || len(w.take()) != 0 {
		t.Errorf("a small result: error %v, warnings %q", err, w.take())
	}
}

func TestATooLargeQueryAnswerBecomesAFailedAnswer(t *testing.T) {
	c, _ := newChecker(t)
	req := completion()
	req.QueryResults = map[string]*querypb.WorkflowQueryResult{
		"q": {ResultType: enumspb.QUERY_RESULT_TYPE_ANSWERED, Answer: payloads(6000)},
	}
	if err := c.Check(context.Background(), req); err != nil {
		t.Fatalf("Check = %v, want none: the answer is replaced, not the task failed", err)
	}
	got := req.QueryResults["q"]
	if got.GetResultType() != enumspb.QUERY_RESULT_TYPE_FAILED || got.GetAnswer() != nil || got.GetErrorMessage() != payloadsRefused {
		t.Errorf("answer %v, want a failed one saying %q", got, payloadsRefused)
	}

	legacy := &workflowservice.RespondQueryTaskCompletedRequest{CompletedType: enumspb.QUERY_RESULT_TYPE_ANSWERED, QueryResult: payloads(6000)}
	if err := c.Check(context.Background(), legacy); err != nil {
		t.Fatal(err)
	}
	if legacy.GetCompletedType() != enumspb.QUERY_RESULT_TYPE_FAILED || legacy.GetQueryResult() != nil || legacy.GetErrorMessage() != payloadsRefused {
		t.Errorf("legacy answer %v, want a failed one", legacy)
	}
}

func TestFailuresAreOnlyWarnedOf(t *testing.T) {
	c, w := newChecker(t)
	failure := &failurepb.Failure{Message: "boom", FailureInfo: &failurepb.Failure_ApplicationFailureInfo{
		ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{Details: payloads(6000)}}}
	for _, req := range []proto.Message{
		&workflowservice.RespondActivityTaskFailedRequest{Failure: failure},
		&workflowservice.RespondWorkflowTaskFailedRequest{Failure: failure},
		&workflowservice.RespondNexusTaskFailedRequest{Failure: failure},
	} {
		if err := c.Check(context.Background(), req); err != nil {
			t.Errorf("%T: Check = %v, want none: the server takes failures", req, err)
		}
		if lines := w.take(); len(lines) != 1 {
			t.Errorf("%T: warnings %q, want one", req, lines)
		}
	}
	// An activity's result is refused.
	if err := c.Check(context.Background(), &workflowservice.RespondActivityTaskCompletedRequest{Result: payloads(6000)}); err == nil {
		t.Error("an activity result above the limit was not refused")
	}
}

func TestNexusResultsAreNotSizedAndItsInputIsOnePayload(t *testing.T) {
	c, w := newChecker(t)
	if err := c.Check(context.Background(), &workflowservice.RespondNexusTaskCompletedRequest{}); err != nil {
		t.Fatal(err)
	}
	schedule := &commandpb.Command{Attributes: &commandpb.Command_ScheduleNexusOperationCommandAttributes{
		ScheduleNexusOperationCommandAttributes: &commandpb.ScheduleNexusOperationCommandAttributes{Input: &commonpb.Payload{Data: make([]byte, 6000)}}}}
	if _, _, ok := TooLarge(c.Check(context.Background(), completion(schedule))); !ok {
		t.Error("a Nexus input above the limit was not refused")
	}
	_ = w.take()
}

func TestMarkersAndUpsertsAreSizedAsTheServerSizesThem(t *testing.T) {
	c, _ := newChecker(t)
	marker := &commandpb.Command{Attributes: &commandpb.Command_RecordMarkerCommandAttributes{
		RecordMarkerCommandAttributes: &commandpb.RecordMarkerCommandAttributes{Details: map[string]*commonpb.Payloads{
			"a": payloads(3000), "b": payloads(3000), // each under the limit, together over it
		}}}}
	if _, _, ok := TooLarge(c.Check(context.Background(), completion(marker))); !ok {
		t.Error("a marker whose details together pass the limit was not refused")
	}
	memo := &commandpb.Command{Attributes: &commandpb.Command_ModifyWorkflowPropertiesCommandAttributes{
		ModifyWorkflowPropertiesCommandAttributes: &commandpb.ModifyWorkflowPropertiesCommandAttributes{UpsertedMemo: &commonpb.Memo{
			Fields: map[string]*commonpb.Payload{"k": {Data: make([]byte, 4999), Metadata: map[string][]byte{"encoding": make([]byte, 100)}}}}}}}
	// Sized as key and data (5,000 bytes: not over), not as the memo's
	// wire size, which is the memo limit's business.
	err := c.Check(context.Background(), completion(memo))
	if _, _, ok := TooLarge(err); !ok || !strings.Contains(err.Error(), "memo") {
		// The upserted memo is a Memo too: its whole size passes the memo limit.
		t.Errorf("Check = %v, want the memo refused", err)
	}
}

func TestMemosHaveTheirOwnLimits(t *testing.T) {
	c, w := newChecker(t)
	start := &workflowservice.StartWorkflowExecutionRequest{Memo: &commonpb.Memo{Fields: map[string]*commonpb.Payload{"k": {Data: make([]byte, 200)}}}}
	if err := c.Check(context.Background(), start); err != nil {
		t.Fatal(err)
	}
	if lines := w.take(); len(lines) != 1 || !strings.Contains(lines[0], memoWarning) {
		t.Errorf("warnings %q, want the memo warning", lines)
	}
	start.Memo.Fields["k"].Data = make([]byte, 600)
	if err := c.Check(context.Background(), start); err == nil || err.Error() != memoRefused {
		t.Errorf("Check = %v, want %q", err, memoRefused)
	}
}

// A workflow task's completion is walked for memos only when one of its
// commands can carry one; then its memo is sized as anywhere else.
func TestAChildsMemoInACompletionIsSized(t *testing.T) {
	c, w := newChecker(t)
	big := &commonpb.Memo{Fields: map[string]*commonpb.Payload{"k": {Data: make([]byte, 200)}}}
	child := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_StartChildWorkflowExecutionCommandAttributes{
			StartChildWorkflowExecutionCommandAttributes: &commandpb.StartChildWorkflowExecutionCommandAttributes{Memo: big}}}
	if err := c.Check(context.Background(), completion(child)); err != nil {
		t.Fatal(err)
	}
	if lines := w.take(); len(lines) != 1 || !strings.Contains(lines[0], memoWarning) {
		t.Errorf("warnings %q, want the child's memo warned of", lines)
	}
	if !mayHoldMemo(completion(child)) || mayHoldMemo(completion(completeWorkflow(10))) {
		t.Error("mayHoldMemo: want true with a child's start, false with a completion alone")
	}
}

func TestWithoutRefuseNothingIsRefused(t *testing.T) {
	w := &warnings{}
	c := New(Sizes{Payload: 1000}, w)
	if err := c.Check(context.Background(), completion(completeWorkflow(1<<20))); err != nil {
		t.Errorf("Check = %v before Refuse", err)
	}
	if len(w.take()) != 1 {
		t.Error("no warning")
	}
	var none *Checker
	if err := none.Check(context.Background(), completion(completeWorkflow(1<<20))); err != nil {
		t.Errorf("a nil Checker refused: %v", err)
	}
}

func TestWarningsOptions(t *testing.T) {
	s, err := Warnings(0, 0)
	if err != nil || s != (Sizes{Payload: DefaultPayloadWarning, Memo: DefaultMemoWarning}) {
		t.Errorf("Warnings(0, 0) = %v, %v; want the defaults", s, err)
	}
	if s, _ := Warnings(10, 20); s != (Sizes{Payload: 10, Memo: 20}) {
		t.Errorf("Warnings(10, 20) = %v", s)
	}
	if _, err := Warnings(-1, 0); err == nil || !strings.Contains(err.Error(), "PayloadSizeWarning") {
		t.Errorf("Warnings(-1, 0) error %v, want one naming the option", err)
	}
}

// BenchmarkCheckATypicalCompletion: the cost each workflow task
// completion pays, one command with a small payload.
func BenchmarkCheckATypicalCompletion(b *testing.B) {
	c := New(Sizes{Payload: DefaultPayloadWarning, Memo: DefaultMemoWarning}, nil)
	c.Refuse(Sizes{Payload: 2 << 20, Memo: 2 << 20})
	req := completion(&commandpb.Command{Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{
		ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{Input: payloads(64)}}})
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Check(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
