package clientimpl

import (
	"errors"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

// Unit tests of the build-ID versioning conversions: each operation to
// its one-of, each answer back, and the checks of the arguments. The
// calls themselves run on the dev server (client/buildid_test.go,
// compat/versioningapi).

func TestBuildIDCompatibilityOperationsBecomeTheirOneOf(t *testing.T) {
	type req = workflowservice.UpdateWorkerBuildIdCompatibilityRequest
	for _, tc := range []struct {
		op   clientapi.UpdateBuildIDOp
		want *req
	}{
		{&clientapi.BuildIDOpAddNewIDInNewDefaultSet{BuildID: "2.0"},
			&req{TaskQueue: "tq", Operation: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewBuildIdInNewDefaultSet{AddNewBuildIdInNewDefaultSet: "2.0"}}},
		{&clientapi.BuildIDOpAddNewCompatibleVersion{BuildID: "1.1", ExistingCompatibleBuildID: "1.0", MakeSetDefault: true},
			&req{TaskQueue: "tq", Operation: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewCompatibleBuildId{
				AddNewCompatibleBuildId: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewCompatibleVersion{NewBuildId: "1.1", ExistingCompatibleBuildId: "1.0", MakeSetDefault: true}}}},
		{&clientapi.BuildIDOpPromoteSet{BuildID: "1.0"},
			&req{TaskQueue: "tq", Operation: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_PromoteSetByBuildId{PromoteSetByBuildId: "1.0"}}},
		{&clientapi.BuildIDOpPromoteIDWithinSet{BuildID: "1.1"},
			&req{TaskQueue: "tq", Operation: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_PromoteBuildIdWithinSet{PromoteBuildIdWithinSet: "1.1"}}},
	} {
		got, err := buildIDCompatibilityUpdateToProto(&clientapi.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", Operation: tc.op})
		chk.NoErr(t, err)
		if !proto.Equal(got, tc.want) {
			t.Errorf("%T: got %v, want %v", tc.op, got, tc.want)
		}
	}
}

func TestBuildIDCompatibilityUpdateChecksItsArguments(t *testing.T) {
	for _, tc := range []struct {
		options *clientapi.UpdateWorkerBuildIdCompatibilityOptions
		want    string
	}{
		{nil, "the options are nil"},
		{&clientapi.UpdateWorkerBuildIdCompatibilityOptions{Operation: &clientapi.BuildIDOpPromoteSet{BuildID: "1"}}, "TaskQueue is empty"},
		{&clientapi.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq"}, "Operation is nil"},
		{&clientapi.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", Operation: (*clientapi.BuildIDOpPromoteSet)(nil)}, "Operation is nil"},
		{&clientapi.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", Operation: &clientapi.BuildIDOpPromoteIDWithinSet{}}, "*clientapi.BuildIDOpPromoteIDWithinSet has no BuildID"},
		{&clientapi.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", Operation: &clientapi.BuildIDOpAddNewCompatibleVersion{BuildID: "1.1"}}, "ExistingCompatibleBuildID is empty"},
	} {
		_, err := buildIDCompatibilityUpdateToProto(tc.options)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("options %+v: error %v, want one saying %q", tc.options, err, tc.want)
		}
	}
}

func TestVersionSetsAndTheirDefault(t *testing.T) {
	sets := versionSetsFromProto([]*taskqueuepb.CompatibleVersionSet{{BuildIds: []string{"1.0", "1.1"}}, {BuildIds: []string{"2.0"}}})
	if len(sets.Sets) != 2 || strings.Join(sets.Sets[0].BuildIDs, ",") != "1.0,1.1" || sets.Default() != "2.0" {
		t.Errorf("sets %+v, default %q", sets.Sets, sets.Default())
	}
	for _, empty := range []*clientapi.WorkerBuildIDVersionSets{
		versionSetsFromProto(nil),
		{Sets: []*clientapi.CompatibleVersionSet{{}}},
		{Sets: []*clientapi.CompatibleVersionSet{nil}},
	} {
		if d := empty.Default(); d != "" {
			t.Errorf("Default of %+v = %q, want \"\"", empty, d)
		}
	}
}

func TestBuildIDReachabilitySeparatesTheTaskQueuesNotLookedAt(t *testing.T) {
	got := buildIDReachabilityFromProto([]*taskqueuepb.BuildIdReachability{
		{BuildId: "1.0", TaskQueueReachability: []*taskqueuepb.TaskQueueReachability{
			{TaskQueue: "a", Reachability: []enumspb.TaskReachability{enumspb.TASK_REACHABILITY_NEW_WORKFLOWS, enumspb.TASK_REACHABILITY_OPEN_WORKFLOWS}},
			{TaskQueue: "b", Reachability: []enumspb.TaskReachability{enumspb.TASK_REACHABILITY_UNSPECIFIED}},
			{TaskQueue: "c"},
		}},
		{BuildId: clientapi.UnversionedBuildID},
	})
	one := got["1.0"]
	if one == nil || len(one.TaskQueueReachable) != 2 || strings.Join(one.UnretrievedTaskQueues, ",") != "b" {
		t.Fatalf("1.0: %+v", one)
	}
	if a := one.TaskQueueReachable["a"].TaskQueueReachability; len(a) != 2 || a[0] != clientapi.TaskReachabilityNewWorkflows || a[1] != clientapi.TaskReachabilityOpenWorkflows {
		t.Errorf("a: %v", a)
	}
	if c := one.TaskQueueReachable["c"]; c == nil || len(c.TaskQueueReachability) != 0 {
		t.Errorf("c, unreachable: %+v", c)
	}
	if unversioned, ok := got[""]; !ok || unversioned.TaskQueueReachable != nil {
		t.Errorf("unversioned: %+v (present %v)", unversioned, ok)
	}
	if buildIDReachabilityFromProto(nil) != nil {
		t.Error("no build IDs must read as a nil map")
	}
	if _, err := taskReachabilityToProto(clientapi.TaskReachability(9)); err == nil || !strings.Contains(err.Error(), "9 is not a TaskReachability") {
		t.Errorf("an unknown reachability: %v", err)
	}
}

func TestVersioningRuleOperationsBecomeTheirOneOf(t *testing.T) {
	ramp := &clientapi.VersioningRampByPercentage{Percentage: 25}
	protoRamp := &taskqueuepb.BuildIdAssignmentRule_PercentageRamp{PercentageRamp: &taskqueuepb.RampByPercentage{RampPercentage: 25}}
	redirect := clientapi.VersioningRedirectRule{SourceBuildID: "1.0", TargetBuildID: "1.1"}
	protoRedirect := &taskqueuepb.CompatibleBuildIdRedirectRule{SourceBuildId: "1.0", TargetBuildId: "1.1"}
	type req = workflowservice.UpdateWorkerVersioningRulesRequest
	for _, tc := range []struct {
		op   clientapi.VersioningOperation
		want *req
	}{
		{&clientapi.VersioningOperationInsertAssignmentRule{RuleIndex: 1, Rule: clientapi.VersioningAssignmentRule{TargetBuildID: "2.0", Ramp: ramp}},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_InsertAssignmentRule{InsertAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_InsertBuildIdAssignmentRule{
				RuleIndex: 1, Rule: &taskqueuepb.BuildIdAssignmentRule{TargetBuildId: "2.0", Ramp: protoRamp}}}}},
		{&clientapi.VersioningOperationReplaceAssignmentRule{RuleIndex: 2, Rule: clientapi.VersioningAssignmentRule{TargetBuildID: "2.0"}, Force: true},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceAssignmentRule{ReplaceAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceBuildIdAssignmentRule{
				RuleIndex: 2, Rule: &taskqueuepb.BuildIdAssignmentRule{TargetBuildId: "2.0"}, Force: true}}}},
		{&clientapi.VersioningOperationDeleteAssignmentRule{RuleIndex: 3, Force: true},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteAssignmentRule{DeleteAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteBuildIdAssignmentRule{RuleIndex: 3, Force: true}}}},
		{&clientapi.VersioningOperationAddRedirectRule{Rule: redirect},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_AddCompatibleRedirectRule{AddCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_AddCompatibleBuildIdRedirectRule{Rule: protoRedirect}}}},
		{&clientapi.VersioningOperationReplaceRedirectRule{Rule: redirect},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceCompatibleRedirectRule{ReplaceCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceCompatibleBuildIdRedirectRule{Rule: protoRedirect}}}},
		{&clientapi.VersioningOperationDeleteRedirectRule{SourceBuildID: "1.0"},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteCompatibleRedirectRule{DeleteCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteCompatibleBuildIdRedirectRule{SourceBuildId: "1.0"}}}},
		{&clientapi.VersioningOperationCommitBuildID{TargetBuildID: "2.0", Force: true},
			&req{Operation: &workflowservice.UpdateWorkerVersioningRulesRequest_CommitBuildId_{CommitBuildId: &workflowservice.UpdateWorkerVersioningRulesRequest_CommitBuildId{TargetBuildId: "2.0", Force: true}}}},
	} {
		options := clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", ConflictToken: clientapi.NewVersioningConflictToken([]byte("t1")), Operation: tc.op}
		got, err := versioningRulesUpdateToProto(options)
		chk.NoErr(t, err)
		tc.want.TaskQueue, tc.want.ConflictToken = "tq", []byte("t1")
		if !proto.Equal(got, tc.want) {
			t.Errorf("%T: got %v, want %v", tc.op, got, tc.want)
		}
	}
}

