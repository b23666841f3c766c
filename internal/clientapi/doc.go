// Package clientapi declares the client's API types: the Client and
// NamespaceClient interfaces, the client interceptors
// (ClientOutboundInterceptor, its base, and the input and output of each
// hook: interceptor*.go), the options and answers of each operation
// (StartWorkflowOptions, WorkflowRun, the update handles, workflow
// descriptions, task-queue descriptions, execution options and
// VersioningOverride), ScheduleClient and the schedule types,
// WorkerDeploymentClient and the worker deployment types (deployment.go),
// the deprecated build-ID versioning types (buildid.go, versioning_rules.go)
// and DeploymentClient's (deployment_series.go), the connection's options
// and Credentials, and WorkflowExecution and WorkflowType, the
// identifiers of a run that the workflow side shares.
//
// They are a package of their own, below package internal, because they
// name nothing of it while much names them: the root's interceptors,
// plugins, worker and activity API, the client's implementation
// (internal/clientimpl), the test environment and the public facades,
// which alias them from here. What names the root's own types stays
// there: ClientOptions (its interceptors and plugins), ClientInterceptor
// (an interceptor may be a worker's too), the plugin interfaces, and HeadersProvider and TrafficController, whose
// signatures in go.temporal.io/sdk say internal; internal.Client is an
// alias of Client for the same reason.
package clientapi
