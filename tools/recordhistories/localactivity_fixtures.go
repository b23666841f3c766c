package main

import "time"

// localActivityTaskTimeout is the workflow task timeout of the local
// activity fixtures: shorter than the 1.5s backoffs of timerretries and
// the 2.5s LocalSleep of long (see localactivity_workflows.go).
const localActivityTaskTimeout = time.Second

// localActivityFixtures are the fixtures of LocalActivitiesWorkflow, one
// per scenario, in files localactivity-<scenario>.json.
func localActivityFixtures() []fixture {
	scenarios := []struct{ name, want string }{
		{"success", "Hello, Temporal! / no error"},
		{"failure", "application error of type : attempt 2 failed"},
		{"taskretries", "attempt 3 / no error"},
		{"timerretries", "attempt 3 / no error"},
		{"timeout", "timeout StartToClose: deadline exceeded (type: StartToClose)"},
		{"long", "slept 2.5s / no error"},
		{"parallel", "slept 250ms, slept 200ms, slept 150ms, slept 100ms, slept 50ms"},
		{"canceled", "running: canceled: canceled / not started: canceled: canceled"},
		{"canceledduringbackoff", "canceled: canceled"},
	}
	var fs []fixture
	for _, s := range scenarios {
		fs = append(fs, fixture{name: "localactivity-" + s.name, workflow: LocalActivitiesWorkflow, args: []any{s.name},
			want: s.want, workflowTaskTimeout: localActivityTaskTimeout})
	}
	return fs
}
