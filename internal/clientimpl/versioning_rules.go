package clientimpl

import (
	"context"
	"errors"
	"fmt"

	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// UpdateWorkerVersioningRules implements Client.
func (c *workflowClient) UpdateWorkerVersioningRules(ctx context.Context, options clientapi.UpdateWorkerVersioningRulesOptions) (*clientapi.WorkerVersioningRules, error) {
	const call = "UpdateWorkerVersioningRules"
	request, err := versioningRulesUpdateToProto(options)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", call, err)
	}
	request.Namespace = c.namespace
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.UpdateWorkerVersioningRules(ctx, request)
	if err != nil {
		return nil, explainVersioningRefusal(wrapCallError(err, "%s on task queue %q", call, options.TaskQueue), call, buildIDRulesAPI)
	}
	return versioningRulesFromProto(resp.GetAssignmentRules(), resp.GetCompatibleRedirectRules(), resp.GetConflictToken()), nil
}

// GetWorkerVersioningRules implements Client.
func (c *workflowClient) GetWorkerVersioningRules(ctx context.Context, options clientapi.GetWorkerVersioningOptions) (*clientapi.WorkerVersioningRules, error) {
	const call = "GetWorkerVersioningRules"
	if options.TaskQueue == "" {
		return nil, errors.New(call + ": GetWorkerVersioningOptions.TaskQueue is empty: name the task queue whose rules to read")
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.GetWorkerVersioningRules(ctx, &workflowservice.GetWorkerVersioningRulesRequest{
		Namespace: c.namespace,
		TaskQueue: options.TaskQueue,
	})
	if err != nil {
		return nil, explainVersioningRefusal(wrapCallError(err, "%s on task queue %q", call, options.TaskQueue), call, buildIDRulesAPI)
	}
	return versioningRulesFromProto(resp.GetAssignmentRules(), resp.GetCompatibleRedirectRules(), resp.GetConflictToken()), nil
}

// versioningRulesUpdateToProto checks options and turns them into a
// request, without its namespace: one operation of the request's one-of.
func versioningRulesUpdateToProto(options clientapi.UpdateWorkerVersioningRulesOptions) (*workflowservice.UpdateWorkerVersioningRulesRequest, error) {
	if options.TaskQueue == "" {
		return nil, errors.New("UpdateWorkerVersioningRulesOptions.TaskQueue is empty: name the task queue whose rules change")
	}
	if err := clientapi.CheckVersioningOperation(options.Operation); err != nil {
		return nil, fmt.Errorf("UpdateWorkerVersioningRulesOptions.Operation: %w", err)
	}
	request := &workflowservice.UpdateWorkerVersioningRulesRequest{
		TaskQueue:     options.TaskQueue,
		ConflictToken: options.ConflictToken.Token(),
	}
	switch op := options.Operation.(type) {
	case *clientapi.VersioningOperationInsertAssignmentRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_InsertAssignmentRule{
			InsertAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_InsertBuildIdAssignmentRule{
				RuleIndex: op.RuleIndex,
				Rule:      assignmentRuleToProto(op.Rule),
			},
		}
	case *clientapi.VersioningOperationReplaceAssignmentRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceAssignmentRule{
			ReplaceAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceBuildIdAssignmentRule{
				RuleIndex: op.RuleIndex,
				Rule:      assignmentRuleToProto(op.Rule),
				Force:     op.Force,
			},
		}
	case *clientapi.VersioningOperationDeleteAssignmentRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteAssignmentRule{
			DeleteAssignmentRule: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteBuildIdAssignmentRule{
				RuleIndex: op.RuleIndex,
				Force:     op.Force,
			},
		}
	case *clientapi.VersioningOperationAddRedirectRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_AddCompatibleRedirectRule{
			AddCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_AddCompatibleBuildIdRedirectRule{
				Rule: redirectRuleToProto(op.Rule),
			},
		}
	case *clientapi.VersioningOperationReplaceRedirectRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceCompatibleRedirectRule{
			ReplaceCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_ReplaceCompatibleBuildIdRedirectRule{
				Rule: redirectRuleToProto(op.Rule),
			},
		}
	case *clientapi.VersioningOperationDeleteRedirectRule:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteCompatibleRedirectRule{
			DeleteCompatibleRedirectRule: &workflowservice.UpdateWorkerVersioningRulesRequest_DeleteCompatibleBuildIdRedirectRule{
				SourceBuildId: op.SourceBuildID,
			},
		}
	case *clientapi.VersioningOperationCommitBuildID:
		request.Operation = &workflowservice.UpdateWorkerVersioningRulesRequest_CommitBuildId_{
			CommitBuildId: &workflowservice.UpdateWorkerVersioningRulesRequest_CommitBuildId{
				TargetBuildId: op.TargetBuildID,
				Force:         op.Force,
			},
		}
	}
	return request, nil
}

func assignmentRuleToProto(rule clientapi.VersioningAssignmentRule) *taskqueuepb.BuildIdAssignmentRule {
	result := &taskqueuepb.BuildIdAssignmentRule{TargetBuildId: rule.TargetBuildID}
	if ramp, ok := rule.Ramp.(*clientapi.VersioningRampByPercentage); ok {
		result.Ramp = &taskqueuepb.BuildIdAssignmentRule_PercentageRamp{
			PercentageRamp: &taskqueuepb.RampByPercentage{RampPercentage: ramp.Percentage},
		}
	}
	return result
}

func redirectRuleToProto(rule clientapi.VersioningRedirectRule) *taskqueuepb.CompatibleBuildIdRedirectRule {
	return &taskqueuepb.CompatibleBuildIdRedirectRule{SourceBuildId: rule.SourceBuildID, TargetBuildId: rule.TargetBuildID}
}

// versioningRulesFromProto reads the rules both GetWorkerVersioningRules
// and UpdateWorkerVersioningRules answer with. A rule without a creation
// time keeps a zero CreateTime.
func versioningRulesFromProto(assignment []*taskqueuepb.TimestampedBuildIdAssignmentRule, redirect []*taskqueuepb.TimestampedCompatibleBuildIdRedirectRule, token []byte) *clientapi.WorkerVersioningRules {
	rules := &clientapi.WorkerVersioningRules{
		AssignmentRules: make([]*clientapi.VersioningAssignmentRuleWithTimestamp, len(assignment)),
		RedirectRules:   make([]*clientapi.VersioningRedirectRuleWithTimestamp, len(redirect)),
		ConflictToken:   clientapi.NewVersioningConflictToken(token),
	}
	for i, timestamped := range assignment {
		rule := timestamped.GetRule()
		if rule == nil {
			continue
		}
		converted := &clientapi.VersioningAssignmentRuleWithTimestamp{
			Rule:       clientapi.VersioningAssignmentRule{TargetBuildID: rule.GetTargetBuildId()},
			CreateTime: optionalTime(timestamped.GetCreateTime()),
		}
		if ramp := rule.GetPercentageRamp(); ramp != nil {
			converted.Rule.Ramp = &clientapi.VersioningRampByPercentage{Percentage: ramp.GetRampPercentage()}
		}
		rules.AssignmentRules[i] = converted
	}
	for i, timestamped := range redirect {
		rule := timestamped.GetRule()
		if rule == nil {
			continue
		}
		rules.RedirectRules[i] = &clientapi.VersioningRedirectRuleWithTimestamp{
			Rule:       clientapi.VersioningRedirectRule{SourceBuildID: rule.GetSourceBuildId(), TargetBuildID: rule.GetTargetBuildId()},
			CreateTime: optionalTime(timestamped.GetCreateTime()),
		}
	}
	return rules
}