func TestVersioningRulesUpdateChecksItsArguments(t *testing.T) {
	rule := func(target string, ramp clientapi.VersioningRamp) clientapi.VersioningAssignmentRule {
		return clientapi.VersioningAssignmentRule{TargetBuildID: target, Ramp: ramp}
	}
	for _, tc := range []struct {
		options clientapi.UpdateWorkerVersioningRulesOptions
		want    string
	}{
		{clientapi.UpdateWorkerVersioningRulesOptions{Operation: &clientapi.VersioningOperationDeleteAssignmentRule{}}, "TaskQueue is empty"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq"}, "no Operation"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: (*clientapi.VersioningOperationCommitBuildID)(nil)}, "no Operation"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationInsertAssignmentRule{}}, "no TargetBuildID"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationInsertAssignmentRule{Rule: rule("2", &clientapi.VersioningRampByPercentage{Percentage: 100})}}, "Percentage is 100"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationReplaceAssignmentRule{Rule: rule("2", &clientapi.VersioningRampByPercentage{Percentage: -1})}}, "Percentage is -1"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationInsertAssignmentRule{Rule: rule("2", (*clientapi.VersioningRampByPercentage)(nil))}}, "Ramp is a nil pointer"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationAddRedirectRule{Rule: clientapi.VersioningRedirectRule{TargetBuildID: "2"}}}, "no SourceBuildID"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationReplaceRedirectRule{Rule: clientapi.VersioningRedirectRule{SourceBuildID: "1"}}}, `from "1" has no TargetBuildID`},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationDeleteRedirectRule{}}, "no SourceBuildID"},
		{clientapi.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &clientapi.VersioningOperationCommitBuildID{}}, "no TargetBuildID"},
	} {
		_, err := versioningRulesUpdateToProto(tc.options)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("options %+v: error %v, want one saying %q", tc.options, err, tc.want)
		}
	}
}

