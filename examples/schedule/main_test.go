package main

import (
	"context"
	"testing"
)

// TestTheSampleRunsOnTheEmbeddedServer runs the sample as `go run
// ./examples/schedule -embedded` does: a real worker and client, over
// gRPC, against the embedded server, whose schedule takes the triggered
// action.
func TestTheSampleRunsOnTheEmbeddedServer(t *testing.T) {
	if err := run(context.Background(), "", true); err != nil {
		t.Fatal(err)
	}
}
