package parity

import (
	"time"

	"github.com/durable-go/sdk/workflow"
)

// Deposit is what a "deposit" signal carries.
type Deposit struct {
	Amount int
	At     time.Duration // set by the workflow: when it saw the deposit, since its start
}

// Account takes "deposit" signals until a "close" signal, and returns the
// deposits in the order it received them.
func Account(ctx workflow.Context) ([]Deposit, error) {
	start := workflow.Now(ctx)
	var deposits []Deposit
	closed := false
	deposit := workflow.GetSignalChannel(ctx, "deposit")
	for !closed {
		workflow.NewSelector(ctx).
			AddReceive(deposit, func(c workflow.ReceiveChannel, more bool) {
				var d Deposit
				c.Receive(ctx, &d)
				d.At = workflow.Now(ctx).Sub(start)
				deposits = append(deposits, d)
			}).
			AddReceive(workflow.GetSignalChannel(ctx, "close"), func(c workflow.ReceiveChannel, more bool) {
				c.Receive(ctx, nil)
				closed = true
			}).
			Select(ctx)
	}
	// Deposits that arrived with the close are still taken.
	for {
		var d Deposit
		if !deposit.ReceiveAsync(&d) {
			break
		}
		d.At = workflow.Now(ctx).Sub(start)
		deposits = append(deposits, d)
	}
	return deposits, nil
}

func (s *ParitySuite) TestSignalsArriveInOrderAtTheirTimes() {
	s.env.RegisterDelayedCallback(func() {
		s.env.SignalWorkflow("deposit", Deposit{Amount: 10})
		s.env.SignalWorkflow("deposit", Deposit{Amount: 20})
	}, time.Minute)
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("deposit", Deposit{Amount: 30}) }, time.Hour)
	s.env.RegisterDelayedCallback(func() {
		s.env.SignalWorkflow("close", nil)
		s.env.SignalWorkflow("deposit", Deposit{Amount: 40})
	}, 2*time.Hour)
	s.env.ExecuteWorkflow(Account)
	var deposits []Deposit
	s.Require().NoError(s.env.GetWorkflowResult(&deposits))
	// Each signal sent from a callback reaches the workflow once it
	// handled the one before: the close ended it before the last deposit.
	s.Equal([]Deposit{
		{Amount: 10, At: time.Minute},
		{Amount: 20, At: time.Minute},
		{Amount: 30, At: time.Hour},
	}, deposits)
}

func (s *ParitySuite) TestSignalsSkippingTheWorkflowTaskAreSeenWithTheNext() {
	s.env.RegisterDelayedCallback(func() {
		s.env.SignalWorkflowSkippingWorkflowTask("deposit", Deposit{Amount: 1})
		s.env.SignalWorkflowSkippingWorkflowTask("deposit", Deposit{Amount: 2})
		s.env.SignalWorkflow("close", nil)
	}, time.Minute)
	s.env.ExecuteWorkflow(Account)
	var deposits []Deposit
	s.Require().NoError(s.env.GetWorkflowResult(&deposits))
	s.Equal([]Deposit{{Amount: 1, At: time.Minute}, {Amount: 2, At: time.Minute}}, deposits)
}
