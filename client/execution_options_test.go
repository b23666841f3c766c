package client_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"

	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// pinsOnlyKnownVersions reports whether the server refuses an override
// pinned to a deployment version no worker of the task queue has polled
// with: server 1.32 does (FailedPrecondition, "... is not present in task
// queue ..."), 1.29 records any version.
func pinsOnlyKnownVersions(t *testing.T, c client.Client) bool {
	t.Helper()
	info, err := c.WorkflowService().GetSystemInfo(ctxFor(t), &workflowservice.GetSystemInfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	major, minor, _ := strings.Cut(info.GetServerVersion(), ".")
	minor, _, _ = strings.Cut(minor, ".")
	maj, err1 := strconv.Atoi(major)
	mnr, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil {
		t.Fatalf("the server reports version %q, which is not major.minor.patch", info.GetServerVersion())
	}
	return maj > 1 || (maj == 1 && mnr >= 32)
}

// assertUnknownVersionRefused checks the error of an override pinned to a
// version the task queue does not have, on a server that refuses it.
func assertUnknownVersionRefused(t *testing.T, what string, err error) {
	t.Helper()
	var refused *serviceerror.FailedPrecondition
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "is not present in task queue") {
		t.Errorf("%s pinned to a version no worker has: %v, want FailedPrecondition saying it is not present in the task queue", what, err)
	}
}

// TestUpdateWorkflowExecutionOptions sets, replaces and removes a running
// workflow's versioning override, and reads it back from the server's
// description. On server 1.29 no deployment needs to exist for the server
// to record a pinned override; 1.32 refuses one to a version the task
// queue has not seen.
func TestUpdateWorkflowExecutionOptions(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments (versioning overrides)")
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{})
	version := worker.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "2024.1"}
	knownOnly := pinsOnlyKnownVersions(t, c)

	for _, tc := range []struct {
		name string
		set  client.VersioningOverride
	}{
		{"auto-upgrade", &client.AutoUpgradeVersioningOverride{}},
		{"pinned", &client.PinnedVersioningOverride{Version: version}},
		{"removed", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.UpdateWorkflowExecutionOptions(ctxFor(t), client.UpdateWorkflowExecutionOptionsRequest{
				WorkflowId: run.GetID(),
				WorkflowExecutionOptionsChanges: client.WorkflowExecutionOptionsChanges{
					VersioningOverride: &client.VersioningOverrideChange{Value: tc.set},
				},
			})
			if _, pinned := tc.set.(*client.PinnedVersioningOverride); pinned && knownOnly {
				assertUnknownVersionRefused(t, "an override", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			assertOverride(t, "returned", tc.set, got.VersioningOverride)

			desc, err := c.DescribeWorkflowExecution(ctxFor(t), run.GetID(), run.GetRunID())
			if err != nil {
				t.Fatal(err)
			}
			override := desc.GetWorkflowExecutionInfo().GetVersioningInfo().GetVersioningOverride()
			switch tc.set.(type) {
			case *client.AutoUpgradeVersioningOverride:
				if !override.GetAutoUpgrade() {
					t.Errorf("described override %v, want auto-upgrade", override)
				}
			case *client.PinnedVersioningOverride:
				v := override.GetPinned().GetVersion()
				if v.GetDeploymentName() != "orders" || v.GetBuildId() != "2024.1" {
					t.Errorf("described override %v, want pinned to orders 2024.1", override)
				}
			case nil:
				if override != nil {
					t.Errorf("described override %v, want none", override)
				}
			}
		})
	}

	// One-time overrides are newer than the dev server of the Temporal CLI
	// v1.5.1, which reads no behavior in them and says so; 1.32 takes them,
	// to a version the task queue has.
	_, err := c.UpdateWorkflowExecutionOptions(ctxFor(t), client.UpdateWorkflowExecutionOptionsRequest{
		WorkflowId: run.GetID(),
		WorkflowExecutionOptionsChanges: client.WorkflowExecutionOptionsChanges{
			VersioningOverride: &client.VersioningOverrideChange{Value: &client.OneTimeVersioningOverride{TargetVersion: version}},
		},
	})
	var invalid *serviceerror.InvalidArgument
	if knownOnly {
		assertUnknownVersionRefused(t, "a one-time override", err)
	} else if !errors.As(err, &invalid) {
		t.Errorf("one-time override on this server: %v, want InvalidArgument", err)
	}

	// The run is named too: a change to a run that is not there fails.
	_, err = c.UpdateWorkflowExecutionOptions(ctxFor(t), client.UpdateWorkflowExecutionOptionsRequest{
		WorkflowId: workflowID(t),
		WorkflowExecutionOptionsChanges: client.WorkflowExecutionOptionsChanges{
			VersioningOverride: &client.VersioningOverrideChange{Value: &client.AutoUpgradeVersioningOverride{}},
		},
	})
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Errorf("options of a missing workflow: %v, want NotFound", err)
	}

	// Nothing to change is a mistake found before any call.
	_, err = c.UpdateWorkflowExecutionOptions(ctxFor(t), client.UpdateWorkflowExecutionOptionsRequest{WorkflowId: run.GetID()})
	if err == nil {
		t.Error("a request without changes was accepted")
	}
}

