package parity

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Download fetches ten chunks, heartbeating after each; a retried attempt
// resumes after the last chunk its attempts recorded. Attempts before
// the last fail after failAfter chunks (of their own). It returns the
// chunks each attempt started from.
func Download(ctx context.Context, failAfter int) ([]int, error) {
	info := activity.GetInfo(ctx)
	from := 0
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &from); err != nil {
			return nil, err
		}
	}
	started = append(started, from)
	for chunk := from + 1; chunk <= 10; chunk++ {
		activity.RecordHeartbeat(ctx, chunk)
		if chunk-from == failAfter && info.Attempt < 3 {
			return nil, errors.New("connection reset")
		}
	}
	return started, nil
}

// started is what Download's attempts started from (the tests run one at
// a time).
var started []int

// Downloading runs Download under a retry policy of three attempts.
func Downloading(ctx workflow.Context, failAfter int) ([]int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
	var from []int
	err := workflow.ExecuteActivity(ctx, Download, failAfter).Get(ctx, &from)
	return from, err
}

func (s *ParitySuite) TestARetriedActivityResumesFromItsLastHeartbeat() {
	started = nil
	s.env.RegisterActivity(Download)
	s.env.ExecuteWorkflow(Downloading, 4)
	var from []int
	s.NoError(s.env.GetWorkflowResult(&from))
	// Every heartbeat counts, not only those a throttle lets through.
	s.Equal([]int{0, 4, 8}, from)
}

func (s *ParitySuite) TestAPanickingActivityKeepsItsLastHeartbeat() {
	s.env.RegisterActivityWithOptions(func(ctx context.Context) (int, error) {
		var last int
		if activity.HasHeartbeatDetails(ctx) {
			_ = activity.GetHeartbeatDetails(ctx, &last)
		}
		if activity.GetInfo(ctx).Attempt == 1 {
			for i := 1; i <= 3; i++ {
				activity.RecordHeartbeat(ctx, i*100)
			}
			panic("disk full")
		}
		return last, nil
	}, activity.RegisterOptions{Name: "Flaky"})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (int, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		var last int
		err := workflow.ExecuteActivity(ctx, "Flaky").Get(ctx, &last)
		return last, err
	})
	var last int
	s.NoError(s.env.GetWorkflowResult(&last))
	s.Equal(300, last)
}

// Upload records its progress five times, then fails if told to.
func Upload(ctx context.Context, fail bool) error {
	for part := 1; part <= 5; part++ {
		activity.RecordHeartbeat(ctx, part)
	}
	if fail {
		return errors.New("upload interrupted")
	}
	return nil
}

// heartbeatsHeard is what a heartbeat listener heard: each heartbeat's
// part.
type heartbeatsHeard struct {
	mu    sync.Mutex
	parts []int
}

func (h *heartbeatsHeard) listen(_ *activity.Info, details converter.EncodedValues) {
	var part int
	_ = details.Get(&part)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.parts = append(h.parts, part)
}

func (h *heartbeatsHeard) heard() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.parts
}

func (s *ParitySuite) TestTheActivityEnvironmentReportsHeartbeatsAsAWorkerThrottlesThem() {
	for _, tc := range []struct {
		fail bool
		want []int
	}{
		// Within the throttle's interval (30s without a heartbeat
		// timeout), the first goes at once and the last waits...
		{false, []int{1}},   // ...for nothing: the activity completed.
		{true, []int{1, 5}}, // ...for the activity's end, as it failed.
	} {
		env := s.NewTestActivityEnvironment()
		var heard heartbeatsHeard
		env.SetOnActivityHeartbeatListener(heard.listen)
		env.RegisterActivity(Upload)
		_, err := env.ExecuteActivity(Upload, tc.fail)
		s.Equal(tc.fail, err != nil, "%v", err)
		s.Equal(tc.want, heard.heard(), "failing: %v", tc.fail)
	}
}

func (s *ParitySuite) TestTheWorkflowEnvironmentReportsHeartbeatsAsAWorkerThrottlesThem() {
	var heard heartbeatsHeard
	s.env.SetOnActivityHeartbeatListener(heard.listen)
	s.env.RegisterActivity(Upload)
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, Upload, false).Get(ctx, nil)
	})
	s.NoError(s.env.GetWorkflowError())
	s.Equal([]int{1}, heard.heard())
}
