// Package versioningapi runs the same calls of the deprecated build-ID
// versioning API and of the deployment-series DeploymentClient on the dev
// server with both SDKs' clients: the source is in ours, and official is
// generated from it with the client package's import rewritten
// (compat's TestVersioningAPIIsOneSource). Whatever the server serves
// must give the same answers, and whatever it refuses the same errors.
package versioningapi

//lint:file-ignore SA1019 the API under test is deprecated in both SDKs.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	// Alone in its group: the official copy rewrites it.
	"go.temporal.io/sdk/client"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
)

func TestMain(m *testing.M) { testharness.Main(m) }

func dial(t *testing.T, hostPort string) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

var queues atomic.Int64

func taskQueue(t *testing.T) string {
	return fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano(), queues.Add(1))
}

// setsOf shows version sets as [[a b] [c]].
func setsOf(sets *client.WorkerBuildIDVersionSets) string {
	var shown []string
	for _, set := range sets.Sets {
		shown = append(shown, fmt.Sprint(set.BuildIDs))
	}
	return "[" + strings.Join(shown, " ") + "]"
}

func TestVersionSetsAreKeptAndPromoted(t *testing.T) {
	ctx := context.Background()
	c := dial(t, testharness.HostPort(t))
	tq := taskQueue(t)
	get := func(maxSets int) *client.WorkerBuildIDVersionSets {
		t.Helper()
		sets, err := c.GetWorkerBuildIdCompatibility(ctx, &client.GetWorkerBuildIdCompatibilityOptions{TaskQueue: tq, MaxSets: maxSets})
		if err != nil {
			t.Fatal(err)
		}
		return sets
	}
	update := func(op client.UpdateWorkerBuildIdCompatibilityOptions) error {
		op.TaskQueue = tq
		return c.UpdateWorkerBuildIdCompatibility(ctx, &op)
	}
	if sets := get(0); len(sets.Sets) != 0 || sets.Default() != "" {
		t.Fatalf("a new task queue has the sets %s, default %q", setsOf(sets), sets.Default())
	}
	for step, tc := range []struct {
		op          client.UpdateWorkerBuildIdCompatibilityOptions
		sets, deflt string
	}{
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpAddNewIDInNewDefaultSet{BuildID: "1.0"}}, "[[1.0]]", "1.0"},
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpAddNewCompatibleVersion{BuildID: "1.1", ExistingCompatibleBuildID: "1.0"}}, "[[1.0 1.1]]", "1.1"},
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpAddNewIDInNewDefaultSet{BuildID: "2.0"}}, "[[1.0 1.1] [2.0]]", "2.0"},
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpPromoteSet{BuildID: "1.0"}}, "[[2.0] [1.0 1.1]]", "1.1"},
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpPromoteIDWithinSet{BuildID: "1.0"}}, "[[2.0] [1.1 1.0]]", "1.0"},
		{client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpAddNewCompatibleVersion{BuildID: "2.1", ExistingCompatibleBuildID: "2.0", MakeSetDefault: true}}, "[[1.1 1.0] [2.0 2.1]]", "2.1"},
	} {
		if err := update(tc.op); err != nil {
			t.Fatalf("step %d, %T: %v", step, tc.op.Operation, err)
		}
		if sets := get(0); setsOf(sets) != tc.sets || sets.Default() != tc.deflt {
			t.Errorf("step %d, %T: sets %s, default %q; want %s, %q", step, tc.op.Operation, setsOf(sets), sets.Default(), tc.sets, tc.deflt)
		}
	}
	if newest := get(1); setsOf(newest) != "[[2.0 2.1]]" {
		t.Errorf("MaxSets 1 gave %s", setsOf(newest))
	}
	err := update(client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpAddNewCompatibleVersion{BuildID: "3.1", ExistingCompatibleBuildID: "3.0"}})
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Errorf("adding to a set that does not exist: %T %v, want a *serviceerror.NotFound", err, err)
	}
}

