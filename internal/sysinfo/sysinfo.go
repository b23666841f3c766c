// Package sysinfo measures how much of the memory and CPU available to
// this process is in use, as fractions between 0 and 1, for the
// resource-based worker tuner.
//
// Inside a container (a cgroup with a memory limit or a CPU quota) it
// measures the container against its limits; otherwise the whole machine.
// It reads cgroup v2, then cgroup v1, then /proc/meminfo and /proc/stat,
// so it works on Linux; elsewhere it returns an error that says to supply
// another provider.
package sysinfo

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// cpuWindow is the shortest interval CPU usage is measured over: calls
// closer together than this return the previous measurement.
const cpuWindow = 100 * time.Millisecond

// Reader measures memory and CPU usage. It is safe for concurrent use.
type Reader struct {
	root   string // "/" but for tests
	numCPU int
	now    func() time.Time
	sleep  func(time.Duration)

	mu       sync.Mutex
	prev     cpuSample // the last sample, zero before the first
	cpuUsage float64   // measured between the last two samples
}

// cpuSample is CPU time used (busy) out of CPU time available (total),
// both in the same unit, at a moment.
type cpuSample struct {
	at          time.Time
	busy, total float64
}

// New returns a reader of this machine's or container's usage.
func New() *Reader {
	return &Reader{root: "/", numCPU: runtime.NumCPU(), now: time.Now, sleep: time.Sleep}
}

// MemoryUsage is the fraction of memory in use: of the cgroup's limit when
// it has one below the machine's memory, else of the machine's memory.
// Page cache the kernel can reclaim (inactive files) does not count.
func (r *Reader) MemoryUsage() (float64, error) {
	total, available, err := r.meminfo()
	if err != nil {
		return 0, err
	}
	if used, limit, ok := r.cgroupMemory(); ok && limit < total {
		return clamp(used / limit), nil
	}
	return clamp((total - available) / total), nil
}

// CPUUsage is the fraction of CPU time in use since the previous call (at
// least cpuWindow ago; a call sooner returns the previous value): of the
// cgroup's CPU quota when it has one below the machine's CPUs, else of the
// machine's CPUs. The first call waits cpuWindow to take two samples.
func (r *Reader) CPUUsage() (float64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prev.at.IsZero() {
		first, err := r.cpuSample()
		if err != nil {
			return 0, err
		}
		r.prev = first
		r.sleep(cpuWindow)
	} else if r.now().Sub(r.prev.at) < cpuWindow {
		return r.cpuUsage, nil
	}
	s, err := r.cpuSample()
	if err != nil {
		return 0, err
	}
	if d := s.total - r.prev.total; d > 0 {
		r.cpuUsage = clamp((s.busy - r.prev.busy) / d)
	}
	r.prev = s
	return r.cpuUsage, nil
}

// cpuSample reads the cgroup's CPU time against its quota, or the
// machine's from /proc/stat.
func (r *Reader) cpuSample() (cpuSample, error) {
	now := r.now()
	if usedSeconds, cpus, ok := r.cgroupCPU(); ok && cpus < float64(r.numCPU) {
		return cpuSample{at: now, busy: usedSeconds, total: cpus * float64(now.UnixNano()) / 1e9}, nil
	}
	busy, total, err := r.procStat()
	if err != nil {
		return cpuSample{}, err
	}
	return cpuSample{at: now, busy: busy, total: total}, nil
}

// meminfo reads the machine's total and available memory, in bytes.
func (r *Reader) meminfo() (total, available float64, err error) {
	f, err := os.Open(r.path("proc/meminfo"))
	if err != nil {
		return 0, 0, unsupported("memory", err)
	}
	defer f.Close()
	fields := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.Fields(rest + " 0")[0], 64); err == nil {
			fields[name] = v * 1024 // kB
		}
	}
	total, available = fields["MemTotal"], fields["MemAvailable"]
	if total <= 0 {
		return 0, 0, unsupported("memory", errors.New("/proc/meminfo has no MemTotal"))
	}
	return total, available, nil
}

