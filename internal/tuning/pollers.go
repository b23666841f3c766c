package tuning

import (
	"fmt"

	"github.com/durable-go/sdk/internal/workerrt"
)

// PollerBehavior says how many long polls a worker keeps open on a task
// queue (worker.PollerBehavior): a fixed number
// (NewPollerBehaviorSimpleMaximum) or a number that scales with the work
// (NewPollerBehaviorAutoscaling).
type PollerBehavior interface {
	// pollers is the behavior as the worker runtime takes it: a fixed
	// count, or scaling bounds.
	pollers() (fixed int, scaling *workerrt.PollerScaling)
}

// PollerBehaviorSimpleMaximumOptions configure
// NewPollerBehaviorSimpleMaximum
// (worker.PollerBehaviorSimpleMaximumOptions).
type PollerBehaviorSimpleMaximumOptions struct {
	// MaximumNumberOfPollers is the number of polls kept open (2).
	MaximumNumberOfPollers int
}

// PollerBehaviorAutoscalingOptions configure NewPollerBehaviorAutoscaling
// (worker.PollerBehaviorAutoscalingOptions).
type PollerBehaviorAutoscalingOptions struct {
	// InitialNumberOfPollers is the number of polls at start (5), within
	// the bounds.
	InitialNumberOfPollers int
	// MinimumNumberOfPollers is the fewest polls kept open (1).
	MinimumNumberOfPollers int
	// MaximumNumberOfPollers is the most polls kept open (100). A workflow
	// worker scales its polls of the normal and of the sticky queue each
	// within these bounds.
	MaximumNumberOfPollers int
}

type simpleMaximumPollers int

func (n simpleMaximumPollers) pollers() (int, *workerrt.PollerScaling) { return int(n), nil }

type autoscalingPollers workerrt.PollerScaling

func (a autoscalingPollers) pollers() (int, *workerrt.PollerScaling) {
	s := workerrt.PollerScaling(a)
	return 0, &s
}

// NewPollerBehaviorSimpleMaximum keeps a fixed number of polls open
// (worker.NewPollerBehaviorSimpleMaximum).
func NewPollerBehaviorSimpleMaximum(options PollerBehaviorSimpleMaximumOptions) PollerBehavior {
	if options.MaximumNumberOfPollers <= 0 {
		options.MaximumNumberOfPollers = defaultPollers
	}
	return simpleMaximumPollers(options.MaximumNumberOfPollers)
}

// NewPollerBehaviorAutoscaling scales the number of polls between the
// minimum and the maximum (worker.NewPollerBehaviorAutoscaling): up while
// polls bring tasks that were waiting, or when the server's scaling
// decisions (sent with tasks by Temporal 1.27 and later) say so; down
// while polls come back empty, when the server says so, and by half when
// it answers ResourceExhausted.
func NewPollerBehaviorAutoscaling(options PollerBehaviorAutoscalingOptions) PollerBehavior {
	s := workerrt.PollerScaling{Initial: options.InitialNumberOfPollers, Min: options.MinimumNumberOfPollers, Max: options.MaximumNumberOfPollers}
	if s.Initial <= 0 {
		s.Initial = 5
	}
	if s.Min <= 0 {
		s.Min = 1
	}
	if s.Max <= 0 {
		s.Max = 100
	}
	s.Initial = min(max(s.Initial, s.Min), s.Max)
	return autoscalingPollers(s)
}

// defaultPollers is the default number of polls of each kind.
const defaultPollers = 2

// Pollers is the runtime's poll count for a behavior, or else for a
// number of pollers (0: the default).
func Pollers(b PollerBehavior, n int) (int, *workerrt.PollerScaling) {
	if b != nil {
		return b.pollers()
	}
	return n, nil
}

// CheckPollerBehavior refuses an autoscaling behavior whose minimum
// exceeds its maximum.
func CheckPollerBehavior(b PollerBehavior) error {
	if a, ok := b.(autoscalingPollers); ok && a.Min > a.Max {
		return fmt.Errorf("PollerBehaviorAutoscalingOptions.MinimumNumberOfPollers %d exceeds MaximumNumberOfPollers %d", a.Min, a.Max)
	}
	return nil
}
