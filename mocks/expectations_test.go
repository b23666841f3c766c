package mocks_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/mocks"
)

// recordingT stands in for the *testing.T given to a mock's constructor, so a
// test can see the failures the mock reports without failing itself.
type recordingT struct {
	logs     []string
	errors   []string
	cleanups []func()
}

func (r *recordingT) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// errFailNow is what FailNow panics with: the real FailNow ends the test's
// goroutine, which would end this test too.
var errFailNow = fmt.Errorf("FailNow called")

func (r *recordingT) FailNow() { panic(errFailNow) }

func (r *recordingT) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// endTest runs the cleanups as the end of a test does, last registered first.
func (r *recordingT) endTest() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestConstructorChecksExpectationsWhenTheTestEnds(t *testing.T) {
	rt := &recordingT{}
	c := mocks.NewClient(rt)
	c.On("CancelWorkflow", mock.Anything, "wf-1", "").Return(nil).Once()
	c.On("Close").Return().Once()
	c.Close()

	rt.endTest()
	require.Len(t, rt.errors, 1, "one expectation was not met")
	require.Contains(t, rt.errors[0], "1 out of 2 expectation(s) were met")
	// The log names the expectations that were not met, and only those.
	logs := strings.Join(rt.logs, "\n")
	require.Contains(t, logs, "FAIL:\tCancelWorkflow(")
	require.NotContains(t, logs, "Close")
}

func TestConstructorReportsNothingWhenEveryExpectationIsMet(t *testing.T) {
	rt := &recordingT{}
	c := mocks.NewClient(rt)
	c.On("CancelWorkflow", mock.Anything, "wf-1", "").Return(nil).Once()
	require.NoError(t, c.CancelWorkflow(t.Context(), "wf-1", ""))

	rt.endTest()
	require.Empty(t, rt.errors)
}

func TestUnexpectedCallFailsTheTestNamingTheMethod(t *testing.T) {
	rt := &recordingT{}
	run := mocks.NewWorkflowRun(rt)
	run.On("GetID").Return("wf-1")

	require.PanicsWithValue(t, errFailNow, func() { run.GetRunID() })
	require.Len(t, rt.errors, 1)
	require.True(t, strings.Contains(rt.errors[0], "GetRunID"), "error should name the call: %s", rt.errors[0])
}

func TestExpectationWithoutReturnValuesPanicsNamingTheMethod(t *testing.T) {
	run := &mocks.WorkflowRun{}
	run.On("GetID")
	require.PanicsWithValue(t, "no return value specified for GetID", func() { run.GetID() })
}

func TestMockMadeWithoutConstructorChecksOnlyWhenAsked(t *testing.T) {
	c := &mocks.Client{}
	c.On("TerminateWorkflow", mock.Anything, "wf-1", "", "stuck").Return(nil).Once()
	var terminator client.Client = c
	require.NoError(t, terminator.TerminateWorkflow(t.Context(), "wf-1", "", "stuck"))
	c.AssertExpectations(t)

	rt := &recordingT{}
	c.On("TerminateWorkflow", mock.Anything, "wf-2", "", "stuck").Return(nil).Once()
	require.False(t, c.AssertExpectations(rt), "the wf-2 expectation was not met")
	require.NotEmpty(t, rt.errors)
}
