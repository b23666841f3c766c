package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A context propagator whose EncodeHeaders is true (go.temporal.io/sdk
// v1.51's workflow.CodecContextPropagator) has its header field encoded
// with the client's payload codec, in the start request, in the commands
// the workflow sends and on the wire to activities, and decoded for it
// on the receiving side. Both SDKs write the same bytes, and each reads
// what the other wrote (issue 33 item 1).

const tenantField = "tenant"

type tenantKey struct{}

// tenantPropagatorOurs and tenantPropagatorOfficial carry the tenant of a
// Go or workflow context in the header field "tenant", asking for the
// codec.
type tenantPropagatorOurs struct{}

func (tenantPropagatorOurs) EncodeHeaders() bool { return true }

func (tenantPropagatorOurs) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	return injectTenant(ctx.Value(tenantKey{}), w.Set)
}

func (tenantPropagatorOurs) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	tenant, err := extractTenant(r.Get)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return context.WithValue(ctx, tenantKey{}, tenant), nil
}

func (tenantPropagatorOurs) InjectFromWorkflow(ctx workflow.Context, w workflow.HeaderWriter) error {
	return injectTenant(ctx.Value(tenantKey{}), w.Set)
}

func (tenantPropagatorOurs) ExtractToWorkflow(ctx workflow.Context, r workflow.HeaderReader) (workflow.Context, error) {
	tenant, err := extractTenant(r.Get)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return workflow.WithValue(ctx, tenantKey{}, tenant), nil
}

type tenantPropagatorOfficial struct{}

func (tenantPropagatorOfficial) EncodeHeaders() bool { return true }

func (tenantPropagatorOfficial) Inject(ctx context.Context, w officialworkflow.HeaderWriter) error {
	return injectTenant(ctx.Value(tenantKey{}), w.Set)
}

func (tenantPropagatorOfficial) Extract(ctx context.Context, r officialworkflow.HeaderReader) (context.Context, error) {
	tenant, err := extractTenant(r.Get)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return context.WithValue(ctx, tenantKey{}, tenant), nil
}

func (tenantPropagatorOfficial) InjectFromWorkflow(ctx officialworkflow.Context, w officialworkflow.HeaderWriter) error {
	return injectTenant(ctx.Value(tenantKey{}), w.Set)
}

func (tenantPropagatorOfficial) ExtractToWorkflow(ctx officialworkflow.Context, r officialworkflow.HeaderReader) (officialworkflow.Context, error) {
	tenant, err := extractTenant(r.Get)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return officialworkflow.WithValue(ctx, tenantKey{}, tenant), nil
}

// injectTenant writes a tenant as a JSON payload; extractTenant reads it,
// failing on a payload still encoded (the codec's "binary/header"), so a
// field that was not decoded shows.
func injectTenant(tenant any, set func(string, *commonpb.Payload)) error {
	s, ok := tenant.(string)
	if !ok {
		return nil
	}
	p, err := converter.GetDefaultDataConverter().ToPayload(s)
	if err != nil {
		return err
	}
	set(tenantField, p)
	return nil
}

func extractTenant(get func(string) (*commonpb.Payload, bool)) (string, error) {
	p, ok := get(tenantField)
	if !ok {
		return "", nil
	}
	var tenant string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &tenant); err != nil {
		return "", fmt.Errorf("the tenant field was not decoded: %w", err)
	}
	return tenant, nil
}

func TenantActivity(ctx context.Context) (string, error) {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	return tenant, nil
}

func TenantWorkflowOurs(ctx workflow.Context) (string, error) {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var fromActivity string
	err := workflow.ExecuteActivity(ctx, "TenantActivity").Get(ctx, &fromActivity)
	return "workflow=" + tenant + ",activity=" + fromActivity, err
}

func TenantWorkflowOfficial(ctx officialworkflow.Context) (string, error) {
	tenant, _ := ctx.Value(tenantKey{}).(string)
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var fromActivity string
	err := officialworkflow.ExecuteActivity(ctx, "TenantActivity").Get(ctx, &fromActivity)
	return "workflow=" + tenant + ",activity=" + fromActivity, err
}