func TestVersioningRulesFromTheAnswer(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rules := versioningRulesFromProto(
		[]*taskqueuepb.TimestampedBuildIdAssignmentRule{
			{Rule: &taskqueuepb.BuildIdAssignmentRule{TargetBuildId: "2.0", Ramp: &taskqueuepb.BuildIdAssignmentRule_PercentageRamp{PercentageRamp: &taskqueuepb.RampByPercentage{RampPercentage: 10}}}, CreateTime: timestamppb.New(created)},
			{Rule: &taskqueuepb.BuildIdAssignmentRule{TargetBuildId: "1.0"}},
			{},
		},
		[]*taskqueuepb.TimestampedCompatibleBuildIdRedirectRule{{Rule: &taskqueuepb.CompatibleBuildIdRedirectRule{SourceBuildId: "1.0", TargetBuildId: "1.1"}, CreateTime: timestamppb.New(created)}},
		[]byte("token"))
	if len(rules.AssignmentRules) != 3 || rules.AssignmentRules[2] != nil {
		t.Fatalf("assignment rules %+v", rules.AssignmentRules)
	}
	first, second := rules.AssignmentRules[0], rules.AssignmentRules[1]
	if ramp, ok := first.Rule.Ramp.(*clientapi.VersioningRampByPercentage); first.Rule.TargetBuildID != "2.0" || !ok || ramp.Percentage != 10 || !first.CreateTime.Equal(created) {
		t.Errorf("first rule %+v (ramp %+v)", first, first.Rule.Ramp)
	}
	if second.Rule.Ramp != nil || !second.CreateTime.IsZero() {
		t.Errorf("second rule %+v: no ramp and no time expected", second)
	}
	if r := rules.RedirectRules; len(r) != 1 || r[0].Rule != (clientapi.VersioningRedirectRule{SourceBuildID: "1.0", TargetBuildID: "1.1"}) || !r[0].CreateTime.Equal(created) {
		t.Errorf("redirect rules %+v", r)
	}
	if string(rules.ConflictToken.Token()) != "token" {
		t.Errorf("conflict token %q", rules.ConflictToken.Token())
	}
	if empty := versioningRulesFromProto(nil, nil, nil); len(empty.AssignmentRules) != 0 || empty.AssignmentRules == nil || empty.ConflictToken.Token() != nil {
		t.Errorf("no rules: %+v", empty)
	}
}

