//go:build !unix

package main

import "time"

// processCPU needs getrusage; this benchmark runs on Unix only.
func processCPU() time.Duration {
	panic("the side-by-side benchmark measures CPU with getrusage and runs on Unix only")
}

func threadSleeps() uint64   { return 0 }
func readWriteCalls() uint64 { return 0 }
func residentBytes() uint64  { return 0 }
