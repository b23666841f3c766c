package policy

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestCheckRetryPolicyRefusesWhatTheServerWouldAndNamesIt(t *testing.T) {
	for _, c := range []struct {
		name   string
		policy RetryPolicy
		want   []string // in the error; none: valid
	}{
		{"negative InitialInterval", RetryPolicy{InitialInterval: -time.Second}, []string{"RetryPolicy: InitialInterval is -1s", "must not be negative"}},
		{"negative MaximumInterval", RetryPolicy{MaximumInterval: -time.Minute}, []string{"RetryPolicy: MaximumInterval is -1m0s"}},
		{"negative BackoffCoefficient", RetryPolicy{BackoffCoefficient: -2}, []string{"RetryPolicy: BackoffCoefficient is -2"}},
		{"NaN BackoffCoefficient", RetryPolicy{BackoffCoefficient: math.NaN()}, []string{"RetryPolicy: BackoffCoefficient is NaN", "not NaN"}},
		{"negative infinite BackoffCoefficient", RetryPolicy{BackoffCoefficient: math.Inf(-1)}, []string{"BackoffCoefficient is -Inf"}},
		{"negative MaximumAttempts", RetryPolicy{MaximumAttempts: -3}, []string{"RetryPolicy: MaximumAttempts is -3"}},
		{"every negative one at once", RetryPolicy{InitialInterval: -1, MaximumAttempts: -1},
			[]string{"InitialInterval is -1ns, MaximumAttempts is -1"}},
		{"negative even with one attempt", RetryPolicy{MaximumAttempts: 1, InitialInterval: -time.Second}, []string{"InitialInterval is -1s"}},
		{"BackoffCoefficient under 1", RetryPolicy{BackoffCoefficient: 0.5}, []string{"BackoffCoefficient is 0.5; it must be 1 or more"}},
		{"MaximumInterval under InitialInterval", RetryPolicy{InitialInterval: 2 * time.Second, MaximumInterval: time.Second},
			[]string{"MaximumInterval is 1s, less than InitialInterval (2s)"}},
		{"MaximumInterval under the server's default InitialInterval", RetryPolicy{MaximumInterval: 500 * time.Millisecond},
			[]string{"MaximumInterval is 500ms, less than the InitialInterval the server sets by default (1s)"}},
		{"a timeout type that does not exist", RetryPolicy{NonRetryableErrorTypes: []string{"MyError", "TemporalTimeout:Forever"}},
			[]string{`NonRetryableErrorTypes holds "TemporalTimeout:Forever"`}},

		{"zero", RetryPolicy{}, nil},
		{"usual", RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 5,
			NonRetryableErrorTypes: []string{"MyError", "TemporalTimeout:StartToClose", "TemporalTimeout:Heartbeat"}}, nil},
		{"BackoffCoefficient of 1", RetryPolicy{BackoffCoefficient: 1}, nil},
		{"infinite BackoffCoefficient", RetryPolicy{BackoffCoefficient: math.Inf(1)}, nil},
		{"MaximumInterval equal to InitialInterval", RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Second}, nil},
		{"MaximumInterval alone, over the default", RetryPolicy{MaximumInterval: time.Minute}, nil},
		// The server checks nothing more of a policy that never retries.
		{"one attempt", RetryPolicy{MaximumAttempts: 1, BackoffCoefficient: 0.5, InitialInterval: time.Minute, MaximumInterval: time.Second}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckRetryPolicy(&c.policy)
			switch {
			case len(c.want) == 0 && err != nil:
				t.Fatalf("%+v refused: %v", c.policy, err)
			case len(c.want) > 0 && err == nil:
				t.Fatalf("%+v accepted, want it refused", c.policy)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v lacks %q", err, w)
				}
			}
		})
	}
	if err := CheckRetryPolicy(nil); err != nil {
		t.Errorf("no policy refused: %v", err)
	}
}

// Workflow code checks the retry policy of every activity it schedules: a
// valid one must cost no allocation.
func TestCheckRetryPolicyAllocatesNothingForAValidPolicy(t *testing.T) {
	p := &RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 5,
		NonRetryableErrorTypes: []string{"MyError", "TemporalTimeout:StartToClose"}}
	allocs := testing.AllocsPerRun(100, func() {
		if err := CheckRetryPolicy(p); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("a valid policy costs %v allocations per check, want 0", allocs)
	}
}
