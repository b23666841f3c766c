package resilience

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// TestWorkerRecoversFromNetworkFaults runs workflows through a worker
// whose connection to the server passes through a proxy that cuts it,
// stalls it and slows it down while the workflows run. The worker
// recovers by itself: every workflow completes with its result, no
// activity's success is accepted twice, and the logs say what happened.
func TestWorkerRecoversFromNetworkFaults(t *testing.T) {
	activities.reset()
	proxy := startFaultProxy(t, testharness.HostPort(t))
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{
		HostPort:          proxy.Addr(),
		Logger:            logs,
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(activities.countReports)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	starter := dialDirect(t)
	tq := unique(t, "tq")
	w := newMixedWorker(c, tq, worker.Options{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	// Every shape takes seconds, so that the faults find workflows in
	// every state: activities running, timers pending, signals arriving.
	ins := mixedInputs(100, 3*time.Second, 500*time.Millisecond)
	for i := range ins {
		ins[i].Timer += time.Duration(i%4) * time.Second
	}
	ids := startMixed(t, starter, tq, unique(t, "wf"), ins, client.StartWorkflowOptions{})
	faults := runFaults(proxy)
	elapsed := requireResults(t, starter, ids, ins, 3*time.Minute)
	done := faults()
	// The last fault may have cut the connection a moment ago.
	waitUntil(t, 10*time.Second, "the worker's reconnection after the last fault", func() bool {
		return logs.count("reconnected to the Temporal server") == logs.count("lost the connection to the Temporal server")
	})
	w.Stop()
	requireOneCompletionPerActivity(t, starter, ids, activities.ran)

	f := activities.figures()
	t.Logf("%d workflows completed in %v through faults %v; %d connections; activities: %d, %d runs to success, %d run more than once, %d success reports accepted, %d report attempts failed",
		len(ids), elapsed.Round(time.Millisecond), done, proxy.Connections(), f.Activities, f.Runs, f.Retried, f.Accepted, f.FailedReports)
	if f.AcceptedTwice > 0 {
		t.Errorf("%d activities had their success accepted twice", f.AcceptedTwice)
	}
	// What the server cannot check: the worker reports every success it
	// had (a worker that is not killed loses none), and no other.
	if f.ReportedWithoutSuccess > 0 || f.SucceededUnreported > 0 {
		t.Errorf("the worker reported %d successes its activities did not have, and left %d successes unreported",
			f.ReportedWithoutSuccess, f.SucceededUnreported)
	}
	// The logs say what happened: each lost connection (a warning when
	// reconnecting took a while, a debug line when a new connection
	// replaced it at once), each recovery, and each report the server
	// refused, with why it may have.
	if logs.count("lost the connection to the Temporal server")+logs.count("closed and was replaced at once") == 0 {
		t.Error("no lost connection was logged")
	}
	for _, line := range logs.all() {
		t.Log(line)
		// A poll in flight on a connection the proxy cuts fails with the
		// transport's error, and the poller says so as it retries.
		cutPoll := strings.Contains(line, "polling failed; retrying") && strings.Contains(line, "error reading from server")
		if strings.Contains(line, "ERROR") || (strings.Contains(line, "WARN") && !strings.Contains(line, "lost the connection") &&
			!strings.Contains(line, "the server refused") && !strings.Contains(line, "activity ran past its deadline") && !cutPoll) {
			t.Errorf("unexpected log line: %s", line)
		}
	}
}

// runFaults damages the proxy's connections in the background, in a
// cycle of faults, until the returned function is called; that function
// returns the faults applied, counted by kind.
func runFaults(p *faultProxy) func() map[string]int {
	stop := make(chan struct{})
	finished := make(chan map[string]int)
	go func() {
		done := map[string]int{}
		cycle := []struct {
			after time.Duration
			what  string
			apply func()
		}{
			{time.Second, "cut", func() { p.Cut() }},
			{time.Second, "stalled 2s", func() { p.Stall(2 * time.Second) }},
			{3 * time.Second, "slowed to 50ms a chunk for 2s", func() { p.Slow(50 * time.Millisecond) }},
			{2 * time.Second, "cut", func() { p.Slow(0); p.Cut() }},
			{300 * time.Millisecond, "cut", func() { p.Cut() }},
			{time.Second, "stalled 1s, then cut", func() { p.Stall(time.Second) }},
			{time.Second, "", func() { p.Cut() }},
		}
		for {
			for _, step := range cycle {
				select {
				case <-time.After(step.after):
				case <-stop:
					p.Slow(0)
					finished <- done
					return
				}
				step.apply()
				if step.what != "" {
					done[step.what]++
				}
			}
		}
	}()
	return func() map[string]int {
		close(stop)
		return <-finished
	}
}
