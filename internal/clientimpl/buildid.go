package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// The build-ID versioning calls: version sets and task reachability here,
// versioning rules in versioning_rules.go, deployment series in
// deployment_series.go. None goes through the interceptor chain: the
// official interceptors have no hook for them.

// UpdateWorkerBuildIdCompatibility implements Client.
func (c *workflowClient) UpdateWorkerBuildIdCompatibility(ctx context.Context, options *clientapi.UpdateWorkerBuildIdCompatibilityOptions) error {
	const call = "UpdateWorkerBuildIdCompatibility"
	request, err := buildIDCompatibilityUpdateToProto(options)
	if err != nil {
		return fmt.Errorf("%s: %w", call, err)
	}
	request.Namespace = c.namespace
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err = c.service.UpdateWorkerBuildIdCompatibility(ctx, request)
	return explainVersioningRefusal(wrapCallError(err, "%s on task queue %q", call, options.TaskQueue), call, buildIDVersionSetsAPI)
}

// GetWorkerBuildIdCompatibility implements Client.
func (c *workflowClient) GetWorkerBuildIdCompatibility(ctx context.Context, options *clientapi.GetWorkerBuildIdCompatibilityOptions) (*clientapi.WorkerBuildIDVersionSets, error) {
	const call = "GetWorkerBuildIdCompatibility"
	if options == nil {
		return nil, errors.New(call + ": the options are nil: pass a *GetWorkerBuildIdCompatibilityOptions naming the task queue")
	}
	if options.TaskQueue == "" {
		return nil, errors.New(call + ": GetWorkerBuildIdCompatibilityOptions.TaskQueue is empty: name the task queue whose version sets to read")
	}
	if options.MaxSets < 0 {
		return nil, fmt.Errorf("%s: GetWorkerBuildIdCompatibilityOptions.MaxSets is %d: it must be 0 (all sets) or more", call, options.MaxSets)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.GetWorkerBuildIdCompatibility(ctx, &workflowservice.GetWorkerBuildIdCompatibilityRequest{
		Namespace: c.namespace,
		TaskQueue: options.TaskQueue,
		MaxSets:   int32(options.MaxSets),
	})
	if err != nil {
		return nil, explainVersioningRefusal(wrapCallError(err, "%s on task queue %q", call, options.TaskQueue), call, buildIDVersionSetsAPI)
	}
	return versionSetsFromProto(resp.GetMajorVersionSets()), nil
}

// GetWorkerTaskReachability implements Client.
func (c *workflowClient) GetWorkerTaskReachability(ctx context.Context, options *clientapi.GetWorkerTaskReachabilityOptions) (*clientapi.WorkerTaskReachability, error) {
	const call = "GetWorkerTaskReachability"
	if options == nil {
		return nil, errors.New(call + ": the options are nil: pass a *GetWorkerTaskReachabilityOptions naming the build IDs")
	}
	if len(options.BuildIDs) == 0 {
		return nil, errors.New(call + ": GetWorkerTaskReachabilityOptions.BuildIDs is empty: name at least one build ID (UnversionedBuildID for workers without one)")
	}
	reachability, err := taskReachabilityToProto(options.Reachability)
	if err != nil {
		return nil, fmt.Errorf("%s: GetWorkerTaskReachabilityOptions.Reachability: %w", call, err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.GetWorkerTaskReachability(ctx, &workflowservice.GetWorkerTaskReachabilityRequest{
		Namespace:    c.namespace,
		BuildIds:     options.BuildIDs,
		TaskQueues:   options.TaskQueues,
		Reachability: reachability,
	})
	if err != nil {
		return nil, explainVersioningRefusal(wrapCallError(err, "%s of build IDs %q", call, options.BuildIDs), call, buildIDVersionSetsAPI)
	}
	return &clientapi.WorkerTaskReachability{BuildIDReachability: buildIDReachabilityFromProto(resp.GetBuildIdReachability())}, nil
}

// buildIDCompatibilityUpdateToProto checks options and turns them into a
// request, without its namespace.
func buildIDCompatibilityUpdateToProto(options *clientapi.UpdateWorkerBuildIdCompatibilityOptions) (*workflowservice.UpdateWorkerBuildIdCompatibilityRequest, error) {
	if options == nil {
		return nil, errors.New("the options are nil: pass a *UpdateWorkerBuildIdCompatibilityOptions with a TaskQueue and an Operation")
	}
	if options.TaskQueue == "" {
		return nil, errors.New("UpdateWorkerBuildIdCompatibilityOptions.TaskQueue is empty: name the task queue whose version sets change")
	}
	if options.Operation == nil || reflect.ValueOf(options.Operation).IsNil() {
		return nil, errors.New("UpdateWorkerBuildIdCompatibilityOptions.Operation is nil: set it to a *BuildIDOpAddNewIDInNewDefaultSet, *BuildIDOpAddNewCompatibleVersion, *BuildIDOpPromoteSet or *BuildIDOpPromoteIDWithinSet")
	}
	request := &workflowservice.UpdateWorkerBuildIdCompatibilityRequest{TaskQueue: options.TaskQueue}
	var buildID string
	switch op := options.Operation.(type) {
	case *clientapi.BuildIDOpAddNewIDInNewDefaultSet:
		buildID = op.BuildID
		request.Operation = &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewBuildIdInNewDefaultSet{AddNewBuildIdInNewDefaultSet: op.BuildID}
	case *clientapi.BuildIDOpAddNewCompatibleVersion:
		buildID = op.BuildID
		if op.ExistingCompatibleBuildID == "" {
			return nil, errors.New("BuildIDOpAddNewCompatibleVersion.ExistingCompatibleBuildID is empty: name a build ID of the set to add to")
		}
		request.Operation = &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewCompatibleBuildId{
			AddNewCompatibleBuildId: &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_AddNewCompatibleVersion{
				NewBuildId:                op.BuildID,
				ExistingCompatibleBuildId: op.ExistingCompatibleBuildID,
				MakeSetDefault:            op.MakeSetDefault,
			},
		}
	case *clientapi.BuildIDOpPromoteSet:
		buildID = op.BuildID
		request.Operation = &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_PromoteSetByBuildId{PromoteSetByBuildId: op.BuildID}
	case *clientapi.BuildIDOpPromoteIDWithinSet:
		buildID = op.BuildID
		request.Operation = &workflowservice.UpdateWorkerBuildIdCompatibilityRequest_PromoteBuildIdWithinSet{PromoteBuildIdWithinSet: op.BuildID}
	}
	if buildID == "" {
		return nil, fmt.Errorf("the operation %T has no BuildID: name the build ID it applies to", options.Operation)
	}
	return request, nil
}

func versionSetsFromProto(sets []*taskqueuepb.CompatibleVersionSet) *clientapi.WorkerBuildIDVersionSets {
	result := &clientapi.WorkerBuildIDVersionSets{}
	if sets != nil {
		result.Sets = make([]*clientapi.CompatibleVersionSet, len(sets))
		for i, set := range sets {
			result.Sets[i] = &clientapi.CompatibleVersionSet{BuildIDs: set.GetBuildIds()}
		}
	}
	return result
}

// buildIDReachabilityFromProto reads the answer of
// GetWorkerTaskReachability. A task queue whose only reachability is
// unspecified is one the server did not look at (over its limit of task
// queues per query): it goes to UnretrievedTaskQueues.
func buildIDReachabilityFromProto(entries []*taskqueuepb.BuildIdReachability) map[string]*clientapi.BuildIDReachability {
	if entries == nil {
		return nil
	}
	result := make(map[string]*clientapi.BuildIDReachability, len(entries))
	for _, entry := range entries {
		byTaskQueue := entry.GetTaskQueueReachability()
		reachability := &clientapi.BuildIDReachability{}
		if byTaskQueue != nil {
			reachability.TaskQueueReachable = make(map[string]*clientapi.TaskQueueReachability, len(byTaskQueue))
			reachability.UnretrievedTaskQueues = make([]string, 0, len(byTaskQueue))
		}
		for _, tq := range byTaskQueue {
			kinds := tq.GetReachability()
			if len(kinds) == 1 && kinds[0] == enumspb.TASK_REACHABILITY_UNSPECIFIED {
				reachability.UnretrievedTaskQueues = append(reachability.UnretrievedTaskQueues, tq.GetTaskQueue())
				continue
			}
			converted := make([]clientapi.TaskReachability, len(kinds))
			for i, kind := range kinds {
				converted[i] = clientapi.TaskReachability(kind)
			}
			reachability.TaskQueueReachable[tq.GetTaskQueue()] = &clientapi.TaskQueueReachability{TaskQueueReachability: converted}
		}
		result[entry.GetBuildId()] = reachability
	}
	return result
}

func taskReachabilityToProto(r clientapi.TaskReachability) (enumspb.TaskReachability, error) {
	switch r {
	case clientapi.TaskReachabilityUnspecified, clientapi.TaskReachabilityNewWorkflows, clientapi.TaskReachabilityExistingWorkflows,
		clientapi.TaskReachabilityOpenWorkflows, clientapi.TaskReachabilityClosedWorkflows:
		return enumspb.TaskReachability(r), nil
	}
	return 0, fmt.Errorf("%d is not a TaskReachability: use one of the TaskReachability constants", r)
}

// versioningAPI names a deprecated versioning API in the errors of
// explainVersioningRefusal.
type versioningAPI struct {
	name string
	// setting is the server's dynamic config key that turns it on.
	setting string
}

var (
	buildIDVersionSetsAPI = versioningAPI{"build-ID versioning by version sets", "frontend.workerVersioningDataAPIs"}
	buildIDRulesAPI       = versioningAPI{"build-ID versioning by rules", "frontend.workerVersioningRuleAPIs"}
	deploymentSeriesAPI   = versioningAPI{"the deployment-series API (DeploymentClient)", "system.enableDeployments"}
)

// explainVersioningRefusal adds to a server's refusal of a deprecated
// versioning call what the caller needs to know: that the API is
// deprecated, and what replaces it. The error keeps its serviceerror type
// (code ported from go.temporal.io/sdk type-asserts it) and the server's
// message; other errors pass unchanged. A PermissionDenied is explained
// only when the server says it is about versioning (servers answer so
// when the namespace has the API turned off), not when it is about
// authorization.
func explainVersioningRefusal(err error, call string, api versioningAPI) error {
	const replacement = "Worker Deployment Versioning replaces it (worker.DeploymentOptions, client.WorkerDeploymentClient)"
	switch refusal := err.(type) {
	case *serviceerror.Unimplemented:
		return serviceerror.NewUnimplemented(fmt.Sprintf("%s: the server does not serve it: %s; %s is deprecated: %s",
			call, refusal.Message, api.name, replacement))
	case *serviceerror.PermissionDenied:
		if !strings.Contains(strings.ToLower(refusal.Message), "versioning") {
			return err
		}
		return serviceerror.NewPermissionDenied(fmt.Sprintf("%s: the server refused: %s; %s is deprecated and served only where the server's dynamic config turns on %s: %s",
			call, refusal.Message, api.name, api.setting, replacement), refusal.Reason)
	}
	return err
}
