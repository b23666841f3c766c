package commands

import (
	commandpb "go.temporal.io/api/command/v1"
	historypb "go.temporal.io/api/history/v1"
)

// CancelRequest is the machine of a command that cancels another command
// of the same workflow: RequestCancelActivityTask or CancelTimer (each
// declared with its target's kind). It is its own command, in command
// order; when history records it, it tells its target. If the target ends
// first, the request is withdrawn: it is not sent, or no longer expected in
// history.
type CancelRequest struct {
	st     State
	book   *Book
	target machine
	entry  *entry
}

// CancelRequestTable is the cancel request machine's transition table.
var CancelRequestTable = NewTable("cancel request",
	Row[*CancelRequest]{Created, InSent, CommandSent, nil},
	Row[*CancelRequest]{Created, InTargetClosed, Withdrawn, (*CancelRequest).withdraw},
	Row[*CancelRequest]{CommandSent, InTargetClosed, Withdrawn, (*CancelRequest).withdraw},
	Row[*CancelRequest]{CommandSent, InInitiated, Initiated, (*CancelRequest).tellTarget},
)

func (b *Book) addCancelRequest(target machine, cmd *commandpb.Command) *CancelRequest {
	c := &CancelRequest{book: b, target: target}
	c.entry = b.add(cmd, c)
	return c
}

// State is where the request stands.
func (c *CancelRequest) State() State { return c.st }

func (c *CancelRequest) state() State { return c.st }

func (c *CancelRequest) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return CancelRequestTable.fire(c, &c.st, in, ev)
}

func (c *CancelRequest) describe() string { return DescribeCommand(c.entry.cmd) }

// targetClosed withdraws the request if history has not recorded it yet.
func (c *CancelRequest) targetClosed() {
	if c != nil && CancelRequestTable.Allows(c.st, InTargetClosed) {
		_, _ = c.fire(InTargetClosed, nil) // withdrawing cannot fail
	}
}

func (c *CancelRequest) withdraw(*historypb.HistoryEvent) error {
	c.book.withdraw(c.entry)
	return nil
}

// tellTarget passes the recorded request on. The target's table decides
// whether it can take it.
func (c *CancelRequest) tellTarget(ev *historypb.HistoryEvent) error {
	ok, err := c.target.fire(InCancelRecorded, ev)
	if !ok {
		return c.book.illegal(c.target, InCancelRecorded, ev)
	}
	return err
}
