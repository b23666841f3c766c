//lint:file-ignore SA1019 the deprecated build-ID and deployment fields are still sent, as go.temporal.io/sdk sends them.

package workerrt

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// versionedService records every request that carries a worker's version.
type versionedService struct {
	*memoryService
	mu               sync.Mutex
	workflowPolls    []*workflowservice.PollWorkflowTaskQueueRequest
	activityPolls    []*workflowservice.PollActivityTaskQueueRequest
	completions      []*workflowservice.RespondWorkflowTaskCompletedRequest
	failures         []*workflowservice.RespondWorkflowTaskFailedRequest
	activityDone     []*workflowservice.RespondActivityTaskCompletedRequest
	activityFailed   []*workflowservice.RespondActivityTaskFailedRequest
	activityCanceled []*workflowservice.RespondActivityTaskCanceledRequest
}

func record[T any](s *versionedService, list *[]T, req T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*list = append(*list, req)
}

func (s *versionedService) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest, opts ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	record(s, &s.workflowPolls, req)
	return s.memoryService.PollWorkflowTaskQueue(ctx, req, opts...)
}

func (s *versionedService) PollActivityTaskQueue(ctx context.Context, req *workflowservice.PollActivityTaskQueueRequest, opts ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	record(s, &s.activityPolls, req)
	return s.memoryService.PollActivityTaskQueue(ctx, req, opts...)
}

func (s *versionedService) RespondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest, opts ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	record(s, &s.completions, req)
	return s.memoryService.RespondWorkflowTaskCompleted(ctx, req, opts...)
}

func (s *versionedService) RespondWorkflowTaskFailed(ctx context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest, opts ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	record(s, &s.failures, req)
	return s.memoryService.RespondWorkflowTaskFailed(ctx, req, opts...)
}

func (s *versionedService) RespondActivityTaskCompleted(ctx context.Context, req *workflowservice.RespondActivityTaskCompletedRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	record(s, &s.activityDone, req)
	return s.memoryService.RespondActivityTaskCompleted(ctx, req, opts...)
}

func (s *versionedService) RespondActivityTaskFailed(ctx context.Context, req *workflowservice.RespondActivityTaskFailedRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	record(s, &s.activityFailed, req)
	return s.memoryService.RespondActivityTaskFailed(ctx, req, opts...)
}

func (s *versionedService) RespondActivityTaskCanceled(_ context.Context, req *workflowservice.RespondActivityTaskCanceledRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	record(s, &s.activityCanceled, req)
	return &workflowservice.RespondActivityTaskCanceledResponse{}, nil
}

// wantVersion is what one case expects every request to carry.
type wantVersion struct {
	capabilities *commonpb.WorkerVersionCapabilities
	stamp        *commonpb.WorkerVersionStamp
	deployment   *deploymentpb.Deployment
	options      *deploymentpb.WorkerDeploymentOptions
	behavior     enumspb.VersioningBehavior // of the "Loop" workflow's completion
}

