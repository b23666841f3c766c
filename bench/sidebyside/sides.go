package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	oursclient "github.com/durable-go/sdk/client"
	ourslog "github.com/durable-go/sdk/log"
	oursworker "github.com/durable-go/sdk/worker"
	oursworkflow "github.com/durable-go/sdk/workflow"
	officialclient "go.temporal.io/sdk/client"
	officiallog "go.temporal.io/sdk/log"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
)

// The two sides. Each has the same three roles: a starter (the client the
// parent process uses to start, signal, describe and wait for workflows),
// a worker (run by a child process) and a replayer (also in a child).
const (
	sideOurs     = "ours"
	sideOfficial = "official"
)

// starter is what the parent process needs of an SDK's client.
type starter interface {
	// start starts workflowType with id on taskQueue.
	start(ctx context.Context, id, taskQueue, workflowType string, args ...any) (getter, error)
	signal(ctx context.Context, id, name string, arg any) error
	describe(ctx context.Context, id string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
	// operator is the client's operator service, where the nexus
	// workloads create their endpoints.
	operator() operatorservice.OperatorServiceClient
	// setCurrentVersion makes buildID the current version of the worker
	// deployment deploymentName.
	setCurrentVersion(ctx context.Context, deploymentName, buildID string) error
	close()
}

// getter waits for a started workflow's result: the WorkflowRun of both
// SDKs.
type getter interface {
	Get(ctx context.Context, valuePtr any) error
}

// worker is a started worker in a child process.
type worker interface{ stop() }

// engine is what a child process needs of an SDK.
type engine interface {
	// startWorker sets the sticky cache size, connects and starts a
	// worker on cfg.TaskQueue with the benchmark's workflows and activity;
	// with cfg.Metrics, its client records metrics in childMetrics; with
	// cfg.Nexus, it serves the nexus workloads' Nexus service too (only
	// then, so that the other workloads' workers run no Nexus pollers);
	// with cfg.Deployment, it is a versioned worker of that deployment
	// version.
	startWorker(cfg childConfig, logger *slog.Logger) (worker, error)
	// replayer returns a function that replays a history of workflowType.
	replayer(workflowType string) (func(*historypb.History) error, error)
}

func engineFor(side string) (engine, error) {
	switch side {
	case sideOurs:
		return oursEngine{}, nil
	case sideOfficial:
		return officialEngine{}, nil
	}
	return nil, fmt.Errorf("unknown side %q", side)
}

// quietLogger is what both SDKs log to: warnings and errors only, so that
// neither pays for per-task logging and SDK trouble still shows.
func quietLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// silent is the replayers' logger on both sides: replay measures replay,
// not log output.
type silent struct{}

func (silent) Debug(string, ...any) {}
func (silent) Info(string, ...any)  {}
func (silent) Warn(string, ...any)  {}
func (silent) Error(string, ...any) {}

var (
	_ ourslog.Logger     = silent{}
	_ officiallog.Logger = silent{}
)

// ---------------------------------------------------------------------------
// github.com/durable-go/sdk

type oursStarter struct{ c oursclient.Client }

func newOursStarter(hostPort, namespace string, logger *slog.Logger) (starter, error) {
	c, err := oursclient.Dial(oursclient.Options{HostPort: hostPort, Namespace: namespace, Logger: ourslog.NewStructuredLogger(logger)})
	if err != nil {
		return nil, err
	}
	return oursStarter{c}, nil
}

func (s oursStarter) start(ctx context.Context, id, taskQueue, workflowType string, args ...any) (getter, error) {
	return s.c.ExecuteWorkflow(ctx, oursclient.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, workflowType, args...)
}

func (s oursStarter) signal(ctx context.Context, id, name string, arg any) error {
	return s.c.SignalWorkflow(ctx, id, "", name, arg)
}

func (s oursStarter) describe(ctx context.Context, id string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	return s.c.DescribeWorkflowExecution(ctx, id, "")
}

func (s oursStarter) setCurrentVersion(ctx context.Context, deploymentName, buildID string) error {
	_, err := s.c.WorkerDeploymentClient().GetHandle(deploymentName).SetCurrentVersion(ctx, oursclient.WorkerDeploymentSetCurrentVersionOptions{BuildID: buildID})
	return err
}

func (s oursStarter) operator() operatorservice.OperatorServiceClient { return s.c.OperatorService() }

func (s oursStarter) close() { s.c.Close() }

type oursEngine struct{}

type oursWorker struct {
	c oursclient.Client
	w oursworker.Worker
}

func (w oursWorker) stop() {
	w.w.Stop()
	w.c.Close()
}

func (oursEngine) startWorker(cfg childConfig, logger *slog.Logger) (worker, error) {
	oursworker.SetStickyWorkflowCacheSize(cfg.CacheSize)
	opts := oursclient.Options{HostPort: cfg.HostPort, Namespace: cfg.Namespace, Logger: ourslog.NewStructuredLogger(logger)}
	if cfg.Metrics {
		opts.MetricsHandler = oursMetrics{scope{reg: childMetrics}}
	}
	c, err := oursclient.Dial(opts)
	if err != nil {
		return nil, err
	}
	var wopts oursworker.Options
	if d := cfg.Deployment; d != nil {
		wopts.DeploymentOptions = oursworker.DeploymentOptions{
			UseVersioning:             true,
			Version:                   oursworker.WorkerDeploymentVersion{DeploymentName: d.Name, BuildID: d.BuildID},
			DefaultVersioningBehavior: oursworkflow.VersioningBehaviorPinned,
		}
		if d.AutoUpgrade {
			wopts.DeploymentOptions.DefaultVersioningBehavior = oursworkflow.VersioningBehaviorAutoUpgrade
		}
	}
	w := oursworker.New(c, cfg.TaskQueue, wopts)
	w.RegisterWorkflowWithOptions(sequentialOurs, oursworkflow.RegisterOptions{Name: sequentialName})
	w.RegisterWorkflowWithOptions(typedSequentialOurs, oursworkflow.RegisterOptions{Name: typedSequentialName})
	w.RegisterWorkflowWithOptions(waitSignalOurs, oursworkflow.RegisterOptions{Name: waitSignalName})
	w.RegisterWorkflowWithOptions(localActivitiesOurs, oursworkflow.RegisterOptions{Name: localActivitiesName})
	w.RegisterWorkflowWithOptions(nexusCallerOurs, oursworkflow.RegisterOptions{Name: nexusCallerName})
	w.RegisterWorkflowWithOptions(nexusIncrementOurs, oursworkflow.RegisterOptions{Name: nexusHandlerName})
	if cfg.Nexus {
		w.RegisterNexusService(nexusServiceOurs())
	}
	w.RegisterActivity(Increment)
	if err := w.Start(); err != nil {
		c.Close()
		return nil, err
	}
	return oursWorker{c, w}, nil
}

func (oursEngine) replayer(workflowType string) (func(*historypb.History) error, error) {
	var wf any
	switch workflowType {
	case sequentialName:
		wf = sequentialOurs
	case pingPongName:
		wf = pingPongOurs
	default:
		return nil, fmt.Errorf("no workflow %q to replay", workflowType)
	}
	r := oursworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf, oursworkflow.RegisterOptions{Name: workflowType})
	return func(h *historypb.History) error { return r.ReplayWorkflowHistory(silent{}, h) }, nil
}

