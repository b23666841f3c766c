package workerimpl

import (
	"fmt"
	"sync"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/binarychecksum"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/workerrt"
)

// versioningBehaviorProto is b as the API says it.
func versioningBehaviorProto(b internal.VersioningBehavior) enumspb.VersioningBehavior {
	switch b {
	case internal.VersioningBehaviorPinned:
		return enumspb.VERSIONING_BEHAVIOR_PINNED
	case internal.VersioningBehaviorAutoUpgrade:
		return enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE
	}
	return enumspb.VERSIONING_BEHAVIOR_UNSPECIFIED
}

// workerVersioning is what a worker knows of its own version: the
// options' settings, and the versioning behavior each workflow type was
// registered with.
type workerVersioning struct {
	// versioned: the worker takes part in versioning (UseVersioning, or
	// the deprecated UseBuildIDForVersioning).
	versioned bool
	options   internal.WorkerDeploymentOptions
	// buildID is the worker's build ID: its version's, else
	// WorkerOptions.BuildID, else the binary checksum (go.temporal.io/sdk
	// sends that one too).
	buildID string

	mu sync.Mutex
	// behaviors are the behaviors of the types registered by name;
	// aliases map the function name of a function registered under
	// another name to that name (nil: aliasing off); loadDynamic is the
	// dynamic workflow's LoadDynamicRuntimeOptions.
	behaviors   map[string]internal.VersioningBehavior
	aliases     map[string]string
	loadDynamic func(internal.LoadDynamicRuntimeOptionsDetails) (internal.DynamicRuntimeWorkflowOptions, error)
}

// newWorkerVersioning checks a worker's versioning options, and panics, as
// go.temporal.io/sdk's worker.New does, when they contradict each other.
func newWorkerVersioning(taskQueue string, o internal.WorkerOptions) *workerVersioning {
	if o.DeploymentOptions.DefaultVersioningBehavior != internal.VersioningBehaviorUnspecified && !o.DeploymentOptions.UseVersioning {
		panic(fmt.Sprintf("worker.New for task queue %q: DeploymentOptions.DefaultVersioningBehavior is set but DeploymentOptions.UseVersioning is not; set UseVersioning (with a Version) to run a versioned worker, or leave the default behavior unset", taskQueue))
	}
	if o.EnableSessionWorker && o.UseBuildIDForVersioning {
		panic(fmt.Sprintf("worker.New for task queue %q: EnableSessionWorker and UseBuildIDForVersioning cannot both be set: sessions do not work with build-ID versioning", taskQueue))
	}
	v := &workerVersioning{
		versioned: o.UseBuildIDForVersioning || o.DeploymentOptions.UseVersioning,
		options:   o.DeploymentOptions,
		buildID:   o.BuildID,
		behaviors: map[string]internal.VersioningBehavior{},
		aliases:   map[string]string{},
	}
	if o.DeploymentOptions.Version != (clientapi.WorkerDeploymentVersion{}) {
		v.buildID = o.DeploymentOptions.Version.BuildID
	}
	if v.buildID == "" {
		v.buildID = binarychecksum.Get()
	}
	if o.DisableRegistrationAliasing {
		v.aliases = nil
	}
	return v
}

// hasVersion: the worker names a deployment version.
func (v *workerVersioning) hasVersion() bool {
	return v.options.Version != clientapi.WorkerDeploymentVersion{}
}

// needsBehavior: every workflow type must have a versioning behavior,
// its own or the worker's default.
func (v *workerVersioning) needsBehavior() bool {
	return v.versioned && v.hasVersion() && v.options.DefaultVersioningBehavior == internal.VersioningBehaviorUnspecified
}

