package clientimpl

import (
	"context"
	"maps"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// requestMetricsInterceptors returns the interceptors that record the
// SDK's request metrics through handler: one per call, outside the
// retries (temporal_request, ...), and one per attempt (the same names
// with the _attempt suffix). There are none without a handler, so a
// client without one pays nothing.
func requestMetricsInterceptors(handler sdkmetrics.Handler, namespace string, disableStatusCodeTag bool) (perCall, perAttempt []grpc.UnaryClientInterceptor) {
	if sdkmetrics.IsNop(handler) {
		return nil, nil
	}
	handler = handler.WithTags(sdkmetrics.RootTags(namespace))
	perCall = []grpc.UnaryClientInterceptor{requestMetricsInterceptor(handler, "", disableStatusCodeTag)}
	perAttempt = []grpc.UnaryClientInterceptor{requestMetricsInterceptor(handler, sdkmetrics.AttemptSuffix, disableStatusCodeTag)}
	return perCall, perAttempt
}

// workflowRequestTags are the tags go.temporal.io/sdk gives the request
// metrics of a workflow's start and of the history polls of its run's
// Get: the workflow type and the task queue. Nil when the client records
// no metrics.
func (c *workflowClient) workflowRequestTags(workflowType, taskQueue string) map[string]string {
	if sdkmetrics.IsNop(c.metrics) {
		return nil
	}
	return map[string]string{sdkmetrics.TagWorkflowType: workflowType, sdkmetrics.TagTaskQueue: taskQueue}
}

// withRequestTags returns ctx carrying tags for the request metrics of
// its calls; ctx itself when there are none.
func withRequestTags(ctx context.Context, tags map[string]string) context.Context {
	if tags == nil {
		return ctx
	}
	return sdkmetrics.WithRequestTags(ctx, tags)
}

// requestMetricNames are the names one interceptor records under.
type requestMetricNames struct {
	count, failure, latency, resourceExhausted string
}

func newRequestMetricNames(long bool, suffix string) requestMetricNames {
	if long {
		return requestMetricNames{
			count:             sdkmetrics.LongRequest + suffix,
			failure:           sdkmetrics.LongRequestFailure + suffix,
			latency:           sdkmetrics.LongRequestLatency + suffix,
			resourceExhausted: sdkmetrics.LongRequestResourceExhausted + suffix,
		}
	}
	return requestMetricNames{
		count:             sdkmetrics.Request + suffix,
		failure:           sdkmetrics.RequestFailure + suffix,
		latency:           sdkmetrics.RequestLatency + suffix,
		resourceExhausted: sdkmetrics.RequestResourceExhausted + suffix,
	}
}

// requestMetricsInterceptor counts and times each call it sees, tagged
// with the gRPC method (operation), the request's namespace and the tags
// the caller put in the context (sdkmetrics.WithRequestTags), and counts
// failures tagged with their status code.
func requestMetricsInterceptor(handler sdkmetrics.Handler, suffix string, disableStatusCodeTag bool) grpc.UnaryClientInterceptor {
	short, long := newRequestMetricNames(false, suffix), newRequestMetricNames(true, suffix)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		names := short
		if rpc.IsLongPoll(method, req) {
			names = long
		}
		namespace := sdkmetrics.ValueUnknownNamespace
		if r, ok := req.(interface{ GetNamespace() string }); ok {
			namespace = r.GetNamespace()
		}
		extra := sdkmetrics.RequestTags(ctx)
		tags := make(map[string]string, 2+len(extra))
		maps.Copy(tags, extra)
		tags[sdkmetrics.TagOperation] = method[strings.LastIndexByte(method, '/')+1:]
		tags[sdkmetrics.TagNamespace] = namespace
		h := handler.WithTags(tags)
		h.Counter(names.count).Inc(1)
		start := time.Now()
		err := invoker(ctx, method, req, reply, cc, opts...)
		h.Timer(names.latency).Record(time.Since(start))
		if err != nil {
			recordRequestFailure(h, names, err, disableStatusCodeTag)
		}
		return err
	}
}

func recordRequestFailure(h sdkmetrics.Handler, names requestMetricNames, err error, disableStatusCodeTag bool) {
	code := status.Code(err)
	failures := h
	if !disableStatusCodeTag {
		failures = h.WithTags(map[string]string{sdkmetrics.TagStatusCode: sdkmetrics.StatusCodeName(code)})
	}
	failures.Counter(names.failure).Inc(1)
	if code == codes.ResourceExhausted {
		// The cause says which limit the server enforced (RpsLimit,
		// ConcurrentLimit, ...); Unspecified when it did not say.
		var cause enumspb.ResourceExhaustedCause
		if e, ok := serviceerror.FromStatus(status.Convert(err)).(*serviceerror.ResourceExhausted); ok {
			cause = e.Cause
		}
		h.WithTags(map[string]string{sdkmetrics.TagCause: cause.String()}).Counter(names.resourceExhausted).Inc(1)
	}
}
