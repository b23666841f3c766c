//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time this process has used, all
// threads included (the garbage collector's too).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("getrusage: " + err.Error())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
