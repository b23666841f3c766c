package commands

import (
	commandpb "go.temporal.io/api/command/v1"
)

// CancelRequest is the machine of a RequestCancelActivityTask or CancelTimer
// command. It is its own command, in command order; when history records
// it, it tells its target. If the target ends first, the request is
// withdrawn: it is not sent, or no longer expected in history.
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

func (c *CancelRequest) fire(in Input, arg any) bool {
	return CancelRequestTable.fire(c, &c.st, in, arg)
}

func (c *CancelRequest) describe() string { return DescribeCommand(c.entry.cmd) }

// targetClosed withdraws the request if history has not recorded it yet.
func (c *CancelRequest) targetClosed() {
	if c != nil && CancelRequestTable.Allows(c.st, InTargetClosed) {
		c.fire(InTargetClosed, nil)
	}
}

func (c *CancelRequest) withdraw(any) { c.book.withdraw(c.entry) }

// tellTarget passes the recorded request on. The target's table decides
// whether it can take it; a refusal is reported by the Book.
func (c *CancelRequest) tellTarget(arg any) {
	if !c.target.fire(InCancelRecorded, arg) {
		c.book.pendingErr = &IllegalTransitionError{Machine: c.target.describe(), State: c.target.state(), Input: InCancelRecorded}
	}
}