// headerCodec is the codec of both SDKs' data converters here.
var headerCodec = tagCodec{"header"}

func TestPropagatorFieldsGoThroughTheCodecAlikeOnBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	ours, err := client.Dial(client.Options{HostPort: hp,
		DataConverter:      converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []workflow.ContextPropagator{tenantPropagatorOurs{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	theirs, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{},
		DataConverter:      officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), headerCodec),
		ContextPropagators: []officialworkflow.ContextPropagator{tenantPropagatorOfficial{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()

	ourQueue := fmt.Sprintf("headercodec-ours-%d", time.Now().UnixNano())
	w := worker.New(ours, ourQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(TenantWorkflowOurs, workflow.RegisterOptions{Name: "TenantWorkflow"})
	w.RegisterActivityWithOptions(TenantActivity, activity.RegisterOptions{Name: "TenantActivity"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	officialQueue := fmt.Sprintf("headercodec-official-%d", time.Now().UnixNano())
	ow := officialworker.New(theirs, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(TenantWorkflowOfficial, officialworkflow.RegisterOptions{Name: "TenantWorkflow"})
	ow.RegisterActivityWithOptions(TenantActivity, officialactivity.RegisterOptions{Name: "TenantActivity"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), tenantKey{}, "acme"), time.Minute)
	defer cancel()
	histories := map[string]*historypb.History{}
	for _, c := range []struct {
		name  string
		start func() (string, error)
	}{
		{"our client, our worker", func() (string, error) { return runTenant(ctx, ours, ourQueue) }},
		{"official client, official worker", func() (string, error) { return runTenantOfficial(ctx, theirs, officialQueue) }},
		{"our client, official worker", func() (string, error) { return runTenant(ctx, ours, officialQueue) }},
		{"official client, our worker", func() (string, error) { return runTenantOfficial(ctx, theirs, ourQueue) }},
	} {
		id, err := c.start()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		histories[c.name] = fullHistory(t, ours, id)
	}
	want := tenantFields(t, histories["official client, official worker"])
	for name, h := range histories {
		got := tenantFields(t, h)
		for event, field := range want {
			if !proto.Equal(field, got[event]) {
				t.Errorf("%s: the %s field of %s is %v, want go.temporal.io/sdk's %v", name, tenantField, event, got[event], field)
			}
		}
		if enc := string(got["WorkflowExecutionStarted"].GetMetadata()["encoding"]); enc != "binary/header" {
			t.Errorf("%s: the started event's tenant field has encoding %q, want the codec's binary/header", name, enc)
		}
	}
}

func runTenant(ctx context.Context, c client.Client, taskQueue string) (string, error) {
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, "TenantWorkflow")
	if err != nil {
		return "", err
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		return "", err
	}
	if got != "workflow=acme,activity=acme" {
		return "", fmt.Errorf("the workflow returned %q, want the tenant in the workflow and the activity", got)
	}
	return run.GetID(), nil
}

func runTenantOfficial(ctx context.Context, c officialclient.Client, taskQueue string) (string, error) {
	run, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: taskQueue}, "TenantWorkflow")
	if err != nil {
		return "", err
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		return "", err
	}
	if got != "workflow=acme,activity=acme" {
		return "", fmt.Errorf("the workflow returned %q, want the tenant in the workflow and the activity", got)
	}
	return run.GetID(), nil
}

// tenantFields returns the tenant header field of the started and the
// activity-scheduled events.
func tenantFields(t *testing.T, h *historypb.History) map[string]*commonpb.Payload {
	t.Helper()
	fields := map[string]*commonpb.Payload{}
	for _, e := range h.GetEvents() {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			fields["WorkflowExecutionStarted"] = e.GetWorkflowExecutionStartedEventAttributes().GetHeader().GetFields()[tenantField]
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			fields["ActivityTaskScheduled"] = e.GetActivityTaskScheduledEventAttributes().GetHeader().GetFields()[tenantField]
		}
	}
	return fields
}
