// Package testenv is the test environment behind package testsuite:
// TestWorkflowEnvironment runs workflows on the SDK's own worker runtime
// and engine against an in-memory server (internal/testserver), with
// testify mocks where the server would dispatch activities and children;
// TestActivityEnvironment runs activities through the worker's activity
// executor. Only package testsuite imports it, so that production
// binaries link neither it nor what it uses. It builds its worker as a
// worker does, with the root's wiring (internal/wiring.go) and
// internal/workerimpl's runtime options and plugin hooks; what only the
// root can do beyond that it reaches through internal.TestEnvSeam.
package testenv

import (
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// seam is the test environment's way into package internal.
var seam internal.TestEnvSeam

// WorkflowTestSuite makes test environments that share its logger,
// metrics handler, context propagators and header (testsuite.WorkflowTestSuite).
// Embed it in a testify suite.
type WorkflowTestSuite struct {
	mu          sync.Mutex
	logger      log.Logger
	metrics     sdkmetrics.Handler
	propagators []internal.ContextPropagator
	header      *commonpb.Header
	noAliasing  bool
	replayCheck *bool // nil: the default (see replayCheckFor)
}

// NewTestWorkflowEnvironment returns a new environment to run one workflow
// in, on the SDK's own engine and an in-memory server.
func (s *WorkflowTestSuite) NewTestWorkflowEnvironment() *TestWorkflowEnvironment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return newTestWorkflowEnvironment(s)
}

// NewTestActivityEnvironment returns a new environment to run activities
// in.
func (s *WorkflowTestSuite) NewTestActivityEnvironment() *TestActivityEnvironment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return newTestActivityEnvironment(s)
}

// SetLogger sets the logger of environments made after it. A call of it
// that panics is dropped (the first reported on stderr), as a worker drops
// it.
func (s *WorkflowTestSuite) SetLogger(logger log.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logger = logger
}

// GetLogger returns the suite's logger (the default logger when none was
// set).
func (s *WorkflowTestSuite) GetLogger() log.Logger {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logger == nil {
		s.logger = logging.NewDefaultLogger()
	}
	return s.logger
}

// SetMetricsHandler sets the metrics handler of environments made after it.
func (s *WorkflowTestSuite) SetMetricsHandler(metricsHandler sdkmetrics.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.metrics = metricsHandler
}

// SetContextPropagators sets the context propagators of environments made
// after it.
func (s *WorkflowTestSuite) SetContextPropagators(propagators []internal.ContextPropagator) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.propagators = propagators
}

// SetHeader sets the header that workflows and activities of environments
// made after it start with.
func (s *WorkflowTestSuite) SetHeader(header *commonpb.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.header = header
}

// SetDisableRegistrationAliasing sets, for the environments made after
// it, whether a function registered under a name of its own stays callable
// by function (the default, as on a worker) or only by that name (see
// WorkerOptions.DisableRegistrationAliasing).
func (s *WorkflowTestSuite) SetDisableRegistrationAliasing(disable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noAliasing = disable
}

// testSuiteDefaults are what an environment takes from its suite.
type testSuiteDefaults struct {
	logger      log.Logger
	metrics     sdkmetrics.Handler
	propagators []internal.ContextPropagator
	header      *commonpb.Header
	noAliasing  bool
	replayCheck bool
}

// newRegistry is the registry of an environment of the suite.
func (d testSuiteDefaults) newRegistry() *registry.Registry {
	r := registry.New()
	if d.noAliasing {
		r.DisableAliasing()
	}
	return r
}

func (s *WorkflowTestSuite) defaults() testSuiteDefaults {
	logger := s.logger
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	// A logger that panics must not end the test binary from the worker's
	// goroutines, nor fail workflow tasks, as with a worker's logger.
	logger = logging.NewPanicSafeLogger(logger)
	metrics := s.metrics
	if metrics == nil {
		metrics = sdkmetrics.NopHandler
	}
	return testSuiteDefaults{logger: logger, metrics: metrics, propagators: s.propagators, header: s.header, noAliasing: s.noAliasing,
		replayCheck: replayCheckFor(s.replayCheck)}
}

// The defaults of the test environment, as in go.temporal.io/sdk.
const (
	testNamespace      = "default-test-namespace"
	testTaskQueue      = "default-test-taskqueue"
	testWorkflowID     = "default-test-workflow-id"
	testRunID          = "default-test-run-id"
	testIdentity       = "test-identity"
	defaultTestTimeout = 3 * time.Second
	// testWorkflowTaskTimeout stands in when SetStartWorkflowOptions sets
	// none; it bounds how long a local activity's retry waits inside the
	// task before it becomes a timer on the virtual clock.
	testWorkflowTaskTimeout = time.Second
	// testMaximumActivityAttempts caps the attempts of an activity whose
	// retry policy sets none: a server retries it for ever, which on a
	// clock that skips ahead would spin without end.
	testMaximumActivityAttempts = 10
)

// testActivityRetryDefaults fills in an activity's retry policy as
// go.temporal.io/sdk's test environment does, before the server's own
// defaults apply: at most testMaximumActivityAttempts attempts, a 1s
// initial interval, a coefficient of 2, and a maximum interval equal to
// the initial one.
func testActivityRetryDefaults(p *commonpb.RetryPolicy) {
	if p.GetInitialInterval().AsDuration() <= 0 {
		p.InitialInterval = durationpb.New(time.Second)
	}
	if p.GetMaximumInterval().AsDuration() <= 0 {
		p.MaximumInterval = p.GetInitialInterval()
	}
	if p.GetBackoffCoefficient() == 0 {
		p.BackoffCoefficient = 2
	}
	if p.GetMaximumAttempts() == 0 {
		p.MaximumAttempts = testMaximumActivityAttempts
	}
}