func TestTaskReachabilityOfBuildIDs(t *testing.T) {
	ctx := context.Background()
	c := dial(t, testharness.HostPort(t))
	tq := taskQueue(t)
	for _, id := range []string{"1.0", "2.0"} {
		if err := c.UpdateWorkerBuildIdCompatibility(ctx, &client.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: tq, Operation: &client.BuildIDOpAddNewIDInNewDefaultSet{BuildID: id}}); err != nil {
			t.Fatal(err)
		}
	}
	reachability, err := c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{BuildIDs: []string{"1.0", "2.0", "0.9"}, TaskQueues: []string{tq}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for buildID, r := range reachability.BuildIDReachability {
		got[buildID] = fmt.Sprintf("%v unretrieved %v", r.TaskQueueReachable[tq].TaskQueueReachability, r.UnretrievedTaskQueues)
	}
	// The server counts both sets' build IDs reachable by new workflows;
	// 0.9, which the task queue does not know, is reachable by nothing.
	newWorkflows := fmt.Sprintf("%v unretrieved []", []client.TaskReachability{client.TaskReachabilityNewWorkflows})
	want := map[string]string{"2.0": newWorkflows, "1.0": newWorkflows, "0.9": "[] unretrieved []"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reachability %v, want %v", got, want)
	}
	// Without task queues, the server looks in those that know the build ID.
	reachability, err = c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{BuildIDs: []string{"2.0"}, Reachability: client.TaskReachabilityNewWorkflows})
	if err != nil {
		t.Fatal(err)
	}
	if r := reachability.BuildIDReachability["2.0"]; r == nil || r.TaskQueueReachable[tq] == nil {
		t.Errorf("reachability of 2.0 in every task queue: %+v", r)
	}
	_, err = c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{BuildIDs: []string{client.UnversionedBuildID}})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Errorf("the unversioned build ID without a task queue: %T %v, want a *serviceerror.InvalidArgument", err, err)
	}
}

// rulesOf shows rules as "assignment: 2.0 (ramp 20), 1.0 (ramp 100);
// redirect: 1.0->1.1". The server answers a rule given without a ramp
// with a ramp of 100%.
func rulesOf(t *testing.T, rules *client.WorkerVersioningRules) string {
	var assignment, redirect []string
	for _, r := range rules.AssignmentRules {
		shown := r.Rule.TargetBuildID
		if ramp, ok := r.Rule.Ramp.(*client.VersioningRampByPercentage); ok {
			shown += fmt.Sprintf(" (ramp %v)", ramp.Percentage)
		}
		if r.CreateTime.IsZero() {
			t.Errorf("assignment rule %s has no creation time", shown)
		}
		assignment = append(assignment, shown)
	}
	for _, r := range rules.RedirectRules {
		if r.CreateTime.IsZero() {
			t.Errorf("redirect rule %+v has no creation time", r.Rule)
		}
		redirect = append(redirect, r.Rule.SourceBuildID+"->"+r.Rule.TargetBuildID)
	}
	return "assignment: " + strings.Join(assignment, ", ") + "; redirect: " + strings.Join(redirect, ", ")
}

