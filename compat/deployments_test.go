package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

// TestWorkerDeploymentClientsAgree runs the same operator's calls
// (deployments_scenario_ours_test.go) with each SDK's
// WorkerDeploymentClient, each on a deployment of its own whose versions
// the same raw polls made, and compares what they return: versions,
// routing, drainage, task queues, metadata payloads, previous values, and
// the server's errors, with the deployment's name and the times taken
// out.
func TestWorkerDeploymentClientsAgree(t *testing.T) {
	hp := testharness.HostPort(t)
	const identity = "compat-deployments"
	c, err := client.Dial(client.Options{HostPort: hp, Identity: identity, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Identity: identity, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stamp := time.Now().UnixNano()
	oursName, officialName := fmt.Sprintf("ours-%d", stamp), fmt.Sprintf("official-%d", stamp)
	var wg sync.WaitGroup
	for _, run := range []struct {
		service workflowservice.WorkflowServiceClient
		name    string
	}{{c.WorkflowService(), oursName}, {oc.WorkflowService(), officialName}} {
		wg.Go(func() {
			pollAsDeployment(run.service, run.name+"-tq", run.name, "v1", enumspb.WORKER_VERSIONING_MODE_VERSIONED)
		})
		wg.Go(func() {
			pollAsDeployment(run.service, run.name+"-tq", run.name, "v2", enumspb.WORKER_VERSIONING_MODE_VERSIONED)
		})
	}
	wg.Wait()

	var ours, official *deploymentOutcome
	wg.Go(func() { ours = deploymentScenarioOurs(ctx, c, oursName, oursName+"-tq") })
	wg.Go(func() { official = deploymentScenarioOfficial(ctx, oc, officialName, officialName+"-tq") })
	wg.Wait()

	if !slices.Equal(ours.lines, official.lines) {
		t.Errorf("the SDKs' deployment clients disagree:\n%s", diffLines(official.lines, ours.lines))
	}
	for _, line := range official.lines {
		if strings.HasPrefix(line, "timed out") {
			t.Errorf("the scenario waited in vain: %s", line)
		}
	}
	if testing.Verbose() {
		t.Logf("both SDKs:\n%s", strings.Join(ours.lines, "\n"))
	}
}

// pollAsDeployment polls taskQueue for workflow and activity tasks once
// each, as a worker of the deployment's version buildID does, until the
// polls time out empty: the server records the version and its task
// queues.
func pollAsDeployment(service workflowservice.WorkflowServiceClient, taskQueue, deployment, buildID string, mode enumspb.WorkerVersioningMode) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	options := &deploymentpb.WorkerDeploymentOptions{DeploymentName: deployment, BuildId: buildID, WorkerVersioningMode: mode}
	queue := &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL}
	identity := "poller-" + buildID
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _ = service.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
			Namespace: "default", TaskQueue: queue, Identity: identity, DeploymentOptions: options,
		})
	})
	wg.Go(func() {
		_, _ = service.PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{
			Namespace: "default", TaskQueue: queue, Identity: identity, DeploymentOptions: options,
		})
	})
	wg.Wait()
}

// deploymentOutcome is what a scenario saw, one line per observation, with the
// deployment's name replaced by "<deployment>" and times by whether they
// are set, so that two runs on two deployments compare.
type deploymentOutcome struct {
	name  string
	lines []string
}

func (o *deploymentOutcome) anonymous(s string) string {
	return strings.ReplaceAll(s, o.name, "<deployment>")
}

func (o *deploymentOutcome) strf(format string, args ...any) string {
	return fmt.Sprintf(format, args...)
}

func (o *deploymentOutcome) note(what string, values ...any) {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = o.anonymous(shape(reflect.ValueOf(v)))
	}
	o.lines = append(o.lines, what+": "+strings.Join(parts, " "))
}

// version is a *WorkerDeploymentVersion of either SDK, or nil.
func (o *deploymentOutcome) version(v any) string { return o.anonymous(shape(reflect.ValueOf(v))) }

// noteRouting notes a routing config of either SDK.
func (o *deploymentOutcome) noteRouting(what string, routing any) { o.note(what, routing) }

// noteRefused notes whether a call a client must refuse before sending it
// was refused; the messages are each SDK's own.
func (o *deploymentOutcome) noteRefused(what string, err error) { o.note(what+" refused", err != nil) }

// noteErr notes a call's outcome: ok, or the server's error with its type.
func (o *deploymentOutcome) noteErr(what string, err error) {
	var fromServer serviceerror.ServiceError
	switch {
	case err == nil:
		o.note(what, "ok")
	case errors.As(err, &fromServer):
		o.note(what, fmt.Sprintf("%T: %v", err, err))
	default:
		o.note(what, "a client-side error")
	}
}

func (o *deploymentOutcome) noteMetadata(what string, metadata map[string]*commonpb.Payload) {
	var entries []string
	for key, p := range metadata {
		entries = append(entries, fmt.Sprintf("%s=%s:%s", key, p.GetMetadata()["encoding"], p.GetData()))
	}
	slices.Sort(entries)
	o.note(what, entries)
}

// await waits up to a minute for done; a wait in vain is noted.
func (o *deploymentOutcome) await(what string, done func() bool) {
	deadline := time.Now().Add(time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			o.lines = append(o.lines, "timed out waiting for "+what)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// shape prints a value of either SDK's types: structs by field name,
// pointers by what they point to, maps in key order, times as set or
// zero.
func shape(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	if t, ok := v.Interface().(time.Time); ok {
		if t.IsZero() {
			return "zero-time"
		}
		return "time"
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return shape(v.Elem())
	case reflect.Struct:
		fields := make([]string, v.NumField())
		for i := range fields {
			fields[i] = v.Type().Field(i).Name + ":" + shape(v.Field(i))
		}
		return "{" + strings.Join(fields, " ") + "}"
	case reflect.Map:
		keys := v.MapKeys()
		entries := make([]string, len(keys))
		for i, k := range keys {
			entries[i] = shape(k) + ":" + shape(v.MapIndex(k))
		}
		slices.Sort(entries)
		return "map[" + strings.Join(entries, " ") + "]"
	case reflect.Slice:
		items := make([]string, v.Len())
		for i := range items {
			items[i] = shape(v.Index(i))
		}
		return "[" + strings.Join(items, " ") + "]"
	}
	return fmt.Sprint(v.Interface())
}

// diffLines shows where two outcomes part, line by line.
func diffLines(want, got []string) string {
	var b strings.Builder
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "official: %s\n    ours: %s\n", w, g)
		}
	}
	return b.String()
}

// TestDeploymentScenarioIsOneSource keeps the official SDK's scenario the
// ours one with the import prefix and the function's name rewritten; -update
// rewrites it.
func TestDeploymentScenarioIsOneSource(t *testing.T) {
	src, err := os.ReadFile("deployments_scenario_ours_test.go")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(string(src), `"github.com/durable-go/sdk/`, `"go.temporal.io/sdk/`)
	want = strings.ReplaceAll(want, "deploymentScenarioOurs", "deploymentScenarioOfficial")
	const generated = "deployments_scenario_official_test.go"
	if *update {
		if err := os.WriteFile(generated, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(generated)
	if err != nil || string(have) != want {
		t.Fatalf("%s is not deployments_scenario_ours_test.go rewritten for go.temporal.io/sdk: regenerate it with go test -run TestDeploymentScenarioIsOneSource -update .", generated)
	}
}