func assertOverride(t *testing.T, what string, want, got client.VersioningOverride) {
	t.Helper()
	switch w := want.(type) {
	case nil:
		if got != nil {
			t.Errorf("%s override %#v, want none", what, got)
		}
	case *client.PinnedVersioningOverride:
		if g, ok := got.(*client.PinnedVersioningOverride); !ok || g.Version != w.Version {
			t.Errorf("%s override %#v, want pinned to %v", what, got, w.Version)
		}
	case *client.AutoUpgradeVersioningOverride:
		if _, ok := got.(*client.AutoUpgradeVersioningOverride); !ok {
			t.Errorf("%s override %#v, want auto-upgrade", what, got)
		}
	}
}

// TestStartsCarryAVersioningOverride: a workflow may start with an
// override, by ExecuteWorkflow, SignalWithStartWorkflow or a schedule.
func TestStartsCarryAVersioningOverride(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments (versioning overrides)")
	c := dial(t)
	pinned := &client.PinnedVersioningOverride{Version: worker.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b7"}}
	describedOverride := func(id string) client.VersioningOverride {
		t.Helper()
		desc, err := c.DescribeWorkflowExecution(ctxFor(t), id, "")
		if err != nil {
			t.Fatal(err)
		}
		return versioningOverrideOf(desc.GetWorkflowExecutionInfo().GetVersioningInfo().GetVersioningOverride())
	}

	if pinsOnlyKnownVersions(t, c) {
		// Server 1.32 refuses a start pinned to a version the task queue
		// has not seen, as it refuses such a change of options.
		_, err := c.ExecuteWorkflow(ctxFor(t), client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: "client-tests", VersioningOverride: pinned}, "ClientTestWorkflow")
		assertUnknownVersionRefused(t, "ExecuteWorkflow", err)
	} else {
		run := start(t, c, client.StartWorkflowOptions{VersioningOverride: pinned})
		assertOverride(t, "ExecuteWorkflow's", pinned, describedOverride(run.GetID()))
	}

	run, err := c.SignalWithStartWorkflow(ctxFor(t), workflowID(t), "go", nil,
		client.StartWorkflowOptions{TaskQueue: "client-tests", VersioningOverride: &client.AutoUpgradeVersioningOverride{}}, "ClientTestWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	assertOverride(t, "SignalWithStartWorkflow's", &client.AutoUpgradeVersioningOverride{}, describedOverride(run.GetID()))

	action := idleAction(t)
	action.VersioningOverride = pinned
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:   client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		Action: action,
		Paused: true,
	})
	d, err := h.Describe(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	assertOverride(t, "the schedule's", pinned, d.Schedule.Action.(*client.ScheduleWorkflowAction).VersioningOverride)
}

// versioningOverrideOf reads the override of a description, as the client
// would return it.
func versioningOverrideOf(p *workflowpb.VersioningOverride) client.VersioningOverride {
	switch {
	case p == nil:
		return nil
	case p.GetAutoUpgrade():
		return &client.AutoUpgradeVersioningOverride{}
	case p.GetPinned() != nil:
		v := p.GetPinned().GetVersion()
		return &client.PinnedVersioningOverride{Version: worker.WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}}
	}
	return nil
}
