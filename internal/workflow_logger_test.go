package internal

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"slices"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/log"
)

// loggedLine is where logsAroundASignal logged "after the signal".
var loggedLine int

func logsAroundASignal(ctx Context) error {
	logger := GetLogger(ctx)
	logger.Info("before the signal", "k", 1)
	GetSignalChannel(ctx, "go").Receive(ctx, nil)
	logger.Info("after the signal", "k", 2)
	_, _, loggedLine, _ = runtime.Caller(0)
	loggedLine--
	log.With(logger, "child", true).Warn("from a child logger")
	log.Skip(logger, 0).Error("skipped none")
	GetSignalChannel(ctx, "never").Receive(ctx, nil)
	return nil
}

// A run's logger adds the run's identity ahead of each message's own
// keyvals, reports the caller's line, is silent while the run replays a
// task history recorded, and passes all that on to loggers made from it.
func TestARunsLoggerTagsMessagesAndIsSilentInReplay(t *testing.T) {
	var buf bytes.Buffer
	logger := log.NewStructuredLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{AddSource: true})))
	reg := registry.New()
	if err := reg.RegisterWorkflow(logsAroundASignal, "", false); err != nil {
		t.Fatal(err)
	}
	config := newRunConfig(reg, RunOptions{Namespace: "ns", Logger: logger})
	x := engine.NewRun(config.engineOptions())
	x.SetRun("wf-1", "run-1")
	defer x.Close()
	now := timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	events := []*historypb.HistoryEvent{
		{EventId: 1, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType: &commonpb.WorkflowType{Name: "logsAroundASignal"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"}}}},
		{EventId: 2, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED},
		{EventId: 3, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
		{EventId: 4, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED},
		{EventId: 5, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{SignalName: "go"}}},
		{EventId: 6, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED},
		{EventId: 7, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
	}
	if _, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), events, nil, nil)}); err != nil {
		t.Fatal(err)
	}

	var entries []map[string]any
	dec := json.NewDecoder(&buf)
	var keys [][]string
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		var e map[string]any
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
		keys = append(keys, keyOrder(t, raw))
	}
	want := []struct {
		msg  string
		keys []string
	}{
		{"after the signal", []string{"Namespace", "TaskQueue", "WorkflowType", "WorkflowID", "RunID", "k"}},
		{"from a child logger", []string{"Namespace", "TaskQueue", "WorkflowType", "WorkflowID", "RunID", "child"}},
		{"skipped none", []string{"Namespace", "TaskQueue", "WorkflowType", "WorkflowID", "RunID"}},
	}
	if len(entries) != len(want) {
		t.Fatalf("logged %d messages, want %d:\n%s", len(entries), len(want), buf.String())
	}
	for i, w := range want {
		e := entries[i]
		if e["msg"] != w.msg {
			t.Errorf("message %d is %q, want %q", i, e["msg"], w.msg)
		}
		if got := keys[i][4:]; !slices.Equal(got, w.keys) { // after time, level, source, msg
			t.Errorf("%q has keys %v, want %v", w.msg, got, w.keys)
		}
		if e["Namespace"] != "ns" || e["TaskQueue"] != "tq" || e["WorkflowType"] != "logsAroundASignal" || e["WorkflowID"] != "wf-1" || e["RunID"] != "run-1" {
			t.Errorf("%q does not name the run: %v", w.msg, e)
		}
	}
	if line := entries[0]["source"].(map[string]any)["line"]; line != float64(loggedLine) {
		t.Errorf("logged from line %v, want %d", line, loggedLine)
	}
}

// keyOrder lists the keys of a JSON object in order.
func keyOrder(t *testing.T, raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key.(string))
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
