package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/testsuite"
)

type HeartbeatSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestHeartbeat(t *testing.T) { suite.Run(t, new(HeartbeatSuite)) }

func (s *HeartbeatSuite) SetupTest() { itemDuration = time.Millisecond }

// The retry of a crashed attempt resumes from its last heartbeat.
func (s *HeartbeatSuite) TestTheRetryResumesFromTheLastHeartbeat() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(ProcessItems)

	env.ExecuteWorkflow(RunJob, Job{Items: 20, CrashAfter: 12})

	s.True(env.IsWorkflowCompleted())
	var progress Progress
	s.NoError(env.GetWorkflowResult(&progress))
	s.Equal(Progress{ResumedAt: 12, Done: 20, Attempt: 2}, progress)
}

// The activity on its own: given heartbeat details, as a retry is, it
// starts from them.
func (s *HeartbeatSuite) TestTheActivityStartsFromTheHeartbeatDetails() {
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(ProcessItems)
	env.SetHeartbeatDetails(7)

	result, err := env.ExecuteActivity(ProcessItems, Job{Items: 10})

	s.NoError(err)
	var progress Progress
	s.NoError(result.Get(&progress))
	s.Equal(7, progress.ResumedAt)
	s.Equal(10, progress.Done)
}
