// Package activity is the API that activity code calls: what the running
// activity is (GetInfo), its logger and metrics, heartbeats that report
// progress and carry it over to the next attempt, and the signals that the
// activity should stop (its context's cancellation, GetWorkerStopChannel).
//
// An activity is an ordinary Go function whose first parameter may be a
// context.Context and which returns an error, or a result and an error.
// Unlike workflow code it may do anything: call services, read files,
// sleep. The worker runs it, the workflow schedules it with
// workflow.ExecuteActivity, and the server retries it on failure as its
// temporal.RetryPolicy says.
//
//	func Charge(ctx context.Context, order Order) (Receipt, error) {
//		activity.GetLogger(ctx).Info("Charging", "OrderID", order.ID)
//		for i, item := range order.Items {
//			if err := charge(ctx, item); err != nil {
//				return Receipt{}, err
//			}
//			activity.RecordHeartbeat(ctx, i) // progress; also how cancellation arrives
//		}
//		return Receipt{OrderID: order.ID}, nil
//	}
//
// Register it on a worker with worker.Worker.RegisterActivity. The
// functions of this package panic when ctx is not the context the worker
// gave an activity (see IsActivity).
package activity