func TestVersioningRefusalsSayWhatReplacesTheAPI(t *testing.T) {
	unimplemented := explainVersioningRefusal(serviceerror.NewUnimplemented("Deployments are deprecated"), "DeploymentClient.Describe", deploymentSeriesAPI)
	var u *serviceerror.Unimplemented
	if !errors.As(unimplemented, &u) || !strings.Contains(u.Message, "DeploymentClient.Describe: the server does not serve it: Deployments are deprecated;") ||
		!strings.Contains(u.Message, "client.WorkerDeploymentClient") {
		t.Errorf("Unimplemented became %T %v", unimplemented, unimplemented)
	}
	disabled := explainVersioningRefusal(serviceerror.NewPermissionDenied("Worker versioning v0.1 (Version Set-based, deprecated) is disabled on this namespace.", "r"), "GetWorkerBuildIdCompatibility", buildIDVersionSetsAPI)
	var p *serviceerror.PermissionDenied
	if !errors.As(disabled, &p) || p.Reason != "r" || !strings.Contains(p.Message, "is disabled on this namespace.; build-ID versioning by version sets is deprecated and served only where the server's dynamic config turns on frontend.workerVersioningDataAPIs") {
		t.Errorf("PermissionDenied became %T %v", disabled, disabled)
	}
	for _, unchanged := range []error{nil, serviceerror.NewPermissionDenied("Request unauthorized.", ""), serviceerror.NewNotFound("x"), errors.New("network")} {
		if got := explainVersioningRefusal(unchanged, "call", buildIDRulesAPI); got != unchanged {
			t.Errorf("%v became %v", unchanged, got)
		}
	}
}
