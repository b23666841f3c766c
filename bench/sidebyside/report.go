package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"
)

// Units of the figures.
const (
	unitDuration = "duration" // nanoseconds
	unitBytes    = "bytes"
	unitRate     = "rate" // per second
	unitCount    = "count"
)

// metric is one line of the report.
type metric struct {
	key    string
	label  string
	unit   string
	target *target // nil: for information
}

// target bounds the ratio ours/official: at most ratio (less is better)
// or at least ratio (more is better).
type target struct {
	atMost bool
	ratio  float64
}

func (t *target) String() string {
	if t == nil {
		return ""
	}
	if t.atMost {
		return fmt.Sprintf("<= %.2f", t.ratio)
	}
	return fmt.Sprintf(">= %.2f", t.ratio)
}

func (t *target) met(ratio float64) bool {
	if math.IsNaN(ratio) || math.IsInf(ratio, 0) {
		return false
	}
	if t.atMost {
		return ratio <= t.ratio
	}
	return ratio >= t.ratio
}

const rowFormat = "%-12s %-28s %12s %12s %8s  %-8s %s\n"

// miss is a target missed in a round.
type miss struct {
	workload workload
	metric   metric
	ratio    float64
}

// runRound runs every workload with both SDKs and prints its lines; it
// reports whether everything ran (missed targets are not failures).
func (b *bench) runRound(ctx context.Context, round int) bool {
	order := []string{sideOurs, sideOfficial}
	if round%2 == 0 {
		order = []string{sideOfficial, sideOurs}
	}
	fmt.Fprintf(b.stdout, "\nround %d of %d (%s first in every workload)\n", round, b.cfg.rounds, order[0])
	fmt.Fprintf(b.stdout, rowFormat, "workload", "metric", "ours", "official", "ratio", "target", "met")
	ok := true
	var met, targets int
	var misses []miss
	for _, w := range b.workloads() {
		figs := map[string]figures{}
		errs := map[string]error{}
		for _, side := range order {
			fmt.Fprintf(b.stderr, "sidebyside: round %d: %s: %s...\n", round, w.name, side)
			r := &sideRun{side: side, taskQueue: taskQueueName(round, w.name, side)}
			figs[side], errs[side] = b.runOne(ctx, w, r)
			if errs[side] != nil {
				ok = false
				fmt.Fprintf(b.stderr, "sidebyside: %s, %s: %v\n", w.name, side, errs[side])
			}
		}
		for _, m := range w.metrics {
			ours, official := figs[sideOurs], figs[sideOfficial]
			if errs[sideOurs] != nil || errs[sideOfficial] != nil {
				fmt.Fprintf(b.stdout, rowFormat, w.name, m.label, errCell(ours, m, errs[sideOurs]), errCell(official, m, errs[sideOfficial]), "-", m.target, errMark(m))
				if m.target != nil {
					targets++
				}
				continue
			}
			ratio := ours[m.key] / official[m.key]
			verdict := ""
			if m.target != nil {
				targets++
				if m.target.met(ratio) {
					met++
					verdict = "yes"
				} else {
					verdict = "NO"
					misses = append(misses, miss{w, m, ratio})
				}
			}
			ratioText := fmt.Sprintf("%.3f", ratio)
			if math.IsNaN(ratio) {
				ratioText = "-" // a figure not measured
			}
			fmt.Fprintf(b.stdout, rowFormat, w.name, m.label, format(ours[m.key], m.unit), format(official[m.key], m.unit),
				ratioText, m.target, verdict)
		}
		if ctx.Err() != nil {
			return false
		}
	}
	fmt.Fprintf(b.stdout, "round %d: %d of %d targets met", round, met, targets)
	if len(misses) > 0 {
		var names []string
		for _, m := range misses {
			names = append(names, fmt.Sprintf("%s %s (%.3f, target %s)", m.workload.name, m.metric.label, m.ratio, m.metric.target))
		}
		fmt.Fprintf(b.stdout, "; missed: %s", strings.Join(names, "; "))
	}
	fmt.Fprintln(b.stdout)
	if b.cfg.profileDir != "" && !b.profileRound(ctx, round, misses) {
		ok = false
	}
	return ok
}

