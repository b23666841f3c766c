package commands

import (
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
)

// TestLocalActivityTableRows drives every row of the local activity
// machine from its from-state and checks the to-state, that an outcome is
// delivered once exactly when the row resolves, and that the worker is
// told to cancel exactly when a running attempt is canceled.
func TestLocalActivityTableRows(t *testing.T) {
	for _, r := range LocalActivityTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			var outcomes []Outcome
			cancels := 0
			la := NewBook().NewLocalActivity("1", "Charge", func(o Outcome) { outcomes = append(outcomes, o) }, func() { cancels++ })
			switch r.From { // drive to the row's from-state
			case Started:
				mustDrive(t, la.Start())
			case CanceledBeforeInitiated:
				mustDrive(t, la.Cancel())
			case CancelRequested:
				mustDrive(t, la.Start())
				mustDrive(t, la.Cancel())
			}
			cancelsBefore := cancels
			outcome := Outcome{Result: &commonpb.Payloads{}}
			switch r.On {
			case InStarted:
				mustDrive(t, la.Start())
			case InCancel:
				mustDrive(t, la.Cancel())
			case InCompleted:
				mustDrive(t, la.Resolve(r.On, outcome, nil))
			case InFailed, InCanceled:
				outcome = Outcome{Failure: &failurepb.Failure{Message: "x"}}
				mustDrive(t, la.Resolve(r.On, outcome, nil))
			default:
				t.Fatalf("no driver for input %v", r.On)
			}
			if la.State() != r.To {
				t.Fatalf("state %v, want %v", la.State(), r.To)
			}
			final := r.To == Completed || r.To == Failed || r.To == Canceled
			if final != (len(outcomes) == 1) || len(outcomes) > 1 || la.Pending() == final {
				t.Fatalf("outcomes %v for a row to %v", outcomes, r.To)
			}
			if final && outcomes[0].Result != outcome.Result {
				t.Fatalf("the outcome delivered is not the one resolved: %v", outcomes[0])
			}
			wantCancel := r.From == Started && r.On == InCancel
			if (cancels-cancelsBefore == 1) != wantCancel {
				t.Fatalf("worker told to cancel %d times", cancels-cancelsBefore)
			}
		})
	}
}

func TestLocalActivityResolvesOnce(t *testing.T) {
	la := NewBook().NewLocalActivity("1", "Charge", func(Outcome) {}, nil)
	mustDrive(t, la.Resolve(InCompleted, Outcome{}, nil))
	if err := la.Resolve(InCompleted, Outcome{}, nil); err == nil {
		t.Fatal("a second outcome is an illegal transition")
	}
	if err := la.Start(); err == nil {
		t.Fatal("a resolved local activity cannot start")
	}
}

func mustDrive(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
