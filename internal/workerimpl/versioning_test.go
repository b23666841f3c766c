package workerimpl

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/binarychecksum"
	"github.com/durable-go/sdk/internal/clientapi"
)

func versionedOrderWorkflow(internal.Context) error { return nil }
func otherOrderWorkflow(internal.Context) error     { return nil }

// panicMessage is what f panics with; "" when it returns.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

var ordersV1 = clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "v1"}

// As go.temporal.io/sdk's worker.New: a default behavior needs
// UseVersioning, and sessions do not go with build-ID versioning; each
// refusal says what to change.
func TestWorkerRefusesContradictoryVersioningOptions(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientSettings{})
	msg := panicMessage(func() {
		NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{Version: ordersV1, DefaultVersioningBehavior: internal.VersioningBehaviorPinned}})
	})
	if !strings.Contains(msg, "DefaultVersioningBehavior is set but DeploymentOptions.UseVersioning is not") {
		t.Errorf("default behavior without UseVersioning: panic %q", msg)
	}
	msg = panicMessage(func() {
		NewWorker(c, "tq", internal.WorkerOptions{EnableSessionWorker: true, UseBuildIDForVersioning: true})
	})
	if !strings.Contains(msg, "EnableSessionWorker and UseBuildIDForVersioning") {
		t.Errorf("sessions with build-ID versioning: panic %q", msg)
	}
	if msg := panicMessage(func() {
		NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{UseVersioning: true, Version: ordersV1, DefaultVersioningBehavior: internal.VersioningBehaviorAutoUpgrade}})
	}); msg != "" {
		t.Errorf("a valid versioned worker panicked: %s", msg)
	}
}

// A versioned worker without a default behavior refuses a workflow
// registered without one, as go.temporal.io/sdk's does, and the dynamic
// workflow without LoadDynamicRuntimeOptions; with a default, or
// unversioned, it takes them.
func TestVersionedWorkerNeedsEveryWorkflowsBehavior(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientSettings{})
	strict := NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{UseVersioning: true, Version: ordersV1}})
	msg := panicMessage(func() { strict.RegisterWorkflow(versionedOrderWorkflow) })
	if !strings.Contains(msg, `workflow "versionedOrderWorkflow" is registered without a versioning behavior`) || !strings.Contains(msg, `deployment "orders" build "v1"`) {
		t.Errorf("RegisterWorkflow without a behavior: panic %q", msg)
	}
	msg = panicMessage(func() {
		strict.RegisterDynamicWorkflow(func(internal.Context, converter.EncodedValues) error { return nil }, internal.DynamicRegisterWorkflowOptions{})
	})
	if !strings.Contains(msg, "the dynamic workflow is registered without LoadDynamicRuntimeOptions") {
		t.Errorf("RegisterDynamicWorkflow without a loader: panic %q", msg)
	}
	if msg := panicMessage(func() {
		strict.RegisterWorkflowWithOptions(versionedOrderWorkflow, internal.RegisterWorkflowOptions{VersioningBehavior: internal.VersioningBehaviorPinned})
	}); msg != "" {
		t.Errorf("a pinned registration panicked: %s", msg)
	}

	withDefault := NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{UseVersioning: true, Version: ordersV1, DefaultVersioningBehavior: internal.VersioningBehaviorAutoUpgrade}})
	unversioned := NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{Version: ordersV1}})
	for name, w := range map[string]*AggregatedWorker{"with a default": withDefault, "unversioned": unversioned} {
		if msg := panicMessage(func() { w.RegisterWorkflow(versionedOrderWorkflow) }); msg != "" {
			t.Errorf("%s: RegisterWorkflow panicked: %s", name, msg)
		}
	}
}

// A completion reports its type's registered behavior (found by function
// name too, for a function registered under another name), else the
// dynamic workflow's answer for it, else the worker's default; only a
// worker that is versioned or names a version reports one.
func TestCompletionsReportTheirTypesVersioningBehavior(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientSettings{})
	w := NewWorker(c, "tq", internal.WorkerOptions{DeploymentOptions: internal.WorkerDeploymentOptions{UseVersioning: true, Version: ordersV1, DefaultVersioningBehavior: internal.VersioningBehaviorAutoUpgrade}})
	w.RegisterWorkflowWithOptions(versionedOrderWorkflow, internal.RegisterWorkflowOptions{Name: "Orders", VersioningBehavior: internal.VersioningBehaviorPinned})
	w.RegisterWorkflow(otherOrderWorkflow)
	w.RegisterDynamicWorkflow(func(internal.Context, converter.EncodedValues) error { return nil }, internal.DynamicRegisterWorkflowOptions{
		LoadDynamicRuntimeOptions: func(d internal.LoadDynamicRuntimeOptionsDetails) (internal.DynamicRuntimeWorkflowOptions, error) {
			if d.WorkflowType.Name == "Broken" {
				return internal.DynamicRuntimeWorkflowOptions{}, errors.New("no options for Broken")
			}
			return internal.DynamicRuntimeWorkflowOptions{VersioningBehavior: internal.VersioningBehaviorPinned}, nil
		},
	})
	behaviorOf := w.versioning.runtime(false).BehaviorOf
	for workflowType, want := range map[string]enumspb.VersioningBehavior{
		"Orders":                 enumspb.VERSIONING_BEHAVIOR_PINNED,
		"versionedOrderWorkflow": enumspb.VERSIONING_BEHAVIOR_PINNED, // by its function name
		"otherOrderWorkflow":     enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
		"SomethingDynamic":       enumspb.VERSIONING_BEHAVIOR_PINNED,
		"Broken":                 enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
	} {
		if got := behaviorOf(workflowType); got != want {
			t.Errorf("behavior of %s: %v, want %v", workflowType, got, want)
		}
	}
	if plain := NewWorker(c, "tq", internal.WorkerOptions{}); plain.versioning.runtime(false).BehaviorOf != nil {
		t.Error("a worker neither versioned nor with a version reports a behavior")
	}
}

// The build ID a worker sends is its version's, else the deprecated
// BuildID, else the binary checksum; the session's own task queue is
// polled unversioned, naming the version still, as go.temporal.io/sdk
// polls it.
func TestWorkerBuildIDAndSessionQueueVersioning(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientSettings{})
	for _, tc := range []struct {
		opts internal.WorkerOptions
		want string
	}{
		{internal.WorkerOptions{BuildID: "legacy", DeploymentOptions: internal.WorkerDeploymentOptions{Version: ordersV1}}, "v1"},
		{internal.WorkerOptions{BuildID: "legacy"}, "legacy"},
		{internal.WorkerOptions{}, binarychecksum.Get()},
	} {
		if got := NewWorker(c, "tq", tc.opts).versioning.runtime(false).BuildID; got != tc.want {
			t.Errorf("%+v: build ID %q, want %q", tc.opts, got, tc.want)
		}
	}
	w := NewWorker(c, "tq", internal.WorkerOptions{EnableSessionWorker: true, DeploymentOptions: internal.WorkerDeploymentOptions{UseVersioning: true, Version: ordersV1, DefaultVersioningBehavior: internal.VersioningBehaviorPinned}})
	main, session := w.versioning.runtime(false), w.versioning.runtime(true)
	if !main.UseVersioning || session.UseVersioning || session.Version == nil || *session.Version != (*main.Version) {
		t.Errorf("main queue %+v, session queue %+v: want the session's unversioned with the same version", main, session)
	}
}
