package internal

import (
	"fmt"
	"strings"
	"time"
)

// A negative duration, size or rate in options is a mistake (a sign flipped,
// a subtraction gone wrong), never a setting: it is refused with the
// option's name, rather than read as "unset" or as a zero that means the
// default. These helpers name every negative one at once.

// namedValue is an option's name and its value, a duration or a number.
type namedValue struct {
	name  string
	value any
}

func duration(name string, d time.Duration) namedValue { return namedValue{name, d} }
func number(name string, n float64) namedValue         { return namedValue{name, n} }

// negativeOptions returns an error naming the options of values that are
// negative, in the words of what (e.g. "ExecuteActivity(Charge)"); nil
// when there are none.
func negativeOptions(what string, values ...namedValue) error {
	var bad []string
	for _, v := range values {
		switch x := v.value.(type) {
		case time.Duration:
			if x < 0 {
				bad = append(bad, fmt.Sprintf("%s is %v", v.name, x))
			}
		case float64:
			if x < 0 {
				bad = append(bad, fmt.Sprintf("%s is %v", v.name, x))
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s; options must not be negative (0 means the default)", what, strings.Join(bad, ", "))
}

// checkWorkerOptionsNotNegative panics, as worker.New does for its other
// configuration mistakes, when a worker option is negative.
func checkWorkerOptionsNotNegative(o WorkerOptions) {
	values := []namedValue{
		number("MaxConcurrentActivityExecutionSize", float64(o.MaxConcurrentActivityExecutionSize)),
		number("WorkerActivitiesPerSecond", o.WorkerActivitiesPerSecond),
		number("TaskQueueActivitiesPerSecond", o.TaskQueueActivitiesPerSecond),
		number("MaxConcurrentLocalActivityExecutionSize", float64(o.MaxConcurrentLocalActivityExecutionSize)),
		number("WorkerLocalActivitiesPerSecond", o.WorkerLocalActivitiesPerSecond),
		number("MaxConcurrentWorkflowTaskExecutionSize", float64(o.MaxConcurrentWorkflowTaskExecutionSize)),
		number("MaxConcurrentWorkflowTaskPollers", float64(o.MaxConcurrentWorkflowTaskPollers)),
		number("MaxConcurrentActivityTaskPollers", float64(o.MaxConcurrentActivityTaskPollers)),
		duration("StickyScheduleToStartTimeout", o.StickyScheduleToStartTimeout),
		duration("DefaultHeartbeatThrottleInterval", o.DefaultHeartbeatThrottleInterval),
		duration("MaxHeartbeatThrottleInterval", o.MaxHeartbeatThrottleInterval),
		duration("WorkerStopTimeout", o.WorkerStopTimeout),
		duration("DeadlockDetectionTimeout", o.DeadlockDetectionTimeout),
		number("MaxConcurrentSessionExecutionSize", float64(o.MaxConcurrentSessionExecutionSize)),
		number("MaxConcurrentEagerActivityExecutionSize", float64(o.MaxConcurrentEagerActivityExecutionSize)),
	}
	if err := negativeOptions("worker.New: worker.Options", values...); err != nil {
		panic(err.Error())
	}
}
