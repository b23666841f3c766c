// Package replay benchmarks replaying recorded histories with this SDK's
// replayer beside go.temporal.io/sdk's, on the same histories and the same
// workflow code, in one run:
//
//	cd bench/replay && go test -run '^$' -bench . -benchmem
package replay
