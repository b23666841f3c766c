package cli

import (
	"net"
	"strconv"
)

// DynamicConfig is the dynamic configuration the server starts with. It
// turns on what the newest SDK features need and the
// official SDK's own integration tests turn on: updates and
// update-with-start, worker versioning (deployments and the older build-ID
// APIs), eager starts and activities, the activity operations API,
// standalone activities with their operator commands (pause, unpause,
// reset, update options), Nexus with its callbacks to this server's HTTP
// port, signal-with-start from workflows (a Nexus operation of the
// server's own endpoint), and polls cancelled at worker shutdown. Values
// on the command line win.
func DynamicConfig(o Options) map[string]any {
	callbackHost := net.JoinHostPort(o.IP, strconv.Itoa(o.HTTPPort))
	allowAnyCallback := []any{map[string]any{"Pattern": "*", "AllowInsecure": true}}
	values := map[string]any{
		"frontend.enableUpdateWorkflowExecution":                        true,
		"frontend.enableUpdateWorkflowExecutionAsyncAccepted":           true,
		"frontend.workerVersioningRuleAPIs":                             true,
		"frontend.workerVersioningDataAPIs":                             true,
		"frontend.workerVersioningWorkflowAPIs":                         true,
		"system.enableDeployments":                                      true,
		"system.enableDeploymentVersions":                               true,
		"matching.wv.VersionDrainageStatusVisibilityGracePeriod":        "10s",
		"matching.wv.VersionDrainageStatusRefreshInterval":              "1s",
		"worker.buildIdScavengerEnabled":                                true,
		"system.enableActivityEagerExecution":                           true,
		"system.enableEagerWorkflowStart":                               true,
		"system.forceSearchAttributesCacheRefreshOnRead":                true,
		"activity.enableCallbacks":                                      true,
		"history.enableStandaloneActivityOperatorCommands":              true,
		"nexusoperation.enableStandalone":                               true,
		"history.enableUpdateCallbacks":                                 true,
		"history.enableSignalWithStartFromWorkflow":                     true,
		"frontend.enableCancelWorkerPollsOnShutdown":                    true,
		"frontend.ListWorkersEnabled":                                   true,
		"system.refreshNexusEndpointsMinWait":                           "0s",
		"component.nexusoperations.recordCancelRequestCompletionEvents": true,
		"component.nexusoperations.callback.endpoint.template":          "http://" + callbackHost + "/namespaces/{{.NamespaceName}}/nexus/callback",
		"callback.allowedAddresses":                                     allowAnyCallback,
		// A smaller cache of workflows' state than a production
		// server's 128,000, as the Temporal CLI's dev server keeps.
		"history.hostLevelCacheMaxSize":    8096,
		"frontend.namespaceRPS.visibility": 100,
	}
	for key, v := range o.DynamicConfig {
		values[key] = v
	}
	return values
}
