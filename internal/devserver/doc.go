// Package devserver runs the Temporal CLI's development server
// ("temporal server start-dev") as a child process for tests and local
// runs: it finds the binary, starts it on a free loopback port, waits until
// the frontend answers, and stops it again.
package devserver
