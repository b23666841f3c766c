package worker_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// customKeyword is registered on the test server (TestMain).
var customKeyword = temporal.NewSearchAttributeKeyKeyword(customKeywordName)

// featuresWorkflow exercises timeouts on waits, search attributes, memo and
// the metadata query, logging once per step.
func featuresWorkflow(ctx workflow.Context) (string, error) {
	logger := workflow.GetLogger(ctx)
	var steps []string
	ok, err := workflow.AwaitWithTimeout(ctx, time.Minute, func() bool { return true })
	if err != nil || !ok {
		return "", err
	}
	steps = append(steps, "await-true")
	logger.Info("step", "name", "await-true")
	ok, err = workflow.AwaitWithTimeout(ctx, 100*time.Millisecond, func() bool { return false })
	if err != nil || ok {
		return "", err
	}
	steps = append(steps, "await-timeout")
	logger.Info("step", "name", "await-timeout")
	var s string
	got, _ := workflow.GetSignalChannel(ctx, "never").ReceiveWithTimeout(ctx, 100*time.Millisecond, &s)
	if got {
		steps = append(steps, "unexpected-signal")
	}
	steps = append(steps, "receive-timeout")
	logger.Info("step", "name", "receive-timeout")
	if err := workflow.UpsertTypedSearchAttributes(ctx, customKeyword.ValueSet("upserted")); err != nil {
		return "", err
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{"note": "memo upserted"}); err != nil {
		return "", err
	}
	workflow.SetCurrentDetails(ctx, "waiting for release")
	v, _ := workflow.GetTypedSearchAttributes(ctx).GetKeyword(customKeyword)
	steps = append(steps, "sa="+v)
	workflow.GetSignalChannel(ctx, "release").Receive(ctx, nil)
	return strings.Join(steps, ","), nil
}

// recordingLogger keeps the messages logged through it.
type recordingLogger struct {
	mu   sync.Mutex
	msgs []string
}

func (l *recordingLogger) add(level, msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "name" {
			msg += ":" + kv[i+1].(string)
		}
	}
	l.msgs = append(l.msgs, level+" "+msg)
}
func (l *recordingLogger) Debug(msg string, kv ...any) { l.add("DEBUG", msg, kv) }
func (l *recordingLogger) Info(msg string, kv ...any)  { l.add("INFO", msg, kv) }
func (l *recordingLogger) Warn(msg string, kv ...any)  { l.add("WARN", msg, kv) }
func (l *recordingLogger) Error(msg string, kv ...any) { l.add("ERROR", msg, kv) }

func (l *recordingLogger) count(prefix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.msgs {
		if strings.HasPrefix(m, prefix) {
			n++
		}
	}
	return n
}

func TestWorkflowFeatures(t *testing.T) {
	logs := &recordingLogger{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(featuresWorkflow) })
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, featuresWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the workflow to reach the release signal", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", "__temporal_workflow_metadata")
		if err != nil {
			return false
		}
		var md sdkpb.WorkflowMetadata
		return v.Get(&md) == nil && md.GetCurrentDetails() == "waiting for release"
	})
	v, err := c.QueryWorkflow(ctx, run.GetID(), "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var md sdkpb.WorkflowMetadata
	if err := v.Get(&md); err != nil || md.GetDefinition().GetType() != "featuresWorkflow" || len(md.GetDefinition().GetSignalDefinitions()) != 2 ||
		len(md.GetDefinition().GetQueryDefinitions()) != 3 {
		t.Fatalf("metadata %v, %v", &md, err)
	}
	desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if string(desc.GetWorkflowExecutionInfo().GetMemo().GetFields()["note"].GetData()) != `"memo upserted"` {
		t.Fatalf("memo %v", desc.GetWorkflowExecutionInfo().GetMemo())
	}
	if _, ok := desc.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[customKeywordName]; !ok {
		t.Fatalf("search attributes %v", desc.GetWorkflowExecutionInfo().GetSearchAttributes())
	}
	// Evict, so the next query and task replay the steps: they must not
	// log again, and the query must see the same state.
	worker.PurgeStickyWorkflowCache()
	v, err = c.QueryWorkflow(ctx, run.GetID(), "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Get(&md); err != nil || md.GetCurrentDetails() != "waiting for release" {
		t.Fatalf("a query answered by replaying history: %v, %v", &md, err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "release", nil); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if result != "await-true,await-timeout,receive-timeout,sa=upserted" {
		t.Fatalf("result %q", result)
	}
	for _, step := range []string{"await-true", "await-timeout", "receive-timeout"} {
		if n := logs.count("INFO step:" + step); n != 1 {
			t.Errorf("step %s logged %d times; the workflow logger must be silent in replay", step, n)
		}
	}
}
