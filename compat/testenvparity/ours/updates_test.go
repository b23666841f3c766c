package parity

import (
	"errors"
	"fmt"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// Tally is the state of a Tallies workflow; its "add" updates return a
// pointer to it.
type Tally struct{ Total int }

var errNotPositive = errors.New("only positive amounts")

// Tallies adds what its "add" updates ask until a day has passed.
func Tallies(ctx workflow.Context) (int, error) {
	tally := &Tally{}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "add", func(ctx workflow.Context, n int) (*Tally, error) {
		tally.Total += n
		return tally, nil
	}, workflow.UpdateHandlerOptions{Validator: func(n int) error {
		if n <= 0 {
			return errNotPositive
		}
		return nil
	}}); err != nil {
		return 0, err
	}
	if err := workflow.Sleep(ctx, 24*time.Hour); err != nil {
		return 0, err
	}
	return tally.Total, nil
}

// heard records what update callbacks heard, in order.
type heard []string

func (h *heard) callbacks(id string) *testsuite.TestUpdateCallback {
	return &testsuite.TestUpdateCallback{
		OnAccept: func() { *h = append(*h, id+" accepted") },
		OnReject: func(err error) { *h = append(*h, fmt.Sprintf("%s rejected: %v", id, err)) },
		OnComplete: func(v any, err error) {
			// The handler returned a pointer to the workflow's state:
			// read it now, as the callback runs.
			*h = append(*h, fmt.Sprintf("%s completed: %d %v", id, v.(*Tally).Total, err))
		},
	}
}

func (s *ParitySuite) TestUpdateCallbacksSeeTheValueAsTheHandlerReturnedIt() {
	var log heard
	s.env.RegisterDelayedCallback(func() {
		s.env.UpdateWorkflow("add", "first", log.callbacks("first"), 1)
		s.env.UpdateWorkflow("add", "second", log.callbacks("second"), 2)
	}, time.Hour)
	s.env.RegisterDelayedCallback(func() {
		s.env.UpdateWorkflow("add", "third", log.callbacks("third"), 4)
	}, 2*time.Hour)
	s.env.ExecuteWorkflow(Tallies)
	var total int
	s.NoError(s.env.GetWorkflowResult(&total))
	s.Equal(7, total)
	s.Equal(heard{
		"first accepted", "first completed: 1 <nil>",
		"second accepted", "second completed: 3 <nil>",
		"third accepted", "third completed: 7 <nil>",
	}, log)
}

func (s *ParitySuite) TestUpdateCallbacksRunInOrderWithRejections() {
	var log heard
	s.env.RegisterDelayedCallback(func() {
		s.env.UpdateWorkflow("add", "a", log.callbacks("a"), 5)
		s.env.UpdateWorkflow("add", "b", log.callbacks("b"), -1)
		s.env.UpdateWorkflow("add", "c", log.callbacks("c"), 1)
	}, time.Hour)
	s.env.RegisterDelayedCallback(func() {
		// Callbacks ran before this one: the log is complete.
		s.Require().Len(log, 5)
	}, 2*time.Hour)
	s.env.ExecuteWorkflow(Tallies)
	var total int
	s.NoError(s.env.GetWorkflowResult(&total))
	s.Equal(6, total)
	s.Equal(heard{
		"a accepted", "a completed: 5 <nil>",
		"b rejected: " + errNotPositive.Error(),
		"c accepted", "c completed: 6 <nil>",
	}, log)
}

// requestLimit is how many "request" updates Limited takes.
const requestLimit = 500

// Limited counts the "request" updates its handler ran; its validator
// rejects them once the count reached requestLimit. It returns the count
// after a day.
func Limited(ctx workflow.Context) (int, error) {
	count := 0
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "request", func(ctx workflow.Context) (int, error) {
		count++
		return count, nil
	}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context) error {
		if count >= requestLimit {
			return fmt.Errorf("the limit of %d requests is reached", requestLimit)
		}
		return nil
	}}); err != nil {
		return 0, err
	}
	err := workflow.Sleep(ctx, 24*time.Hour)
	return count, err
}

func (s *ParitySuite) TestABurstOfUpdatesFromDelayedCallbacksIsValidatedAfterEachHandler() {
	var accepted, rejected, completed int
	callbacks := &testsuite.TestUpdateCallback{
		OnAccept: func() { accepted++ },
		OnReject: func(err error) {
			rejected++
			s.ErrorContains(err, "the limit of 500 requests is reached")
		},
		OnComplete: func(any, error) { completed++ },
	}
	for i := range requestLimit + 50 {
		s.env.RegisterDelayedCallback(func() {
			s.env.UpdateWorkflow("request", fmt.Sprintf("request-%d", i), callbacks)
		}, time.Hour)
	}
	s.env.ExecuteWorkflow(Limited)
	var count int
	s.NoError(s.env.GetWorkflowResult(&count))
	s.Equal([]int{requestLimit, requestLimit, 50, requestLimit}, []int{count, accepted, rejected, completed},
		"the count, the updates accepted, rejected and completed")
}