// ---------------------------------------------------------------------------
// go.temporal.io/sdk

type officialStarter struct{ c officialclient.Client }

func newOfficialStarter(hostPort, namespace string, logger *slog.Logger) (starter, error) {
	c, err := officialclient.Dial(officialclient.Options{HostPort: hostPort, Namespace: namespace, Logger: officiallog.NewStructuredLogger(logger)})
	if err != nil {
		return nil, err
	}
	return officialStarter{c}, nil
}

func (s officialStarter) start(ctx context.Context, id, taskQueue, workflowType string, args ...any) (getter, error) {
	return s.c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, workflowType, args...)
}

func (s officialStarter) signal(ctx context.Context, id, name string, arg any) error {
	return s.c.SignalWorkflow(ctx, id, "", name, arg)
}

func (s officialStarter) describe(ctx context.Context, id string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	return s.c.DescribeWorkflowExecution(ctx, id, "")
}

func (s officialStarter) setCurrentVersion(ctx context.Context, deploymentName, buildID string) error {
	_, err := s.c.WorkerDeploymentClient().GetHandle(deploymentName).SetCurrentVersion(ctx, officialclient.WorkerDeploymentSetCurrentVersionOptions{BuildID: buildID})
	return err
}

func (s officialStarter) operator() operatorservice.OperatorServiceClient {
	return s.c.OperatorService()
}

