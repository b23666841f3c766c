package interceptor

import "github.com/durable-go/sdk/internal"

// ActivityInboundInterceptor sees an activity attempt arrive. Make one in
// WorkerInterceptor.InterceptActivity; embed
// ActivityInboundInterceptorBase.
//
//   - Init(outbound) is called first, with the ActivityOutboundInterceptor
//     that the activity's calls go to; wrap it to intercept those calls,
//     and pass the result on to the next Init.
//   - ExecuteActivity(ctx, in) runs the activity with its decoded
//     arguments and returns its result and error; Header(ctx) is the
//     header the workflow sent with the activity.
type ActivityInboundInterceptor = internal.ActivityInboundInterceptor

// ActivityInboundInterceptorBase passes every call on to its Next
// interceptor (it implements ActivityInboundInterceptor). Embed it, set
// Next, and override what you need.
type ActivityInboundInterceptorBase = internal.ActivityInboundInterceptorBase

// ExecuteActivityInput is the input of
// ActivityInboundInterceptor.ExecuteActivity.
//
//   - Args: the activity's arguments, decoded.
type ExecuteActivityInput = internal.ExecuteActivityInput

// ActivityOutboundInterceptor sees the calls that activity code makes to
// the activity package: each method intercepts the function of that name
// (GetInfo, GetLogger, GetMetricsHandler, RecordHeartbeat,
// HasHeartbeatDetails, GetHeartbeatDetails, GetWorkerStopChannel,
// GetClient). Wrap it in ActivityInboundInterceptor.Init; embed
// ActivityOutboundInterceptorBase.
type ActivityOutboundInterceptor = internal.ActivityOutboundInterceptor

// ActivityOutboundInterceptorBase passes every call on to its Next
// interceptor (it implements ActivityOutboundInterceptor). Embed it, set
// Next, and override what you need.
type ActivityOutboundInterceptorBase = internal.ActivityOutboundInterceptorBase