// TestVersionGoesWithEveryPollAndReport drives a worker's polls, a
// workflow task that completes, one that fails, and activities that
// complete, fail and are canceled, and checks what each request says of
// the worker's version against what go.temporal.io/sdk v1.51 sends: the
// build-ID capabilities on polls; the version stamp, the deployment and
// the deployment options on every report; the workflow type's versioning
// behavior on a completion, only from a worker that is versioned or
// names a version.
func TestVersionGoesWithEveryPollAndReport(t *testing.T) {
	pinnedLoop := func(workflowType string) enumspb.VersioningBehavior {
		if workflowType == "Loop" {
			return enumspb.VERSIONING_BEHAVIOR_PINNED
		}
		return enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE
	}
	cases := []struct {
		name       string
		versioning Versioning
		want       wantVersion
	}{{
		name:       "versioned deployment worker",
		versioning: Versioning{BuildID: "b1", UseVersioning: true, DeploymentName: "orders", Version: &DeploymentVersion{DeploymentName: "orders", BuildID: "b1"}, BehaviorOf: pinnedLoop},
		want: wantVersion{
			capabilities: &commonpb.WorkerVersionCapabilities{BuildId: "b1", UseVersioning: true, DeploymentSeriesName: "orders"},
			stamp:        &commonpb.WorkerVersionStamp{BuildId: "b1", UseVersioning: true},
			deployment:   &deploymentpb.Deployment{BuildId: "b1", SeriesName: "orders"},
			options:      &deploymentpb.WorkerDeploymentOptions{DeploymentName: "orders", BuildId: "b1", WorkerVersioningMode: enumspb.WORKER_VERSIONING_MODE_VERSIONED},
			behavior:     enumspb.VERSIONING_BEHAVIOR_PINNED,
		},
	}, {
		name:       "unversioned worker naming its version",
		versioning: Versioning{BuildID: "b2", DeploymentName: "orders", Version: &DeploymentVersion{DeploymentName: "orders", BuildID: "b2"}, BehaviorOf: pinnedLoop},
		want: wantVersion{
			capabilities: &commonpb.WorkerVersionCapabilities{BuildId: "b2", DeploymentSeriesName: "orders"},
			stamp:        &commonpb.WorkerVersionStamp{BuildId: "b2"},
			deployment:   &deploymentpb.Deployment{BuildId: "b2", SeriesName: "orders"},
			options:      &deploymentpb.WorkerDeploymentOptions{DeploymentName: "orders", BuildId: "b2", WorkerVersioningMode: enumspb.WORKER_VERSIONING_MODE_UNVERSIONED},
			behavior:     enumspb.VERSIONING_BEHAVIOR_PINNED,
		},
	}, {
		name:       "build-ID versioned worker",
		versioning: Versioning{BuildID: "legacy-3", UseVersioning: true, BehaviorOf: pinnedLoop},
		want: wantVersion{
			capabilities: &commonpb.WorkerVersionCapabilities{BuildId: "legacy-3", UseVersioning: true},
			stamp:        &commonpb.WorkerVersionStamp{BuildId: "legacy-3", UseVersioning: true},
			deployment:   &deploymentpb.Deployment{BuildId: "legacy-3"},
			behavior:     enumspb.VERSIONING_BEHAVIOR_PINNED,
		},
	}, {
		name:       "plain worker",
		versioning: Versioning{BuildID: "checksum"},
		want: wantVersion{
			capabilities: &commonpb.WorkerVersionCapabilities{BuildId: "checksum"},
			stamp:        &commonpb.WorkerVersionStamp{BuildId: "checksum"},
			deployment:   &deploymentpb.Deployment{BuildId: "checksum"},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc := &versionedService{memoryService: &memoryService{}}
			activities := activityFunc(func(_ context.Context, a *ActivityTask) (*commonpb.Payloads, error) {
				switch a.Task.GetActivityId() {
				case "fails":
					return nil, errors.New("broken")
				case "canceled":
					return nil, context.Canceled
				}
				return nil, nil
			})
			w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
				FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
				Activities: activities, Versioning: c.versioning})
			if err != nil {
				t.Fatal(err)
			}
			w.workCtx = context.Background()
			if _, _, err := w.pollWorkflowTask(context.Background(), &taskqueuepb.TaskQueue{Name: "tq"}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.pollWorkflowTask(context.Background(), w.stickyTaskQueue()); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.pollActivityTask(context.Background()); err != nil {
				t.Fatal(err)
			}
			w.handleWorkflowTask(workflowTask("r1", "Loop", firstEvents("Loop")))
			w.handleWorkflowTask(workflowTask("r2", "Unknown", firstEvents("Unknown")))
			scheduled := time.Now()
			for _, id := range []string{"ok", "fails"} {
				w.handleActivityTask(activityTask(id, scheduled))
			}
			// A cancellation is reported as such only when the server
			// asked for it; the report itself is what is checked here.
			w.reportActivity(context.Background(), activityTask("canceled", scheduled), w.opts.FailureConverter, w.metrics.forActivity(activityTask("canceled", scheduled)), time.Now(), nil, context.Canceled, true)

			check := func(what string, got, want proto.Message) {
				t.Helper()
				if !proto.Equal(got, want) {
					t.Errorf("%s: got %v, want %v", what, got, want)
				}
			}
			if len(svc.workflowPolls) != 2 || len(svc.activityPolls) != 1 || len(svc.completions) != 1 || len(svc.failures) != 1 ||
				len(svc.activityDone) != 1 || len(svc.activityFailed) != 1 || len(svc.activityCanceled) != 1 {
				t.Fatalf("requests: %d workflow polls, %d activity polls, %d completions, %d failures, %d/%d/%d activity reports",
					len(svc.workflowPolls), len(svc.activityPolls), len(svc.completions), len(svc.failures), len(svc.activityDone), len(svc.activityFailed), len(svc.activityCanceled))
			}
			for _, p := range svc.workflowPolls {
				check("workflow poll ("+p.GetTaskQueue().GetKind().String()+") capabilities", p.GetWorkerVersionCapabilities(), c.want.capabilities)
				check("workflow poll deployment options", p.GetDeploymentOptions(), c.want.options)
			}
			check("activity poll capabilities", svc.activityPolls[0].GetWorkerVersionCapabilities(), c.want.capabilities)
			check("activity poll deployment options", svc.activityPolls[0].GetDeploymentOptions(), c.want.options)

			done := svc.completions[0]
			check("completion stamp", done.GetWorkerVersionStamp(), c.want.stamp)
			check("completion deployment", done.GetDeployment(), c.want.deployment)
			check("completion deployment options", done.GetDeploymentOptions(), c.want.options)
			if done.GetVersioningBehavior() != c.want.behavior {
				t.Errorf("completion versioning behavior %v, want %v", done.GetVersioningBehavior(), c.want.behavior)
			}
			failed := svc.failures[0]
			check("failure stamp", failed.GetWorkerVersion(), c.want.stamp)
			check("failure deployment", failed.GetDeployment(), c.want.deployment)
			check("failure deployment options", failed.GetDeploymentOptions(), c.want.options)
			for what, r := range map[string]interface {
				GetWorkerVersion() *commonpb.WorkerVersionStamp
				GetDeployment() *deploymentpb.Deployment
				GetDeploymentOptions() *deploymentpb.WorkerDeploymentOptions
			}{"activity completion": svc.activityDone[0], "activity failure": svc.activityFailed[0], "activity cancellation": svc.activityCanceled[0]} {
				check(what+" stamp", r.GetWorkerVersion(), c.want.stamp)
				check(what+" deployment", r.GetDeployment(), c.want.deployment)
				check(what+" deployment options", r.GetDeploymentOptions(), c.want.options)
			}
		})
	}
}
