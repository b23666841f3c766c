// Package sysinfo provides the memory and CPU measurements of resource-based
// worker tuning (worker.NewResourceBasedTuner), as go.temporal.io/sdk's
// contrib/sysinfo does, so that code using that package ports by its import
// path. Unlike that package it needs no library: it reads the process's
// cgroup (v2 or v1) on Linux, so that inside a container memory and CPU are
// measured against the container's limits, and otherwise /proc/meminfo and
// /proc/stat. On other systems its calls fail with an error saying to
// supply a provider of your own.
//
// It is part of the SDK's module; a resource-based tuner given no
// InfoSupplier uses the same measurements.
package sysinfo

import (
	"sync"

	"github.com/durable-go/sdk/internal/resourcetuner"
	"github.com/durable-go/sdk/worker"
)

var shared = sync.OnceValue(resourcetuner.DefaultSysInfoProvider)

// SysInfoProvider returns the process's provider, shared by every caller:
// CPU use is measured between calls, so one provider serves all tuners
// best.
func SysInfoProvider() worker.SysInfoProvider { return shared() }
