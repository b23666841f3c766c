// Package typedtest is the typed API of the test environment
// (testsuite.TestWorkflowEnvironment), for workflows written with package
// typed or not:
//
//	func (s *GreetingSuite) TestWithAMockedActivity() {
//		env := s.NewTestWorkflowEnvironment()
//		typedtest.OnActivity(env, Greet, "Temporal").Return("Hi!", nil).Once() // Return(42, nil) would not compile
//		greeting, err := typedtest.ExecuteWorkflow(env, Greeting, "Temporal")
//		s.NoError(err)
//		s.Equal("Hi!", greeting)
//		env.AssertExpectations(s.T())
//	}
//
// ExecuteWorkflow runs a workflow and returns its result as its function's
// type; OnActivity sets an expectation whose Return takes the activity's
// result types (the activity's context matches anything, the other
// arguments match values or testify matchers), and OnWorkflow one for a
// child workflow, whose Return takes the child's:
//
//	typedtest.OnWorkflow(env, ShipParcel, "books").Return("T-1", nil)
//
// SignalWorkflow, QueryWorkflow and UpdateWorkflow take the definitions of
// package typed. Like package typed, the calls come in one form per shape
// of function (ExecuteWorkflow2, OnActivityNoResult, OnWorkflow3, ...).
// Each is the untyped call of the same name underneath: what the
// environment does, and the history it writes, are the same.
//
// CompareHistories tells whether two runs wrote the same history: run a
// workflow's old and new forms (say, before and after moving it to
// package typed), registered under one name, and compare
// env.GetHistory() of each.
package typedtest
