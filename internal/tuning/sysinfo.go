package tuning

import "github.com/durable-go/sdk/log"

// SysInfoProvider measures the use of the machine's memory and CPU, each a
// fraction between 0 and 1 (worker.SysInfoProvider).
type SysInfoProvider interface {
	// MemoryUsage is the fraction of memory in use.
	MemoryUsage(infoContext *SysInfoContext) (float64, error)
	// CpuUsage is the fraction of CPU time in use.
	CpuUsage(infoContext *SysInfoContext) (float64, error)
}

// SysInfoContext is passed to a SysInfoProvider's calls
// (worker.SysInfoContext).
type SysInfoContext struct {
	// Logger is the worker's logger.
	Logger log.Logger
}

// HasSysInfoProvider is a slot supplier that measures system resources
// and tells with which provider (worker.HasSysInfoProvider).
type HasSysInfoProvider interface {
	SysInfoProvider() SysInfoProvider
}
