package client_test

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// TestUpdateWorkflowExecutionOptions sets, replaces and removes a running
// workflow's versioning override, and reads it back from the server's
// description. No deployment needs to exist for the server to record it.
func TestUpdateWorkflowExecutionOptions(t *testing.T) {
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{})
	version := worker.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "2024.1"}

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
	// v1.5.1, which reads no behavior in them and says so.
	_, err := c.UpdateWorkflowExecutionOptions(ctxFor(t), client.UpdateWorkflowExecutionOptionsRequest{
		WorkflowId: run.GetID(),
		WorkflowExecutionOptionsChanges: client.WorkflowExecutionOptionsChanges{
			VersioningOverride: &client.VersioningOverrideChange{Value: &client.OneTimeVersioningOverride{TargetVersion: version}},
		},
	})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
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

	run := start(t, c, client.StartWorkflowOptions{VersioningOverride: pinned})
	assertOverride(t, "ExecuteWorkflow's", pinned, describedOverride(run.GetID()))

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
