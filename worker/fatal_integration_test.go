package worker_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/internal/workerimpl"
	"github.com/durable-go/sdk/worker"
)

// A worker of a lazy client (which has not asked the server anything)
// whose namespace does not exist fails Start at once with the namespace
// error, as go.temporal.io/sdk's does, instead of retrying polls until the
// fatal error grace (2 minutes) runs out; Run returns that error, and
// OnFatalError, which reports errors after the start, is not called.
func TestWorkerStartFailsOnANamespaceThatDoesNotExist(t *testing.T) {
	c, err := client.NewLazyClient(client.Options{HostPort: testharness.HostPort(t), Namespace: unique(t, "no-such-namespace")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	var reported []error
	newWorker := func() worker.Worker {
		w := worker.New(c, unique(t, "tq"), worker.Options{OnFatalError: func(err error) {
			mu.Lock()
			defer mu.Unlock()
			reported = append(reported, err)
		}})
		w.RegisterWorkflow(heartbeatThrottleWorkflow)
		w.RegisterActivity(heartbeatsTwiceThenWaits)
		return w
	}
	isNamespaceError := func(err error) bool {
		var notFound *serviceerror.NamespaceNotFound
		return errors.As(err, &notFound) && strings.Contains(err.Error(), "no-such-namespace")
	}

	w := newWorker()
	if err := w.Start(); !isNamespaceError(err) {
		t.Errorf("Start returned %v, want the NamespaceNotFound error", err)
	}
	w.Stop()

	ran := make(chan error, 1)
	go func() { ran <- newWorker().Run(make(chan any)) }()
	select {
	case err := <-ran:
		if !isNamespaceError(err) {
			t.Errorf("Run returned %v, want the NamespaceNotFound error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return within 30s on a namespace that does not exist")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 0 {
		t.Errorf("OnFatalError received %v; a start that fails is reported by Start and Run only", reported)
	}
}

// A worker whose polls fail with an error retrying will not cure (here a
// task queue name longer than the server allows, which the start does
// not check) gives up once they have failed for the grace period
// (shortened here from 2 minutes): OnFatalError receives the error once,
// and Run returns it.
func TestWorkerStopsWhenPollsFailForGood(t *testing.T) {
	c := dial(t)
	var mu sync.Mutex
	var reported []error
	w := worker.New(c, strings.Repeat("q", 2000), worker.Options{OnFatalError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, err)
	}})
	workerimpl.SetFatalPollErrorGrace(w.(*workerimpl.AggregatedWorker), time.Second)
	w.RegisterWorkflow(heartbeatThrottleWorkflow)

	ran := make(chan error, 1)
	go func() { ran <- w.Run(make(chan any)) }()
	var runErr error
	select {
	case runErr = <-ran:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return within 30s of polls failing with InvalidArgument")
	}
	var invalid *serviceerror.InvalidArgument
	if !errors.As(runErr, &invalid) {
		t.Errorf("Run returned %v, want the server's InvalidArgument error", runErr)
	}
	// The hook runs on a goroutine of its own: Run may return first.
	waitFor(t, "OnFatalError", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(reported) > 0
	})
	time.Sleep(100 * time.Millisecond) // a second call would come now
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0] != runErr {
		t.Errorf("OnFatalError received %v, want Run's error once", reported)
	}
}