func TestVersioningRulesAreUpdatedWithTheirConflictToken(t *testing.T) {
	ctx := context.Background()
	c := dial(t, testharness.HostPort(t))
	tq := taskQueue(t)
	rules, err := c.GetWorkerVersioningRules(ctx, client.GetWorkerVersioningOptions{TaskQueue: tq})
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(t, rules); got != "assignment: ; redirect: " {
		t.Errorf("a new task queue has the rules %s", got)
	}
	first := rules.ConflictToken
	if len(first.Token()) == 0 {
		t.Error("the first conflict token is empty")
	}
	token := first
	for step, tc := range []struct {
		op   client.UpdateWorkerVersioningRulesOptions
		want string
	}{
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationInsertAssignmentRule{Rule: client.VersioningAssignmentRule{TargetBuildID: "1.0"}}},
			"assignment: 1.0 (ramp 100); redirect: "},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationInsertAssignmentRule{Rule: client.VersioningAssignmentRule{TargetBuildID: "2.0", Ramp: &client.VersioningRampByPercentage{Percentage: 20}}}},
			"assignment: 2.0 (ramp 20), 1.0 (ramp 100); redirect: "},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationAddRedirectRule{Rule: client.VersioningRedirectRule{SourceBuildID: "1.0", TargetBuildID: "1.1"}}},
			"assignment: 2.0 (ramp 20), 1.0 (ramp 100); redirect: 1.0->1.1"},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationReplaceRedirectRule{Rule: client.VersioningRedirectRule{SourceBuildID: "1.0", TargetBuildID: "1.2"}}},
			"assignment: 2.0 (ramp 20), 1.0 (ramp 100); redirect: 1.0->1.2"},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationReplaceAssignmentRule{RuleIndex: 0, Rule: client.VersioningAssignmentRule{TargetBuildID: "2.0", Ramp: &client.VersioningRampByPercentage{Percentage: 50}}}},
			"assignment: 2.0 (ramp 50), 1.0 (ramp 100); redirect: 1.0->1.2"},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationDeleteRedirectRule{SourceBuildID: "1.0"}},
			"assignment: 2.0 (ramp 50), 1.0 (ramp 100); redirect: "},
		{client.UpdateWorkerVersioningRulesOptions{Operation: &client.VersioningOperationCommitBuildID{TargetBuildID: "2.0", Force: true}},
			"assignment: 2.0 (ramp 100); redirect: "},
	} {
		tc.op.TaskQueue, tc.op.ConflictToken = tq, token
		updated, err := c.UpdateWorkerVersioningRules(ctx, tc.op)
		if err != nil {
			t.Fatalf("step %d, %T: %v", step, tc.op.Operation, err)
		}
		if got := rulesOf(t, updated); got != tc.want {
			t.Errorf("step %d, %T: rules %s, want %s", step, tc.op.Operation, got, tc.want)
		}
		token = updated.ConflictToken
		read, err := c.GetWorkerVersioningRules(ctx, client.GetWorkerVersioningOptions{TaskQueue: tq})
		if err != nil || rulesOf(t, read) != tc.want || string(read.ConflictToken.Token()) != string(token.Token()) {
			t.Errorf("step %d: read back %+v, %v", step, read, err)
		}
	}
	var precondition *serviceerror.FailedPrecondition
	for _, refused := range []client.UpdateWorkerVersioningRulesOptions{
		// An update on a token that is no longer current.
		{TaskQueue: tq, ConflictToken: first, Operation: &client.VersioningOperationDeleteRedirectRule{SourceBuildID: "1.0"}},
		// The last unconditional rule, without Force.
		{TaskQueue: tq, ConflictToken: token, Operation: &client.VersioningOperationDeleteAssignmentRule{RuleIndex: 0}},
		// A build ID no worker polled with, without Force.
		{TaskQueue: tq, ConflictToken: token, Operation: &client.VersioningOperationCommitBuildID{TargetBuildID: "3.0"}},
	} {
		if _, err := c.UpdateWorkerVersioningRules(ctx, refused); !errors.As(err, &precondition) {
			t.Errorf("%T: %T %v, want a *serviceerror.FailedPrecondition", refused.Operation, err, err)
		}
	}
}

