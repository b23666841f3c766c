package sysinfo

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSystem is a directory tree laid out like / with the files the
// reader looks at, and a clock the test moves.
type fakeSystem struct {
	t    *testing.T
	root string
	now  time.Time
}

func newFakeSystem(t *testing.T, files map[string]string) *fakeSystem {
	f := &fakeSystem{t: t, root: t.TempDir(), now: time.Unix(1000, 0)}
	for name, content := range files {
		f.write(name, content)
	}
	return f
}

func (f *fakeSystem) write(name, content string) {
	p := filepath.Join(f.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeSystem) reader(numCPU int) *Reader {
	return &Reader{root: f.root, numCPU: numCPU, now: func() time.Time { return f.now }, sleep: func(d time.Duration) { f.now = f.now.Add(d) }}
}

const meminfo = "MemTotal:       1000000 kB\nMemFree:         100000 kB\nMemAvailable:    250000 kB\n"

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestMachineUsageFromProc(t *testing.T) {
	sys := newFakeSystem(t, map[string]string{
		"proc/meminfo":     meminfo,
		"proc/self/cgroup": "0::/\n",
		"proc/stat":        "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 50 0 50 350 50 0 0 0 0 0\n",
	})
	r := sys.reader(2)
	mem, err := r.MemoryUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "memory usage", mem, 0.75) // 750000 of 1000000 kB not available
	// The first call samples twice, cpuWindow apart; the file has not
	// changed in between: nothing was busy.
	cpu, err := r.CPUUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "first CPU usage", cpu, 0)
	// 300 busy ticks (user, system, irq) out of 400 since: 0.75. Idle and
	// I/O wait are not busy.
	sys.write("proc/stat", "cpu  250 0 200 750 150 50 0 0 0 0\n")
	sys.now = sys.now.Add(time.Second)
	if cpu, err = r.CPUUsage(); err != nil {
		t.Fatal(err)
	}
	near(t, "CPU usage", cpu, 0.75)
	// Within the window, the last measurement stands.
	sys.write("proc/stat", "cpu  250 0 200 1750 150 50 0 0 0 0\n")
	sys.now = sys.now.Add(cpuWindow / 2)
	if cpu, _ = r.CPUUsage(); cpu != 0.75 {
		t.Errorf("CPU usage %v within the window, want the previous 0.75", cpu)
	}
}

func TestCgroupV2LimitsCountInsteadOfTheMachine(t *testing.T) {
	sys := newFakeSystem(t, map[string]string{
		"proc/meminfo":                            meminfo,
		"proc/self/cgroup":                        "0::/pod/worker\n",
		"proc/stat":                               "cpu  100 0 100 700 100 0 0 0 0 0\n",
		"sys/fs/cgroup/cgroup.controllers":        "cpu memory\n",
		"sys/fs/cgroup/pod/worker/memory.max":     "204800000\n",
		"sys/fs/cgroup/pod/worker/memory.current": "112400000\n",
		"sys/fs/cgroup/pod/worker/memory.stat":    "anon 100000000\ninactive_file 10000000\nactive_file 2400000\n",
		"sys/fs/cgroup/pod/worker/cpu.max":        "50000 100000\n",
		"sys/fs/cgroup/pod/worker/cpu.stat":       "usage_usec 1000000\nuser_usec 800000\n",
	})
	r := sys.reader(4)
	mem, err := r.MemoryUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "memory usage", mem, 0.5) // (112.4M - 10M inactive files) of 204.8M
	if _, err := r.CPUUsage(); err != nil {
		t.Fatal(err)
	}
	// Half a CPU of quota; 0.2 s of CPU time used in 1 s: 0.4 of it.
	sys.write("sys/fs/cgroup/pod/worker/cpu.stat", "usage_usec 1200000\n")
	sys.now = sys.now.Add(time.Second)
	cpu, err := r.CPUUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "CPU usage", cpu, 0.4)
}

