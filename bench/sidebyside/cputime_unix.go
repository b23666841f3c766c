//go:build unix

package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time this process has used, all
// threads included (the garbage collector's too).
func processCPU() time.Duration {
	ru := rusage()
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadSleeps counts the times a thread of this process gave up its CPU
// to wait (voluntary context switches): each is a goroutine hand-off that
// found no other work, a futex or epoll wait and a wake-up.
func threadSleeps() uint64 { return uint64(rusage().Nvcsw) }

func rusage() syscall.Rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("getrusage: " + err.Error())
	}
	return ru
}

// residentBytes is this process's resident set size, from /proc/self/statm
// (0 where there is none).
func residentBytes() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// readWriteCalls counts the read and write system calls of this process,
// from /proc/self/io (0 where there is none).
func readWriteCalls() uint64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return 0
	}
	defer f.Close()
	var n uint64
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		key, value, _ := strings.Cut(lines.Text(), ":")
		if key == "syscr" || key == "syscw" {
			v, _ := strconv.ParseUint(strings.TrimSpace(value), 10, 64)
			n += v
		}
	}
	return n
}
