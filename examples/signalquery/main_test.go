package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/temporaltest"
)

// TestTheExampleRunsOnTheEmbeddedServer runs the example as main does, a
// real worker and client over gRPC, against the embedded server: the
// query, sent after the three signals, sees the three items, as on a
// Temporal server.
func TestTheExampleRunsOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	if err := run(ctx, srv.HostPort(), &out); err != nil {
		t.Fatal(err)
	}
	const want = "in the cart: [apples bread coffee]\n" +
		"checked out: [apples bread coffee]\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}
}
