package commands

import (
	"errors"
	"strconv"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
)

// locatedBook is a Book that names each command's code "code.go:N", N
// counting the commands.
func locatedBook() *Book {
	b := NewBook()
	n := 0
	b.LocateCommands(func() string {
		n++
		return "code.go:" + strconv.Itoa(n)
	})
	b.BeginTask(3)
	return b
}

func TestLocatedErrorsNameTheCommandAndItsCode(t *testing.T) {
	cases := []struct {
		name        string
		run         func(b *Book) error
		wantType    enumspb.CommandType
		wantCodeLoc string
	}{
		{"event does not match the command", func(b *Book) error {
			schedule(b, "Ship")
			b.TakeCommands()
			_, err := b.Apply(scheduledEvent(5, "5", "Charge"))
			return err
		}, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, "code.go:1"},
		{"command history lacks", func(b *Book) error {
			schedule(b, "A")
			startTimer(b)
			b.TakeCommands()
			if _, err := b.Apply(scheduledEvent(5, "5", "A")); err != nil {
				return err
			}
			return b.CheckAllMatched(nil)
		}, enumspb.COMMAND_TYPE_START_TIMER, "code.go:2"},
		{"transition action finds the mismatch", func(b *Book) error {
			schedule(b, "Charge")
			b.TakeCommands()
			_, err := b.Apply(scheduledEvent(6, "5", "Charge"))
			return err
		}, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, "code.go:1"},
		{"event the machine cannot take", func(b *Book) error {
			schedule(b, "Charge")
			b.TakeCommands()
			_, err := b.Apply(activityEvent(InStarted, 6, 5))
			return err
		}, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, "code.go:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run(locatedBook())
			var nd *NondeterminismError
			var it *IllegalTransitionError
			switch {
			case errors.As(err, &nd):
				if nd.Command.GetCommandType() != c.wantType || nd.CodeLocation != c.wantCodeLoc {
					t.Fatalf("got command %v at %q, want %v at %q (%v)", nd.Command.GetCommandType(), nd.CodeLocation, c.wantType, c.wantCodeLoc, err)
				}
			case errors.As(err, &it):
				if it.Command.GetCommandType() != c.wantType || it.CodeLocation != c.wantCodeLoc {
					t.Fatalf("got command %v at %q, want %v at %q (%v)", it.Command.GetCommandType(), it.CodeLocation, c.wantType, c.wantCodeLoc, err)
				}
			default:
				t.Fatalf("want a mismatch error, got %v", err)
			}
		})
	}
}

func TestUnlocatedBookLeavesCodeLocationEmpty(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	schedule(b, "Ship")
	b.TakeCommands()
	_, err := b.Apply(scheduledEvent(5, "5", "Charge"))
	var nd *NondeterminismError
	if !errors.As(err, &nd) || nd.CodeLocation != "" || nd.Command == nil {
		t.Fatalf("want a mismatch with its command and no location, got %#v", err)
	}
}