// checkBehavior panics, as go.temporal.io/sdk does, when a workflow is
// registered without a versioning behavior on a worker that needs one and
// has no default.
func (v *workerVersioning) checkBehavior(taskQueue string, fn any, options internal.RegisterWorkflowOptions) {
	if options.VersioningBehavior == internal.VersioningBehaviorUnspecified && v.needsBehavior() {
		panic(fmt.Sprintf("worker for task queue %q: workflow %q is registered without a versioning behavior, and the worker, versioned as deployment %q build %q, has no default: set RegisterOptions.VersioningBehavior (workflow.VersioningBehaviorPinned or VersioningBehaviorAutoUpgrade), or DeploymentOptions.DefaultVersioningBehavior",
			taskQueue, registeredName(options.Name, fn), v.options.Version.DeploymentName, v.options.Version.BuildID))
	}
}

// register records the behavior of a workflow registered as options.Name
// (the function's name when empty).
func (v *workerVersioning) register(fn any, options internal.RegisterWorkflowOptions) {
	name := registeredName(options.Name, fn)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.behaviors[name] = options.VersioningBehavior
	if funcName := registry.FunctionName(fn); funcName != name && v.aliases != nil {
		v.aliases[funcName] = name
	}
}

// checkDynamicBehavior is checkBehavior for the dynamic workflow, which
// gives its types' behaviors with LoadDynamicRuntimeOptions.
func (v *workerVersioning) checkDynamicBehavior(taskQueue string, options internal.DynamicRegisterWorkflowOptions) {
	if options.LoadDynamicRuntimeOptions == nil && v.needsBehavior() {
		panic(fmt.Sprintf("worker for task queue %q: the dynamic workflow is registered without LoadDynamicRuntimeOptions, and the worker, versioned as deployment %q build %q, has no default versioning behavior: set DynamicRegisterOptions.LoadDynamicRuntimeOptions to give each type its behavior, or DeploymentOptions.DefaultVersioningBehavior",
			taskQueue, v.options.Version.DeploymentName, v.options.Version.BuildID))
	}
}

// registerDynamic records the dynamic workflow's behavior loader.
func (v *workerVersioning) registerDynamic(options internal.DynamicRegisterWorkflowOptions) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.loadDynamic = options.LoadDynamicRuntimeOptions
}

// behaviorOf is the versioning behavior a task of workflowType reports
// on completion: the type's own, else the dynamic workflow's answer for
// it (an error from LoadDynamicRuntimeOptions falls back), else the
// worker's default, as in go.temporal.io/sdk.
func (v *workerVersioning) behaviorOf(workflowType string) enumspb.VersioningBehavior {
	v.mu.Lock()
	name := workflowType
	if alias, ok := v.aliases[name]; ok {
		name = alias
	}
	behavior, registered := v.behaviors[name]
	load := v.loadDynamic
	v.mu.Unlock()
	switch {
	case registered && behavior != internal.VersioningBehaviorUnspecified:
		return versioningBehaviorProto(behavior)
	case !registered && load != nil:
		if o, err := load(internal.LoadDynamicRuntimeOptionsDetails{WorkflowType: clientapi.WorkflowType{Name: workflowType}}); err == nil {
			return versioningBehaviorProto(o.VersioningBehavior)
		}
	}
	return versioningBehaviorProto(v.options.DefaultVersioningBehavior)
}

// runtime is what the worker runtime sends of the version; a session's
// resource-specific queue is polled unversioned (sessionQueue), as in
// go.temporal.io/sdk: its tasks go to this worker whatever its version.
func (v *workerVersioning) runtime(sessionQueue bool) workerrt.Versioning {
	rt := workerrt.Versioning{BuildID: v.buildID, UseVersioning: v.versioned && !sessionQueue,
		DeploymentName: v.options.Version.DeploymentName}
	if v.hasVersion() {
		rt.Version = &workerrt.DeploymentVersion{DeploymentName: v.options.Version.DeploymentName, BuildID: v.options.Version.BuildID}
	}
	if v.versioned || v.hasVersion() {
		rt.BehaviorOf = v.behaviorOf
	}
	return rt
}

// registeredName is the name a workflow is registered under.
func registeredName(name string, fn any) string {
	if name != "" {
		return name
	}
	return registry.FunctionName(fn)
}
