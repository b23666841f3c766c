package parity

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/workflow"
)

// Greet is an activity whose result is a string.
func Greet(_ context.Context) (string, error) { return "hello", nil }

// GreetingChild is a child workflow whose result is a string.
func GreetingChild(_ workflow.Context) (string, error) { return "hello", nil }

// GetsTheWrongType gets the string result of an activity ("activity") or
// of a child ("child") into an int, and returns the error Get gave, as
// text, and whether it is converter.ErrUnableToDecode.
func GetsTheWrongType(ctx workflow.Context, from string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var n int
	var err error
	switch from {
	case "activity":
		err = workflow.ExecuteActivity(ctx, Greet).Get(ctx, &n)
	case "child":
		err = workflow.ExecuteChildWorkflow(ctx, GreetingChild).Get(ctx, &n)
	}
	if err == nil {
		return "decoded", nil
	}
	if !errors.Is(err, converter.ErrUnableToDecode) {
		return "not ErrUnableToDecode: " + err.Error(), nil
	}
	return err.Error(), nil
}

// Getting a result into the wrong type says so once: which payload, that
// it cannot be decoded, and the decoder's reason, which names the type
// (issue 32 item 7).
func (s *ParitySuite) TestAResultOfTheWrongTypeSaysSoOnce() {
	for _, from := range []string{"activity", "child"} {
		s.Run(from, func() {
			s.env = s.NewTestWorkflowEnvironment()
			s.env.RegisterActivity(Greet)
			s.env.RegisterWorkflow(GreetingChild)
			s.env.ExecuteWorkflow(GetsTheWrongType, from)
			s.Require().NoError(s.env.GetWorkflowError())
			var msg string
			s.Require().NoError(s.env.GetWorkflowResult(&msg))
			for _, part := range []string{"payload item 0", "unable to decode", "cannot unmarshal string into Go value of type int"} {
				s.Contains(msg, part)
			}
			s.Equal(1, strings.Count(msg, "decode"), "decode said more than once: %q", msg)
		})
	}
}
