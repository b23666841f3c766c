package worker_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// A worker polling a namespace the server does not have gives up once the
// polls have failed for the grace period (shortened here from 2 minutes):
// OnFatalError receives the error once, and Run returns it.
func TestWorkerStopsOnANamespaceThatDoesNotExist(t *testing.T) {
	defer internal.SetFatalPollErrorGrace(time.Second)()
	c, err := client.NewLazyClient(client.Options{HostPort: testharness.HostPort(t), Namespace: unique(t, "no-such-namespace")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	var reported []error
	w := worker.New(c, unique(t, "tq"), worker.Options{OnFatalError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, err)
	}})
	w.RegisterWorkflow(heartbeatThrottleWorkflow)
	w.RegisterActivity(heartbeatsTwiceThenWaits)

	ran := make(chan error, 1)
	go func() { ran <- w.Run(make(chan any)) }()
	var runErr error
	select {
	case runErr = <-ran:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return within 30s of polls failing with NamespaceNotFound")
	}
	var notFound *serviceerror.NamespaceNotFound
	if !errors.As(runErr, &notFound) || !strings.Contains(runErr.Error(), "no-such-namespace") {
		t.Errorf("Run returned %v, want the NamespaceNotFound error", runErr)
	}
	// The hook runs on a goroutine of its own: Run may return first.
	var got []error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		got = append([]error(nil), reported...)
		mu.Unlock()
		if len(got) > 0 {
			break
		}
	}
	time.Sleep(100 * time.Millisecond) // a second call would come now
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0] != runErr {
		t.Errorf("OnFatalError received %v, want Run's error once", reported)
	}
}