func TestCgroupV2WithoutLimitsMeasuresTheMachine(t *testing.T) {
	sys := newFakeSystem(t, map[string]string{
		"proc/meminfo":                     meminfo,
		"proc/self/cgroup":                 "0::/\n",
		"proc/stat":                        "cpu  100 0 100 700 100 0 0 0 0 0\n",
		"sys/fs/cgroup/cgroup.controllers": "cpu memory\n",
		"sys/fs/cgroup/memory.max":         "max\n",
		"sys/fs/cgroup/memory.current":     "900000000\n",
		"sys/fs/cgroup/cpu.max":            "max 100000\n",
	})
	mem, err := sys.reader(2).MemoryUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "memory usage", mem, 0.75)
}

func TestCgroupV1LimitsInAContainer(t *testing.T) {
	// In a container the cgroup path of /proc/self/cgroup is not mounted:
	// the controller's mount root is the container's cgroup.
	sys := newFakeSystem(t, map[string]string{
		"proc/meminfo":     meminfo,
		"proc/self/cgroup": "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n",
		"proc/stat":        "cpu  100 0 100 700 100 0 0 0 0 0\n",
		"sys/fs/cgroup/memory/memory.limit_in_bytes": "409600000\n",
		"sys/fs/cgroup/memory/memory.usage_in_bytes": "120000000\n",
		"sys/fs/cgroup/memory/memory.stat":           "cache 30000000\ntotal_inactive_file 17600000\n",
		"sys/fs/cgroup/cpu/cpu.cfs_quota_us":         "150000\n",
		"sys/fs/cgroup/cpu/cpu.cfs_period_us":        "100000\n",
		"sys/fs/cgroup/cpuacct/cpuacct.usage":        "5000000000\n",
	})
	r := sys.reader(8)
	mem, err := r.MemoryUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "memory usage", mem, 0.25) // (120M - 17.6M) of 409.6M
	if _, err := r.CPUUsage(); err != nil {
		t.Fatal(err)
	}
	sys.write("sys/fs/cgroup/cpuacct/cpuacct.usage", "5750000000\n") // 0.75 s more
	sys.now = sys.now.Add(time.Second)
	cpu, err := r.CPUUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "CPU usage", cpu, 0.5) // of 1.5 CPUs
}

func TestCgroupV1WithoutLimitsMeasuresTheMachine(t *testing.T) {
	sys := newFakeSystem(t, map[string]string{
		"proc/meminfo":     meminfo,
		"proc/self/cgroup": "4:memory:/\n3:cpu,cpuacct:/\n",
		"proc/stat":        "cpu  100 0 100 700 100 0 0 0 0 0\n",
		"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		"sys/fs/cgroup/memory/memory.usage_in_bytes": "990000000\n",
		"sys/fs/cgroup/cpu/cpu.cfs_quota_us":         "-1\n",
		"sys/fs/cgroup/cpu/cpu.cfs_period_us":        "100000\n",
		"sys/fs/cgroup/cpuacct/cpuacct.usage":        "5000000000\n",
	})
	r := sys.reader(2)
	mem, err := r.MemoryUsage()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "memory usage", mem, 0.75)
	if _, err := r.CPUUsage(); err != nil {
		t.Fatal(err)
	}
	sys.write("proc/stat", "cpu  200 0 100 800 100 0 0 0 0 0\n")
	sys.now = sys.now.Add(time.Second)
	cpu, _ := r.CPUUsage()
	near(t, "CPU usage", cpu, 0.5)
}

func TestWithoutProcTheErrorSaysWhatToDo(t *testing.T) {
	r := newFakeSystem(t, nil).reader(2)
	_, err := r.MemoryUsage()
	if err == nil || !strings.Contains(err.Error(), "InfoSupplier") {
		t.Errorf("memory usage without /proc: error %v, want one naming InfoSupplier", err)
	}
	if _, err := r.CPUUsage(); err == nil || !strings.Contains(err.Error(), "InfoSupplier") {
		t.Errorf("CPU usage without /proc: error %v, want one naming InfoSupplier", err)
	}
}

// TestThisMachine reads the real system, where the test runs on Linux.
func TestThisMachine(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc on this system")
	}
	r := New()
	for what, read := range map[string]func() (float64, error){"memory": r.MemoryUsage, "CPU": r.CPUUsage} {
		v, err := read()
		if err != nil {
			t.Fatalf("%s usage: %v", what, err)
		}
		if v < 0 || v > 1 || (what == "memory" && v == 0) {
			t.Errorf("%s usage %v, want a fraction (memory above 0)", what, v)
		}
	}
}
