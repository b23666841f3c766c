package main

import (
	"github.com/durable-go/sdk/workflow"
)

// AddSignal carries an amount to add to the running total.
const AddSignal = "add"

// signalsPerRun bounds the history of one run. Real workflows use a few
// thousand, or continue when workflow.GetInfo(ctx).GetContinueAsNewSuggested()
// says so; the example uses a small number to show the hand-over.
const signalsPerRun = 3

// Tally is the state handed from one run to the next.
type Tally struct {
	// Goal is the total at which the workflow completes.
	Goal int
	// Total is the sum of the amounts handled so far.
	Total int
	// Pending are amounts that were signalled to an earlier run but not
	// handled there: they are handled first.
	Pending []int
	// Runs counts the runs before this one.
	Runs int
}

// Accumulate adds up the amounts it receives on the add signal until the
// total reaches the goal. Each run handles at most signalsPerRun signals,
// then continues as new with its state.
func Accumulate(ctx workflow.Context, tally Tally) (Tally, error) {
	signals := workflow.GetSignalChannel(ctx, AddSignal)
	handled := 0
	for tally.Total < tally.Goal {
		if handled == signalsPerRun {
			// A signal that arrived but was not read would be lost with
			// this run: drain the channel without blocking and carry
			// what it held over to the next run.
			var amount int
			for signals.ReceiveAsync(&amount) {
				tally.Pending = append(tally.Pending, amount)
			}
			tally.Runs++
			return Tally{}, workflow.NewContinueAsNewError(ctx, Accumulate, tally)
		}
		var amount int
		if len(tally.Pending) > 0 {
			amount, tally.Pending = tally.Pending[0], tally.Pending[1:]
		} else {
			signals.Receive(ctx, &amount)
		}
		tally.Total += amount
		handled++
	}
	return tally, nil
}
