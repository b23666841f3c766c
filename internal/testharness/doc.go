// Package testharness gives a package's integration tests one Temporal dev
// server for the whole test binary: call Main from TestMain, then HostPort
// and Namespace from tests.
//
// The server is durable-devserver (Temporal server 1.32.1, built from
// cmd/durable-devserver), or the Temporal CLI's dev server (server 1.29.1)
// with DURABLE_TEST_SERVER=1.29; see devserver.FindTestServer. With
// DURABLE_TEST_SERVER=embedded the tests run against the embedded server
// (package temporaltest) instead: no binary, no process, for the tests
// that need nothing it lacks (visibility, schedules, search attributes
// registered on the server, dynamic config; see
// docs/guide/embedded-server.md).
//
// Integration tests are not optional: without the server binary the run
// fails with instructions to install it, unless DURABLE_SKIP_INTEGRATION=1
// is set, in which case tests that need the server skip. They skip too
// when the binary runs with -fuzz: fuzz targets need no server, and each
// fuzzing worker process would otherwise start one.
//
//	func TestMain(m *testing.M) { testharness.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		conn, err := rpc.Dial(ctx, rpc.Options{HostPort: testharness.HostPort(t)})
//		...
//	}
package testharness
