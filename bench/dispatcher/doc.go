// Package dispatcher compares the cost of switching between workflow
// coroutines in this SDK and in the official Go SDK (go.temporal.io/sdk),
// on the same program: two coroutines passing a value back and forth over
// an unbuffered workflow channel. It is a separate module so that the
// official SDK never becomes a dependency of this one.
//
// Run it with:
//
//	cd bench/dispatcher && go test -bench . -benchtime 2s
//
// One op is one round trip (ping and pong), that is two coroutine
// switches; the switch/op metric is the cost of one switch.
package dispatcher
