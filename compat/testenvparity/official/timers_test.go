package parity

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Reminder waits for an hour-long reminder timer, which a "snooze" signal
// cancels; after a snooze it waits ten minutes more. It returns whether
// the reminder's wait ended canceled.
func Reminder(ctx workflow.Context) (bool, error) {
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	reminder := workflow.NewTimer(timerCtx, time.Hour)
	snoozed := false
	workflow.NewSelector(ctx).
		AddFuture(reminder, func(workflow.Future) {}).
		AddReceive(workflow.GetSignalChannel(ctx, "snooze"), func(c workflow.ReceiveChannel, more bool) {
			c.Receive(ctx, nil)
			snoozed = true
			cancelTimer()
		}).
		Select(ctx)
	err := reminder.Get(ctx, nil)
	var canceled *temporal.CanceledError
	if snoozed && !errors.As(err, &canceled) {
		return false, errors.New("a canceled timer's future must hold a CanceledError")
	}
	if snoozed {
		if err := workflow.Sleep(ctx, 10*time.Minute); err != nil {
			return false, err
		}
	}
	return snoozed, nil
}

// timerLog is what the timer listeners heard.
type timerLog struct {
	scheduled map[string]time.Duration
	order     []string
	fired     []string
	canceled  []string
}

func (s *ParitySuite) listenToTimers() *timerLog {
	log := &timerLog{scheduled: map[string]time.Duration{}}
	s.env.SetOnTimerScheduledListener(func(id string, d time.Duration) {
		log.scheduled[id] = d
		log.order = append(log.order, id)
	})
	s.env.SetOnTimerFiredListener(func(id string) { log.fired = append(log.fired, id) })
	s.env.SetOnTimerCanceledListener(func(id string) { log.canceled = append(log.canceled, id) })
	return log
}

func (s *ParitySuite) TestACanceledTimerNeverFires() {
	log := s.listenToTimers()
	start := s.env.Now()
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("snooze", nil) }, 20*time.Minute)
	s.env.ExecuteWorkflow(Reminder)
	var snoozed bool
	s.Require().NoError(s.env.GetWorkflowResult(&snoozed))
	s.True(snoozed)
	s.Require().Len(log.order, 2)
	reminder, sleep := log.order[0], log.order[1]
	s.Equal(time.Hour, log.scheduled[reminder])
	s.Equal(10*time.Minute, log.scheduled[sleep])
	s.Equal([]string{reminder}, log.canceled)
	s.Equal([]string{sleep}, log.fired)
	s.Equal(30*time.Minute, s.env.Now().Sub(start), "20 minutes to the snooze, 10 after it")
}

func (s *ParitySuite) TestATimerNobodyCancelsFires() {
	log := s.listenToTimers()
	start := s.env.Now()
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("snooze", nil) }, 2*time.Hour) // after the end: never runs
	s.env.ExecuteWorkflow(Reminder)
	var snoozed bool
	s.Require().NoError(s.env.GetWorkflowResult(&snoozed))
	s.False(snoozed)
	s.Require().Len(log.order, 1)
	s.Equal(log.order, log.fired)
	s.Empty(log.canceled)
	s.Equal(time.Hour, s.env.Now().Sub(start))
}

// Approval waits up to a day for an "approve" signal carrying who
// approved; it returns who, or "nobody".
func Approval(ctx workflow.Context) (string, error) {
	var who string
	ok, _ := workflow.GetSignalChannel(ctx, "approve").ReceiveWithTimeout(ctx, 24*time.Hour, &who)
	if !ok {
		return "nobody", nil
	}
	return who, nil
}

func (s *ParitySuite) TestReceiveWithTimeoutGetsASignalInTime() {
	start := s.env.Now()
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("approve", "ada") }, 23*time.Hour)
	s.env.ExecuteWorkflow(Approval)
	var who string
	s.NoError(s.env.GetWorkflowResult(&who))
	s.Equal("ada", who)
	s.Equal(23*time.Hour, s.env.Now().Sub(start))
}

func (s *ParitySuite) TestReceiveWithTimeoutTimesOut() {
	start := s.env.Now()
	s.env.ExecuteWorkflow(Approval)
	var who string
	s.NoError(s.env.GetWorkflowResult(&who))
	s.Equal("nobody", who)
	s.Equal(24*time.Hour, s.env.Now().Sub(start))
}