func (s officialStarter) close() { s.c.Close() }

type officialEngine struct{}

type officialWorker struct {
	c officialclient.Client
	w officialworker.Worker
}

func (w officialWorker) stop() {
	w.w.Stop()
	w.c.Close()
}

func (officialEngine) startWorker(cfg childConfig, logger *slog.Logger) (worker, error) {
	officialworker.SetStickyWorkflowCacheSize(cfg.CacheSize)
	opts := officialclient.Options{HostPort: cfg.HostPort, Namespace: cfg.Namespace, Logger: officiallog.NewStructuredLogger(logger)}
	if cfg.Metrics {
		opts.MetricsHandler = officialMetrics{scope{reg: childMetrics}}
	}
	c, err := officialclient.Dial(opts)
	if err != nil {
		return nil, err
	}
	var wopts officialworker.Options
	if d := cfg.Deployment; d != nil {
		wopts.DeploymentOptions = officialworker.DeploymentOptions{
			UseVersioning:             true,
			Version:                   officialworker.WorkerDeploymentVersion{DeploymentName: d.Name, BuildID: d.BuildID},
			DefaultVersioningBehavior: officialworkflow.VersioningBehaviorPinned,
		}
		if d.AutoUpgrade {
			wopts.DeploymentOptions.DefaultVersioningBehavior = officialworkflow.VersioningBehaviorAutoUpgrade
		}
	}
	w := officialworker.New(c, cfg.TaskQueue, wopts)
	w.RegisterWorkflowWithOptions(sequentialOfficial, officialworkflow.RegisterOptions{Name: sequentialName})
	// The official SDK has no typed API: the typed workload's workflow is
	// its plain one.
	w.RegisterWorkflowWithOptions(sequentialOfficial, officialworkflow.RegisterOptions{Name: typedSequentialName})
	w.RegisterWorkflowWithOptions(waitSignalOfficial, officialworkflow.RegisterOptions{Name: waitSignalName})
	w.RegisterWorkflowWithOptions(localActivitiesOfficial, officialworkflow.RegisterOptions{Name: localActivitiesName})
	w.RegisterWorkflowWithOptions(nexusCallerOfficial, officialworkflow.RegisterOptions{Name: nexusCallerName})
	w.RegisterWorkflowWithOptions(nexusIncrementOfficial, officialworkflow.RegisterOptions{Name: nexusHandlerName})
	if cfg.Nexus {
		w.RegisterNexusService(nexusServiceOfficial())
	}
	w.RegisterActivity(Increment)
	if err := w.Start(); err != nil {
		c.Close()
		return nil, err
	}
	return officialWorker{c, w}, nil
}

func (officialEngine) replayer(workflowType string) (func(*historypb.History) error, error) {
	var wf any
	switch workflowType {
	case sequentialName:
		wf = sequentialOfficial
	case pingPongName:
		wf = pingPongOfficial
	default:
		return nil, fmt.Errorf("no workflow %q to replay", workflowType)
	}
	r := officialworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf, officialworkflow.RegisterOptions{Name: workflowType})
	return func(h *historypb.History) error { return r.ReplayWorkflowHistory(silent{}, h) }, nil
}
