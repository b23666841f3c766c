package workerimpl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/tuning"
)

func TestContradictoryTuningOptionsPanic(t *testing.T) {
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{})
	zero := 0
	for _, c := range []struct {
		opts internal.WorkerOptions
		want string
	}{
		{internal.WorkerOptions{Tuner: tuner, MaxConcurrentActivityExecutionSize: 5}, "Tuner"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskPollers: 4, WorkflowTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})}, "WorkflowTaskPollerBehavior"},
		{internal.WorkerOptions{MaxConcurrentActivityTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorSimpleMaximum(tuning.PollerBehaviorSimpleMaximumOptions{})}, "ActivityTaskPollerBehavior"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskPollers: 1}, "cannot be 1"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskExecutionSize: 1}, "cannot be 1"},
		{internal.WorkerOptions{ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{MinimumNumberOfPollers: 10, MaximumNumberOfPollers: 5})}, "exceeds"},
		{internal.WorkerOptions{MaxEagerActivityReservationsPerWorkflowTask: &zero}, "DisableEagerActivities"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), c.want) {
					t.Errorf("options %+v: panic %v, want one naming %q", c.opts, r, c.want)
				}
			}()
			checkTuning(c.opts)
		}()
	}
	checkTuning(internal.WorkerOptions{Tuner: tuner, MaxConcurrentWorkflowTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})})
}

func TestTuningOptionsAreCheckedAsPluginsLeaveThem(t *testing.T) {
	f := startFakeClientFrontend(t)
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{NumActivitySlots: 3})
	setsTuner := &tunerPlugin{tuner: tuner}
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{setsTuner}})
	if w.options.Tuner != tuner {
		t.Fatal("the worker does not have the tuner its plugin set")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "Tuner") {
			t.Errorf("panic %q, want one naming Tuner", r)
		}
	}()
	NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{MaxConcurrentActivityExecutionSize: 5, Plugins: []internal.WorkerPlugin{setsTuner}})
	t.Error("a plugin's tuner and the program's MaxConcurrentActivityExecutionSize together: no panic")
}

type tunerPlugin struct {
	internal.WorkerPluginBase
	tuner tuning.WorkerTuner
}

func (*tunerPlugin) Name() string { return "tuning" }

func (p *tunerPlugin) ConfigureWorker(_ context.Context, o internal.WorkerPluginConfigureWorkerOptions) error {
	o.WorkerOptions.Tuner = p.tuner
	return nil
}

// measuring is a SysInfoProvider that reports cpu and mem, or fails.
type measuring struct {
	cpu, mem float64
	fail     bool
}

func (m *measuring) CpuUsage(*tuning.SysInfoContext) (float64, error) {
	if m.fail {
		return 0, errors.New("no cgroup")
	}
	return m.cpu, nil
}

func (m *measuring) MemoryUsage(*tuning.SysInfoContext) (float64, error) { return m.mem, nil }

// measuredSlots is a workflow task slot supplier that measures with its
// provider, as a resource-based one does.
type measuredSlots struct {
	tuning.SlotSupplier
	provider tuning.SysInfoProvider
}

func (s measuredSlots) SysInfoProvider() tuning.SysInfoProvider { return s.provider }

type measuredTuner struct {
	tuning.WorkerTuner
	slots measuredSlots
}

func (t measuredTuner) GetWorkflowTaskSlotSupplier() tuning.SlotSupplier { return t.slots }

// TestTheHeartbeatsMeasureWithTheOptionsOrTheTunersProvider: the options'
// provider, else the tuner's, else none; a failed reading is 0.
func TestTheHeartbeatsMeasureWithTheOptionsOrTheTunersProvider(t *testing.T) {
	own, tunersOwn := &measuring{cpu: 0.1, mem: 0.2}, &measuring{cpu: 0.3, mem: 0.4}
	tuner := measuredTuner{slots: measuredSlots{provider: tunersOwn}}
	chk.Nil(t, sysInfoProvider(internal.WorkerOptions{}), "none")
	chk.Same(t, own, sysInfoProvider(internal.WorkerOptions{SysInfoProvider: own}))
	chk.Same(t, tunersOwn, sysInfoProvider(internal.WorkerOptions{Tuner: tuner}))
	chk.Same(t, tunersOwn, sysInfoProvider(internal.WorkerOptions{Tuner: tuner, SysInfoProvider: tunersOwn}))
	func() {
		defer func() {
			r := recover()
			chk.True(t, r != nil && strings.Contains(fmt.Sprint(r), "not the provider the Tuner measures with"), "conflict:", r)
		}()
		sysInfoProvider(internal.WorkerOptions{Tuner: tuner, SysInfoProvider: own})
	}()

	cpu, mem := hostUsage(own, logging.NewTextLogger(io.Discard, slog.LevelError))()
	chk.Equal(t, [2]float32{0.1, 0.2}, [2]float32{cpu, mem})
	var logged strings.Builder
	cpu, mem = hostUsage(&measuring{mem: 0.5, fail: true}, logging.NewTextLogger(&logged, slog.LevelWarn))()
	chk.Equal(t, [2]float32{0, 0.5}, [2]float32{cpu, mem}, "a failed reading is 0")
	chk.True(t, strings.Contains(logged.String(), "no cgroup"), "the failure is logged:", logged.String())
}