// Servers from 1.28 on answer every call of the deployment-series API
// Unimplemented.
func TestDeploymentClientIsRefusedByTheServer(t *testing.T) {
	ctx := context.Background()
	dc := dial(t, testharness.HostPort(t)).DeploymentClient()
	deployment := client.Deployment{SeriesName: "orders", BuildID: "1.0"}
	_, describeErr := dc.Describe(ctx, client.DeploymentDescribeOptions{Deployment: deployment})
	_, reachabilityErr := dc.GetReachability(ctx, client.DeploymentGetReachabilityOptions{Deployment: deployment})
	_, currentErr := dc.GetCurrent(ctx, client.DeploymentGetCurrentOptions{SeriesName: "orders"})
	_, setErr := dc.SetCurrent(ctx, client.DeploymentSetCurrentOptions{Deployment: deployment, MetadataUpdate: client.DeploymentMetadataUpdate{UpsertEntries: map[string]any{"owner": "ops"}}})
	it, listErr := dc.List(ctx, client.DeploymentListOptions{SeriesName: "orders"})
	if listErr != nil {
		t.Fatalf("List: %v (the request is sent by HasNext)", listErr)
	}
	if !it.HasNext() {
		t.Fatal("HasNext is false: the listing's error is lost")
	}
	_, nextErr := it.Next()
	for call, err := range map[string]error{"Describe": describeErr, "GetReachability": reachabilityErr, "GetCurrent": currentErr, "SetCurrent": setErr, "List": nextErr} {
		var unimplemented *serviceerror.Unimplemented
		if !errors.As(err, &unimplemented) || !strings.Contains(err.Error(), "Deployments are deprecated and no longer supported, use Worker Deployments instead") {
			t.Errorf("%s: %T %v, want the server's *serviceerror.Unimplemented", call, err, err)
		}
	}
}

// A server whose dynamic config leaves the build-ID APIs off (as the
// Temporal CLI's dev server and servers' defaults do) answers
// PermissionDenied.
func TestBuildIDAPIsTurnedOffOnTheServer(t *testing.T) {
	path, err := devserver.FindTestServer()
	if err != nil {
		t.Fatal(err)
	}
	server, err := devserver.Start(context.Background(), devserver.Options{ExistingPath: path, DynamicConfig: map[string]string{
		"frontend.workerVersioningDataAPIs": "false",
		"frontend.workerVersioningRuleAPIs": "false",
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	ctx := context.Background()
	c := dial(t, server.HostPort())
	tq := taskQueue(t)
	const setsOff = "Worker versioning v0.1 (Version Set-based, deprecated) is disabled on this namespace."
	// The server says v0.2 for reachability, though it checks the version
	// sets' setting.
	const rulesOff = "Worker versioning v0.2 (Rules-based, deprecated) is disabled on this namespace."
	_, getSetsErr := c.GetWorkerBuildIdCompatibility(ctx, &client.GetWorkerBuildIdCompatibilityOptions{TaskQueue: tq})
	_, reachabilityErr := c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{BuildIDs: []string{"1.0"}, TaskQueues: []string{tq}})
	_, getRulesErr := c.GetWorkerVersioningRules(ctx, client.GetWorkerVersioningOptions{TaskQueue: tq})
	_, updateRulesErr := c.UpdateWorkerVersioningRules(ctx, client.UpdateWorkerVersioningRulesOptions{TaskQueue: tq,
		Operation: &client.VersioningOperationInsertAssignmentRule{Rule: client.VersioningAssignmentRule{TargetBuildID: "1.0"}}})
	for call, refusal := range map[string]struct {
		err     error
		message string
	}{
		"UpdateWorkerBuildIdCompatibility": {c.UpdateWorkerBuildIdCompatibility(ctx, &client.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: tq,
			Operation: &client.BuildIDOpAddNewIDInNewDefaultSet{BuildID: "1.0"}}), setsOff},
		"GetWorkerBuildIdCompatibility": {getSetsErr, setsOff},
		"GetWorkerTaskReachability":     {reachabilityErr, rulesOff},
		"GetWorkerVersioningRules":      {getRulesErr, rulesOff},
		"UpdateWorkerVersioningRules":   {updateRulesErr, rulesOff},
	} {
		var denied *serviceerror.PermissionDenied
		if !errors.As(refusal.err, &denied) || !strings.Contains(refusal.err.Error(), refusal.message) {
			t.Errorf("%s: %T %v, want the server's *serviceerror.PermissionDenied (%s)", call, refusal.err, refusal.err, refusal.message)
		}
	}
}