// runOne runs one SDK's part of a workload within the timeout.
func (b *bench) runOne(ctx context.Context, w workload, r *sideRun) (figures, error) {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.timeout)
	defer cancel()
	return w.run(ctx, r)
}

// profileRound runs our side of every workload that missed a target once
// more, with the profile that shows where its time or memory goes (with
// -profile-all, every workload of the round, with each of its profiles),
// and prints where the profiles are.
func (b *bench) profileRound(ctx context.Context, round int, misses []miss) bool {
	type job struct {
		w    workload
		kind string
	}
	var jobs []job
	if b.cfg.profileAll {
		for _, w := range b.workloads() {
			for _, kind := range w.profiles {
				jobs = append(jobs, job{w, kind})
			}
		}
	} else {
		done := map[string]bool{}
		for _, m := range misses {
			if !done[m.workload.name] {
				done[m.workload.name] = true
				jobs = append(jobs, job{m.workload, m.workload.profiles[0]})
			}
		}
	}
	sides := []string{sideOurs}
	if b.cfg.profileOfficial {
		sides = append(sides, sideOfficial)
	}
	ok := true
	for _, j := range jobs {
		for _, side := range sides {
			if !b.profile(ctx, round, j.w, j.kind, side) {
				ok = false
			}
		}
	}
	return ok
}

// profile runs one side of a workload once more with a profile of kind.
func (b *bench) profile(ctx context.Context, round int, w workload, kind, side string) bool {
	base := filepath.Join(b.cfg.profileDir, fmt.Sprintf("r%d-%s-%s", round, strings.ReplaceAll(w.name, " ", "-"), side))
	r := &sideRun{side: side, taskQueue: taskQueueName(round, w.name+" "+kind+" profile", side)}
	var files []string
	switch kind {
	case "heap":
		r.heapProfile = base + ".heap.pprof"
		files = []string{r.heapProfile}
		if w.name == "memory" {
			files = append(files, strings.TrimSuffix(r.heapProfile, ".pprof")+".goroutines.txt")
		}
	default:
		r.cpuProfile = base + ".cpu.pprof"
		files = []string{r.cpuProfile}
	}
	fmt.Fprintf(b.stderr, "sidebyside: round %d: %s: %s again, with a %s profile...\n", round, w.name, side, kind)
	if _, err := b.runOne(ctx, w, r); err != nil {
		fmt.Fprintf(b.stderr, "sidebyside: profiling %s: %v\n", w.name, err)
		return false
	}
	fmt.Fprintf(b.stdout, "%s profile of %s, %s (an extra run, not measured): %s; see go tool pprof -top %s\n",
		kind, side, w.name, strings.Join(files, ", "), files[0])
	return true
}

func taskQueueName(round int, workload, side string) string {
	return fmt.Sprintf("sidebyside-r%d-%s-%s", round, strings.ReplaceAll(workload, " ", "-"), side)
}

func errCell(f figures, m metric, err error) string {
	if err != nil {
		return "error"
	}
	return format(f[m.key], m.unit)
}

func errMark(m metric) string {
	if m.target == nil {
		return ""
	}
	return "error"
}

// format prints a figure in its unit.
func format(v float64, unit string) string {
	if math.IsNaN(v) {
		return "-" // not measured
	}
	switch unit {
	case unitDuration:
		if v < 0 {
			// A difference of two figures (the nexus and versioning
			// workloads' added CPU) can be negative.
			return "-" + format(-v, unit)
		}
		d := time.Duration(v)
		switch {
		case d < time.Microsecond:
			return fmt.Sprintf("%dns", d.Nanoseconds())
		case d < time.Millisecond:
			return fmt.Sprintf("%.1fµs", v/1e3)
		case d < time.Second:
			return fmt.Sprintf("%.2fms", v/1e6)
		default:
			return fmt.Sprintf("%.2fs", v/1e9)
		}
	case unitBytes:
		if math.Abs(v) < 1024 {
			return fmt.Sprintf("%.0f B", v)
		}
		if math.Abs(v) < 1024*1024 {
			return fmt.Sprintf("%.1f KiB", v/1024)
		}
		return fmt.Sprintf("%.1f MiB", v/(1024*1024))
	case unitRate:
		return fmt.Sprintf("%.1f/s", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
