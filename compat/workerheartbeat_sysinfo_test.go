package compat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	workerpb "go.temporal.io/api/worker/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// fixedUsage is a SysInfoProvider of each SDK that reports the same
// host: a quarter of the CPU, half of the memory.
type fixedUsage struct{}

func (fixedUsage) CpuUsage(*worker.SysInfoContext) (float64, error)    { return 0.25, nil }
func (fixedUsage) MemoryUsage(*worker.SysInfoContext) (float64, error) { return 0.5, nil }

type officialFixedUsage struct{}

func (officialFixedUsage) CpuUsage(*officialworker.SysInfoContext) (float64, error) {
	return 0.25, nil
}
func (officialFixedUsage) MemoryUsage(*officialworker.SysInfoContext) (float64, error) {
	return 0.5, nil
}

// TestWorkerHeartbeatsReportTheSysInfoProvidersUsage: with
// worker.Options.SysInfoProvider set, each SDK's heartbeats carry the
// host's CPU and memory use as the provider measures them.
func TestWorkerHeartbeatsReportTheSysInfoProvidersUsage(t *testing.T) {
	hp, ns := testharness.HostPort(t), testharness.Namespace(t)
	usage := func(hb *workerpb.WorkerHeartbeat) string {
		return fmt.Sprintf("cpu %.2f, memory %.2f", hb.GetHostInfo().GetCurrentHostCpuUsage(), hb.GetHostInfo().GetCurrentHostMemUsage())
	}
	measured := func(hb *workerpb.WorkerHeartbeat) bool { return hb.GetHostInfo().GetCurrentHostCpuUsage() > 0 }
	stamp := time.Now().UnixNano()

	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Namespace: ns, Logger: quiet{}, WorkerHeartbeatInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	otq := fmt.Sprintf("sysinfo-official-%d", stamp)
	ow := officialworker.New(oc, otq, officialworker.Options{SysInfoProvider: officialFixedUsage{}})
	ow.RegisterActivity(HeartbeatActivity)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	official := usage(workerSeen(t, oc.WorkflowService(), ns, otq, measured))

	c, err := client.Dial(client.Options{HostPort: hp, Namespace: ns, Logger: quiet{}, WorkerHeartbeatInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("sysinfo-ours-%d", stamp)
	w := worker.New(c, tq, worker.Options{SysInfoProvider: fixedUsage{}})
	w.RegisterActivity(HeartbeatActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ours := usage(workerSeen(t, c.WorkflowService(), ns, tq, measured))

	if ours != official || official != "cpu 0.25, memory 0.50" {
		t.Errorf("the host's usage in heartbeats: ours %s, official %s; want cpu 0.25, memory 0.50 on both", ours, official)
	}
}

// TestASysInfoProviderOtherThanTheTunersPanics: a resource-based tuner
// measures with its own provider; worker.Options.SysInfoProvider set to
// another makes both SDKs' worker.New panic, and the same one is taken.
func TestASysInfoProviderOtherThanTheTunersPanics(t *testing.T) {
	panicOf := func(f func()) (msg string) {
		defer func() {
			if p := recover(); p != nil {
				msg = fmt.Sprint(p)
			}
		}()
		f()
		return ""
	}
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1", Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	oc, err := officialclient.NewLazyClient(officialclient.Options{HostPort: "127.0.0.1:1", Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()

	var tunersOwn fixedUsage
	tuner, err := worker.NewResourceBasedTuner(worker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, InfoSupplier: tunersOwn})
	if err != nil {
		t.Fatal(err)
	}
	var officialTunersOwn officialFixedUsage
	officialTuner, err := officialworker.NewResourceBasedTuner(officialworker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, InfoSupplier: officialTunersOwn})
	if err != nil {
		t.Fatal(err)
	}

	ours := panicOf(func() { worker.New(c, "sysinfo", worker.Options{Tuner: tuner, SysInfoProvider: otherUsage{}}) })
	official := panicOf(func() {
		officialworker.New(oc, "sysinfo", officialworker.Options{Tuner: officialTuner, SysInfoProvider: officialOtherUsage{}})
	})
	if ours == "" || official == "" || !strings.Contains(ours, "SysInfoProvider") {
		t.Errorf("a provider other than the tuner's: ours panicked with %q, official with %q; want both to panic naming SysInfoProvider", ours, official)
	}
	ours = panicOf(func() { worker.New(c, "sysinfo", worker.Options{Tuner: tuner, SysInfoProvider: tunersOwn}) })
	official = panicOf(func() {
		officialworker.New(oc, "sysinfo", officialworker.Options{Tuner: officialTuner, SysInfoProvider: officialTunersOwn})
	})
	if ours != "" || official != "" {
		t.Errorf("the tuner's own provider: ours panicked with %q, official with %q; want neither to", ours, official)
	}
}

// otherUsage is a provider that is not the tuner's.
type otherUsage struct{ fixedUsage }

type officialOtherUsage struct{ officialFixedUsage }
