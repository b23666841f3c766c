package main

import (
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/testsuite"
)

// The schedule only starts TeamReport; the workflow is tested like any
// other, and the schedule itself by running the sample on the embedded
// server (main_test.go).
type TeamReportSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestTeamReport(t *testing.T) { suite.Run(t, new(TeamReportSuite)) }

func (s *TeamReportSuite) TestReportsTheOpenTickets() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(CountOpenTickets, mock.Anything, "platform").Return(3, nil).Once()

	env.ExecuteWorkflow(TeamReport, "platform")

	var report string
	s.NoError(env.GetWorkflowResult(&report))
	s.Equal("platform has 3 open tickets", report)
	env.AssertExpectations(s.T())
}
