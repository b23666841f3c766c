package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/durable-go/sdk/temporaltest"
)

// TestTheExampleServesItsMetricsOnTheEmbeddedServer runs the program as
// main does with -address, a real worker and client over gRPC, against
// the embedded server: it prints where it serves /metrics and the
// workflow's greeting, and the page has the official names; it stops
// serving when its context ends, as on Ctrl-C.
func TestTheExampleServesItsMetricsOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	serving, cancelServing := context.WithCancel(ctx)
	defer cancelServing()
	printed, out := io.Pipe()
	defer printed.Close() // a test that fails early must not leave run blocked writing
	done := make(chan error, 1)
	go func() {
		err := run(serving, srv.HostPort(), "127.0.0.1:0", out)
		out.CloseWithError(err) // ends the reading below if run failed early
		done <- err
	}()
	lines := bufio.NewScanner(printed)
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("the example stopped printing: %v", lines.Err())
		}
		return lines.Text()
	}

	serves := regexp.MustCompile(`^serving metrics at http://(127\.0\.0\.1:[0-9]+)/metrics$`).FindStringSubmatch(next())
	if serves == nil {
		t.Fatal("the example's first line does not say where it serves /metrics")
	}
	if greeting := next(); greeting != "Hello, Prometheus! - press Ctrl-C to stop" {
		t.Fatalf("the example printed %q after starting, want the workflow's greeting", greeting)
	}
	waitForTheOfficialNames(t, serves[1])

	cancelServing()
	if err := <-done; err != nil {
		t.Fatalf("the example ended with %v, want nil once its context ended", err)
	}
}
