package main

import (
	"context"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
)

// TestOnTheEmbeddedServer runs what main runs, process's worker and
// workflow over 30 records, with a real client over gRPC against the
// embedded server, whose clock skips the children's sleeps: every record
// is counted once, across the parent's continues-as-new.
func TestOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{TimeSkipping: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c, err := client.Dial(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	total, err := process(ctx, c, "sliding-window-embedded", 30)
	if err != nil || total != 30 {
		t.Fatalf("total %d, %v; want 30", total, err)
	}
}
