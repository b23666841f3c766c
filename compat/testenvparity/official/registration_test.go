package parity

import (
	"context"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"
)

// Shout is an activity the tests register twice.
func Shout(_ context.Context, s string) (string, error) { return strings.ToUpper(s), nil }

// Letters is a struct whose methods are activities.
type Letters struct{ Suffix string }

// Exclaim adds the suffix.
func (l *Letters) Exclaim(_ context.Context, s string) (string, error) { return s + l.Suffix, nil }

// Shouting runs Shout then Exclaim.
func Shouting(ctx workflow.Context, s string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var shouted, exclaimed string
	if err := workflow.ExecuteActivity(ctx, Shout, s).Get(ctx, &shouted); err != nil {
		return "", err
	}
	err := workflow.ExecuteActivity(ctx, "Exclaim", shouted).Get(ctx, &exclaimed)
	return exclaimed, err
}

func (s *ParitySuite) TestAnActivityRegisteredTwiceIsAccepted() {
	s.NotPanics(func() {
		s.env.RegisterActivity(Shout)
		s.env.RegisterActivity(Shout)
		s.env.RegisterActivity(&Letters{Suffix: "?"})
		s.env.RegisterActivity(&Letters{Suffix: "!"}) // the later registration wins
	})
	s.env.RegisterWorkflow(Shouting)
	s.env.ExecuteWorkflow(Shouting, "hey")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("HEY!", got)
}

func (s *ParitySuite) TestAWorkflowRegisteredTwiceIsRefused() {
	s.env.RegisterWorkflow(Shouting)
	s.Panics(func() { s.env.RegisterWorkflow(Shouting) }, "as on a worker, a workflow type is registered once")
	// ExecuteWorkflow with the registered function is no second registration.
	s.env.RegisterActivity(Shout)
	s.env.RegisterActivity(&Letters{Suffix: "."})
	s.env.ExecuteWorkflow(Shouting, "hey")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("HEY.", got)
}
