package client_test

//lint:file-ignore SA1019 the build-ID versioning API under test is deprecated.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal/testharness"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
)

// The deprecated build-ID versioning calls and DeploymentClient: what
// this SDK adds to go.temporal.io/sdk's behaviour. The calls themselves,
// run with both SDKs on the dev server, are compat/versioningapi's.

// TestBuildIDVersioningCallsCheckTheirArguments: bad arguments are
// refused before anything is sent (the client's server does not exist),
// with an error naming what is wrong.
func TestBuildIDVersioningCallsCheckTheirArguments(t *testing.T) {
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	dc := c.DeploymentClient()
	ramp := func(percentage float32) client.VersioningAssignmentRule {
		return client.VersioningAssignmentRule{TargetBuildID: "2.0", Ramp: &client.VersioningRampByPercentage{Percentage: percentage}}
	}
	deployment := client.Deployment{SeriesName: "orders", BuildID: "1.0"}
	for _, tc := range []struct {
		call func() error
		want string
	}{
		{func() error { return c.UpdateWorkerBuildIdCompatibility(ctx, nil) }, "UpdateWorkerBuildIdCompatibility: the options are nil"},
		{func() error {
			return c.UpdateWorkerBuildIdCompatibility(ctx, &client.UpdateWorkerBuildIdCompatibilityOptions{Operation: &client.BuildIDOpPromoteSet{BuildID: "1.0"}})
		}, "UpdateWorkerBuildIdCompatibilityOptions.TaskQueue is empty"},
		{func() error {
			return c.UpdateWorkerBuildIdCompatibility(ctx, &client.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq"})
		}, "UpdateWorkerBuildIdCompatibilityOptions.Operation is nil"},
		{func() error {
			return c.UpdateWorkerBuildIdCompatibility(ctx, &client.UpdateWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", Operation: &client.BuildIDOpAddNewIDInNewDefaultSet{}})
		}, "has no BuildID"},
		{func() error {
			_, err := c.GetWorkerBuildIdCompatibility(ctx, &client.GetWorkerBuildIdCompatibilityOptions{})
			return err
		}, "GetWorkerBuildIdCompatibilityOptions.TaskQueue is empty"},
		{func() error {
			_, err := c.GetWorkerBuildIdCompatibility(ctx, &client.GetWorkerBuildIdCompatibilityOptions{TaskQueue: "tq", MaxSets: -1})
			return err
		}, "MaxSets is -1"},
		{func() error {
			_, err := c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{TaskQueues: []string{"tq"}})
			return err
		}, "GetWorkerTaskReachabilityOptions.BuildIDs is empty"},
		{func() error {
			_, err := c.GetWorkerTaskReachability(ctx, &client.GetWorkerTaskReachabilityOptions{BuildIDs: []string{"1.0"}, Reachability: 7})
			return err
		}, "7 is not a TaskReachability"},
		{func() error {
			_, err := c.UpdateWorkerVersioningRules(ctx, client.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq"})
			return err
		}, "UpdateWorkerVersioningRulesOptions.Operation: no Operation"},
		{func() error {
			_, err := c.UpdateWorkerVersioningRules(ctx, client.UpdateWorkerVersioningRulesOptions{TaskQueue: "tq", Operation: &client.VersioningOperationInsertAssignmentRule{Rule: ramp(100)}})
			return err
		}, "Percentage is 100: it must be at least 0 and below 100"},
		{func() error {
			_, err := c.GetWorkerVersioningRules(ctx, client.GetWorkerVersioningOptions{})
			return err
		}, "GetWorkerVersioningOptions.TaskQueue is empty"},
		{func() error {
			_, err := dc.Describe(ctx, client.DeploymentDescribeOptions{Deployment: client.Deployment{BuildID: "1.0"}})
			return err
		}, "DeploymentClient.Describe: DeploymentDescribeOptions.Deployment.SeriesName is empty"},
		{func() error {
			_, err := dc.GetReachability(ctx, client.DeploymentGetReachabilityOptions{Deployment: client.Deployment{SeriesName: "orders"}})
			return err
		}, "DeploymentGetReachabilityOptions.Deployment.BuildID is empty"},
		{func() error {
			_, err := dc.GetCurrent(ctx, client.DeploymentGetCurrentOptions{})
			return err
		}, "DeploymentGetCurrentOptions.SeriesName is empty"},
		{func() error {
			_, err := dc.SetCurrent(ctx, client.DeploymentSetCurrentOptions{Deployment: deployment,
				MetadataUpdate: client.DeploymentMetadataUpdate{UpsertEntries: map[string]any{"callback": func() {}}}})
			return err
		}, `UpsertEntries["callback"]: the data converter cannot encode the func()`},
		{func() error {
			_, err := dc.List(ctx, client.DeploymentListOptions{PageSize: -5})
			return err
		}, "DeploymentListOptions.PageSize is -5"},
	} {
		err := tc.call()
		var fromServer serviceerror.ServiceError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &fromServer) {
			t.Errorf("got %v, want an error of the client saying %q", err, tc.want)
		}
	}
}

// TestDeprecatedVersioningRefusalsSayWhatReplacesThem: a server's refusal
// keeps its type and message, and says that the API is deprecated and
// what replaces it.
func TestDeprecatedVersioningRefusalsSayWhatReplacesThem(t *testing.T) {
	testharness.NeedsDevServer(t, "a server's refusals of the deprecated versioning calls")
	ctx := context.Background()
	// Servers from 1.28 on do not serve the deployment-series API.
	_, err := dial(t).DeploymentClient().GetCurrent(ctx, client.DeploymentGetCurrentOptions{SeriesName: "orders"})
	var unimplemented *serviceerror.Unimplemented
	if !errors.As(err, &unimplemented) ||
		!strings.HasPrefix(err.Error(), "DeploymentClient.GetCurrent: the server does not serve it: Deployments are deprecated and no longer supported, use Worker Deployments instead;") ||
		!strings.HasSuffix(err.Error(), "the deployment-series API (DeploymentClient) is deprecated: Worker Deployment Versioning replaces it (worker.DeploymentOptions, client.WorkerDeploymentClient)") {
		t.Errorf("GetCurrent: %T %v", err, err)
	}

	// A server with the build-ID APIs off (servers' default) refuses them.
	path, err := devserver.FindTestServer()
	if err != nil {
		t.Fatal(err)
	}
	off, err := devserver.Start(ctx, devserver.Options{ExistingPath: path, DynamicConfig: map[string]string{
		"frontend.workerVersioningDataAPIs": "false",
		"frontend.workerVersioningRuleAPIs": "false",
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = off.Stop() })
	c, err := client.Dial(client.Options{HostPort: off.HostPort()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := workflowID(t)
	_, setsErr := c.GetWorkerBuildIdCompatibility(ctx, &client.GetWorkerBuildIdCompatibilityOptions{TaskQueue: tq})
	_, rulesErr := c.GetWorkerVersioningRules(ctx, client.GetWorkerVersioningOptions{TaskQueue: tq})
	for _, tc := range []struct {
		err          error
		prefix, tail string
	}{
		{setsErr, "GetWorkerBuildIdCompatibility: the server refused: Worker versioning v0.1 (Version Set-based, deprecated) is disabled on this namespace.;",
			"build-ID versioning by version sets is deprecated and served only where the server's dynamic config turns on frontend.workerVersioningDataAPIs: Worker Deployment Versioning replaces it (worker.DeploymentOptions, client.WorkerDeploymentClient)"},
		{rulesErr, "GetWorkerVersioningRules: the server refused: Worker versioning v0.2 (Rules-based, deprecated) is disabled on this namespace.;",
			"build-ID versioning by rules is deprecated and served only where the server's dynamic config turns on frontend.workerVersioningRuleAPIs: Worker Deployment Versioning replaces it (worker.DeploymentOptions, client.WorkerDeploymentClient)"},
	} {
		var denied *serviceerror.PermissionDenied
		if !errors.As(tc.err, &denied) || !strings.HasPrefix(tc.err.Error(), tc.prefix) || !strings.HasSuffix(tc.err.Error(), tc.tail) {
			t.Errorf("got %T %v\nwant a *serviceerror.PermissionDenied %q ... %q", tc.err, tc.err, tc.prefix, tc.tail)
		}
	}
}
