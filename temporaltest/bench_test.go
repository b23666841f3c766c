package temporaltest_test

import (
	"testing"

	"github.com/durable-go/sdk/temporaltest"
)

// BenchmarkNewServer measures a server's start (to accepting connections)
// and stop, on a loopback port and in memory.
func BenchmarkNewServer(b *testing.B) {
	for _, inMemory := range []bool{false, true} {
		name := "loopback"
		if inMemory {
			name = "inMemory"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				srv, err := temporaltest.NewServer(temporaltest.ServerOptions{InMemory: inMemory})
				if err != nil {
					b.Fatal(err)
				}
				srv.Stop()
			}
		})
	}
}
