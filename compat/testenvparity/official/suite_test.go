// Package parity holds tests of the test environment written as users of
// go.temporal.io/sdk write them (a testify suite, OnActivity mocks, delayed
// callbacks). The same source runs against both SDKs: ../official is this
// directory with the import prefix github.com/durable-go/sdk rewritten to
// go.temporal.io/sdk (regenerate with go test -run
// TestTestEnvParityIsOneSource -update . in ../..).
package parity

import (
	"testing"

	"github.com/stretchr/testify/suite"

	"go.temporal.io/sdk/testsuite"
)

// ParitySuite is a testify suite with a fresh test environment per test.
type ParitySuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
	env *testsuite.TestWorkflowEnvironment
}

func (s *ParitySuite) SetupTest() {
	s.env = s.NewTestWorkflowEnvironment()
}

func (s *ParitySuite) AfterTest(_, _ string) {
	s.env.AssertExpectations(s.T())
}

func TestParitySuite(t *testing.T) {
	suite.Run(t, new(ParitySuite))
}

// endsWithError runs fn, an ExecuteWorkflow that must end the test with
// an error: go.temporal.io/sdk's test environment panics on a test
// timeout, this SDK's returns the error from GetWorkflowError.
func (s *ParitySuite) endsWithError(fn func()) (failure any) {
	defer func() {
		if p := recover(); p != nil {
			failure = p
		}
	}()
	fn()
	if err := s.env.GetWorkflowError(); err != nil {
		return err
	}
	return nil
}