// procStat reads the machine's busy and total CPU time, in clock ticks,
// from the first line of /proc/stat. Idle and I/O wait are not busy.
func (r *Reader) procStat() (busy, total float64, err error) {
	data, err := os.ReadFile(r.path("proc/stat"))
	if err != nil {
		return 0, 0, unsupported("CPU", err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	fields := strings.Fields(line)
	if len(fields) < 5 || fields[0] != "cpu" {
		return 0, 0, unsupported("CPU", fmt.Errorf("unexpected first line of /proc/stat: %q", line))
	}
	// user nice system idle iowait irq softirq steal; guest time is
	// counted in user already.
	for i, f := range fields[1:min(len(fields), 9)] {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return 0, 0, unsupported("CPU", fmt.Errorf("unexpected first line of /proc/stat: %q", line))
		}
		total += v
		if i != 3 && i != 4 {
			busy += v
		}
	}
	return busy, total, nil
}

// cgroupMemory reads the process's cgroup memory use and limit, in bytes;
// ok is false without a limit.
func (r *Reader) cgroupMemory() (used, limit float64, ok bool) {
	if dir, v2 := r.cgroupDir(""); v2 {
		limit, ok = r.readNumber(dir, "memory.max")
		if !ok {
			return 0, 0, false
		}
		current, ok := r.readNumber(dir, "memory.current")
		if !ok {
			return 0, 0, false
		}
		return max(current-r.statField(dir, "memory.stat", "inactive_file"), 0), limit, limit > 0
	}
	dir, _ := r.cgroupDir("memory")
	if dir == "" {
		return 0, 0, false
	}
	limit, ok = r.readNumber(dir, "memory.limit_in_bytes")
	if !ok {
		return 0, 0, false
	}
	usage, ok := r.readNumber(dir, "memory.usage_in_bytes")
	if !ok {
		return 0, 0, false
	}
	return max(usage-r.statField(dir, "memory.stat", "total_inactive_file"), 0), limit, limit > 0
}

// cgroupCPU reads the CPU time the process's cgroup has used, in seconds,
// and its quota in CPUs; ok is false without a quota.
func (r *Reader) cgroupCPU() (usedSeconds, cpus float64, ok bool) {
	if dir, v2 := r.cgroupDir(""); v2 {
		data, err := os.ReadFile(filepath.Join(dir, "cpu.max"))
		if err != nil {
			return 0, 0, false
		}
		fields := strings.Fields(string(data))
		if len(fields) != 2 || fields[0] == "max" {
			return 0, 0, false
		}
		quota, err1 := strconv.ParseFloat(fields[0], 64)
		period, err2 := strconv.ParseFloat(fields[1], 64)
		if err1 != nil || err2 != nil || quota <= 0 || period <= 0 {
			return 0, 0, false
		}
		usage := r.statField(dir, "cpu.stat", "usage_usec")
		return usage / 1e6, quota / period, true
	}
	cpuDir, _ := r.cgroupDir("cpu")
	acctDir, _ := r.cgroupDir("cpuacct")
	if cpuDir == "" || acctDir == "" {
		return 0, 0, false
	}
	quota, ok1 := r.readNumber(cpuDir, "cpu.cfs_quota_us")
	period, ok2 := r.readNumber(cpuDir, "cpu.cfs_period_us")
	usage, ok3 := r.readNumber(acctDir, "cpuacct.usage")
	if !ok1 || !ok2 || !ok3 || quota <= 0 || period <= 0 {
		return 0, 0, false
	}
	return usage / 1e9, quota / period, true
}

// cgroupDir finds the directory of the process's cgroup: with controller
// "" the cgroup v2 one (v2 true when the process is in a v2 hierarchy with
// controllers), else the cgroup v1 directory of that controller ("" when
// there is none). Inside a container the process's cgroup path is often
// not mounted where /proc/self/cgroup says, but at the mount's root.
func (r *Reader) cgroupDir(controller string) (dir string, v2 bool) {
	data, err := os.ReadFile(r.path("proc/self/cgroup"))
	if err != nil {
		return "", false
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var mount string
		switch {
		case controller == "" && parts[0] == "0" && parts[1] == "":
			mount = r.path("sys/fs/cgroup")
			if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err != nil {
				return "", false // v1, or the v2 hierarchy holds no controllers
			}
		case controller != "" && hasController(parts[1], controller):
			mount = r.path("sys/fs/cgroup", controller)
		default:
			continue
		}
		for _, d := range []string{filepath.Join(mount, parts[2]), mount} {
			if _, err := os.Stat(d); err == nil {
				return d, controller == ""
			}
		}
		return "", false
	}
	return "", false
}

func hasController(list, controller string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == controller {
			return true
		}
	}
	return false
}

// readNumber reads a file holding one number; "max" and the values cgroup
// v1 uses for "no limit" (near the largest int64) read as absent.
func (r *Reader) readNumber(dir, name string) (float64, bool) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	if err != nil || v >= 1<<62 {
		return 0, false
	}
	return v, true
}

// statField reads one "name value" line of a cgroup stat file (0 if
// absent).
func (r *Reader) statField(dir, file, field string) float64 {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if name, value, ok := strings.Cut(line, " "); ok && name == field {
			v, _ := strconv.ParseFloat(strings.TrimSpace(value), 64)
			return v
		}
	}
	return 0
}

func (r *Reader) path(parts ...string) string {
	return filepath.Join(append([]string{r.root}, parts...)...)
}

func clamp(v float64) float64 { return min(max(v, 0), 1) }

func unsupported(what string, err error) error {
	return fmt.Errorf("sysinfo: cannot measure %s usage on this system (it reads cgroups and /proc, as on Linux): %w; "+
		"give the resource-based tuner a SysInfoProvider of your own (ResourceBasedTunerOptions.InfoSupplier)", what, err)
}
