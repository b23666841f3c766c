package sysinfo_test

import (
	"os"
	"testing"

	"github.com/durable-go/sdk/contrib/sysinfo"
	"github.com/durable-go/sdk/worker"
)

func TestProviderIsSharedAndMeasures(t *testing.T) {
	p := sysinfo.SysInfoProvider()
	if p != sysinfo.SysInfoProvider() {
		t.Error("two providers; want one shared")
	}
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc on this system")
	}
	ctx := &worker.SysInfoContext{}
	mem, err := p.MemoryUsage(ctx)
	if err != nil || mem <= 0 || mem > 1 {
		t.Errorf("memory usage %v, error %v; want a fraction above 0", mem, err)
	}
	cpu, err := p.CpuUsage(ctx)
	if err != nil || cpu < 0 || cpu > 1 {
		t.Errorf("CPU usage %v, error %v; want a fraction", cpu, err)
	}
	if _, err := worker.NewResourceBasedTuner(worker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, InfoSupplier: p}); err != nil {
		t.Fatal(err)
	}
}
