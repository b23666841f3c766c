package main

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
)

type SignUpSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestSignUp(t *testing.T) { suite.Run(t, new(SignUpSuite)) }

func (s *SignUpSuite) TestRunsTheLocalActivities() {
	env := s.NewTestWorkflowEnvironment()
	var ran []string
	env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		ran = append(ran, info.ActivityType.Name)
	})

	env.ExecuteWorkflow(SignUp, "Ada.Lovelace@Example.com")

	var userID string
	s.NoError(env.GetWorkflowResult(&userID))
	s.Equal("user-ada.lovelace", userID)
	s.Equal([]string{"NormalizeEmail", "CreateUser"}, ran)
}

// OnActivity mocks local activities as it mocks regular ones.
func (s *SignUpSuite) TestWithAMockedLocalActivity() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(CreateUser, mock.Anything, "grace@example.com").Return("user-42", nil).Once()

	env.ExecuteWorkflow(SignUp, "Grace@Example.com")

	var userID string
	s.NoError(env.GetWorkflowResult(&userID))
	s.Equal("user-42", userID)
	env.AssertExpectations(s.T())
}

func (s *SignUpSuite) TestABadAddressFailsWithoutRetries() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(CreateUser, mock.Anything, mock.Anything).Return("", nil).Never()
	attempts := 0
	env.SetOnLocalActivityStartedListener(func(*activity.Info, context.Context, []any) { attempts++ })

	env.ExecuteWorkflow(SignUp, "not an address")

	var appErr *temporal.ApplicationError
	s.True(errors.As(env.GetWorkflowError(), &appErr), "got %v", env.GetWorkflowError())
	s.Equal("InvalidEmail", appErr.Type())
	s.Equal(1, attempts, "a non-retryable error is not retried")
	env.AssertExpectations(s.T())
}
