// Package wf holds workflows for the analyzer's tests, a file per rule.
package wf

import (
	"context"
	"time"

	"github.com/durable-go/sdk/workflow"
)

func TimeWorkflow(ctx workflow.Context) error { // want TimeWorkflow:"nondeterministic"
	start := time.Now()                 // want `time.Now called: TimeWorkflow; use workflow.Now`
	time.Sleep(time.Second)             // want `time.Sleep called: TimeWorkflow; use workflow.Sleep`
	<-time.After(time.Second)           // want `time.After called: TimeWorkflow; use workflow.NewTimer or workflow.Sleep` `receive from a native channel: TimeWorkflow`
	timer := time.NewTimer(time.Second) // want `time.NewTimer called`
	timer.Stop()                        // want `\(\*time.Timer\).Stop called`
	_ = time.Since(start)               // want `time.Since called: TimeWorkflow; use workflow.Now\(ctx\).Sub`
	for range time.Tick(time.Second) {  // want `time.Tick called` `range over a native channel`
		break
	}
	cctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout called`
	defer cancel()
	_ = cctx
	clock := time.Now // want `time.Now used as a value: TimeWorkflow`
	_ = clock

	// Arithmetic on times and durations is deterministic.
	later := start.Add(time.Hour)
	_ = later.Sub(start).Round(time.Minute)
	d, _ := time.ParseDuration("1s")
	return workflow.Sleep(ctx, d)
}

// NotReached reads the clock, but no workflow calls it: only its fact.
func NotReached() time.Time { // want NotReached:"nondeterministic\\(time.Now called at wf/time.go:\\d+\\)"
	return time.Now()
}
