package testserver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"time"

	schedulepb "go.temporal.io/api/schedule/v1"
	"google.golang.org/protobuf/proto"
)

// scheduleSpec is a schedule's spec compiled: the times it names, in its
// time zone, less its exclusions, within its start and end times, each
// delayed by its jitter.
type scheduleSpec struct {
	// canonical is the spec as a server keeps it: calendars and cron
	// strings made structured calendars and intervals.
	canonical  *schedulepb.ScheduleSpec
	calendars  []*calendarMatcher
	excludes   []*calendarMatcher
	jitterSeed string
}

// maxExcludedTimes bounds the search for a time the exclusions allow: a
// spec that excludes every time it names ends there, as if it named no
// more, rather than searching to the last calendar year.
const maxExcludedTimes = 100_000

// canonicalSpec is a spec as a server keeps it, or the error a server
// gives for it (without its "Invalid schedule spec: " prefix).
func canonicalSpec(spec *schedulepb.ScheduleSpec) (*schedulepb.ScheduleSpec, error) {
	if spec == nil {
		spec = &schedulepb.ScheduleSpec{}
	}
	spec = proto.CloneOf(spec)
	for _, iv := range spec.GetInterval() {
		if err := iv.GetInterval().CheckValid(); iv.GetInterval() != nil && err != nil {
			return nil, fmt.Errorf("interval is not a valid duration: %w", err)
		}
		if err := iv.GetPhase().CheckValid(); iv.GetPhase() != nil && err != nil {
			return nil, fmt.Errorf("phase is not a valid duration: %w", err)
		}
	}
	for _, cal := range spec.GetCalendar() {
		structured, err := calendarToStructured(cal)
		if err != nil {
			return nil, err
		}
		spec.StructuredCalendar = append(spec.StructuredCalendar, structured)
	}
	spec.Calendar = nil
	//lint:ignore SA1019 a server still reads the string calendars of older clients
	for _, cal := range spec.GetExcludeCalendar() {
		structured, err := calendarToStructured(cal)
		if err != nil {
			return nil, err
		}
		spec.ExcludeStructuredCalendar = append(spec.ExcludeStructuredCalendar, structured)
	}
	//lint:ignore SA1019 a server still reads the string calendars of older clients
	spec.ExcludeCalendar = nil
	// Every cron string must name the same zone, or none.
	var cronZone string
	for i, cron := range spec.GetCronString() {
		structured, interval, zone, err := cronToSpec(cron)
		if err != nil {
			return nil, err
		}
		if i > 0 && zone != cronZone {
			return nil, errors.New("conflicting timezone names")
		}
		cronZone = zone
		if structured != nil {
			spec.StructuredCalendar = append(spec.StructuredCalendar, structured)
		}
		if interval != nil {
			spec.Interval = append(spec.Interval, interval)
		}
	}
	spec.CronString = nil
	if cronZone != "" {
		if spec.GetTimezoneName() != "" && spec.GetTimezoneName() != cronZone || spec.GetTimezoneData() != nil {
			return nil, errors.New("conflicting timezone names")
		}
		spec.TimezoneName = cronZone
	}
	for _, cal := range spec.GetStructuredCalendar() {
		if err := checkCalendar(cal); err != nil {
			return nil, err
		}
	}
	for _, iv := range spec.GetInterval() {
		every, phase := iv.GetInterval().AsDuration(), iv.GetPhase().AsDuration()
		switch {
		case every < time.Second:
			return nil, errors.New("interval is too small")
		case phase < 0:
			return nil, errors.New("phase is negative")
		case phase >= every:
			return nil, errors.New("phase cannot be greater than Interval")
		}
	}
	return spec, nil
}

// compileSpec compiles a spec (canonical or not) in its time zone;
// jitterSeed makes each schedule's jitter its own.
func compileSpec(spec *schedulepb.ScheduleSpec, jitterSeed string) (*scheduleSpec, error) {
	canonical, err := canonicalSpec(spec)
	if err != nil {
		return nil, err
	}
	var loc *time.Location
	if data := canonical.GetTimezoneData(); data != nil {
		loc, err = time.LoadLocationFromTZData(canonical.GetTimezoneName(), data)
	} else {
		loc, err = time.LoadLocation(canonical.GetTimezoneName())
	}
	if err != nil {
		return nil, err
	}
	out := &scheduleSpec{canonical: canonical, jitterSeed: jitterSeed}
	for _, cal := range canonical.GetStructuredCalendar() {
		out.calendars = append(out.calendars, newCalendarMatcher(cal, loc))
	}
	for _, cal := range canonical.GetExcludeStructuredCalendar() {
		out.excludes = append(out.excludes, newCalendarMatcher(cal, loc))
	}
	return out, nil
}

// describedSpec is a canonical spec as DescribeSchedule shows it: every
// range with its End and Step.
func describedSpec(canonical *schedulepb.ScheduleSpec) *schedulepb.ScheduleSpec {
	spec := proto.CloneOf(canonical)
	for _, cal := range append(spec.GetStructuredCalendar(), spec.GetExcludeStructuredCalendar()...) {
		for _, ranges := range [][]*schedulepb.Range{cal.Second, cal.Minute, cal.Hour, cal.DayOfMonth, cal.Month, cal.Year, cal.DayOfWeek} {
			for _, r := range ranges {
				r.End = max(r.End, r.Start)
				if r.Step == 0 {
					r.Step = 1
				}
			}
		}
	}
	return spec
}

// scheduleTime is one time a spec names: nominal is the time itself,
// actual the time it acts, its jitter added.
type scheduleTime struct {
	nominal, actual time.Time
}

// next is the first time the spec names after after, or the zero
// scheduleTime when it names no more.
func (sp *scheduleSpec) next(after time.Time) scheduleTime {
	if start := sp.canonical.GetStartTime(); start != nil {
		// The first second of the start time may match.
		after = maxTime(after, start.AsTime().Add(-time.Second))
	}
	var nominal time.Time
	for range maxExcludedTimes {
		nominal = sp.rawNext(after)
		if nominal.IsZero() || sp.pastEnd(nominal) {
			return scheduleTime{}
		}
		if !sp.excluded(nominal) {
			break
		}
		after = nominal
	}
	if sp.excluded(nominal) {
		return scheduleTime{}
	}
	// Jitter never delays a time past the next one the spec names.
	maxJitter := sp.canonical.GetJitter().AsDuration()
	if following := sp.rawNext(nominal); !following.IsZero() {
		maxJitter = min(maxJitter, following.Sub(nominal))
	}
	return scheduleTime{nominal: nominal, actual: nominal.Add(sp.jitter(nominal, maxJitter))}
}

func (sp *scheduleSpec) pastEnd(t time.Time) bool {
	end := sp.canonical.GetEndTime()
	return end != nil && t.After(end.AsTime()) || t.Year() > lastCalendarYear
}

func (sp *scheduleSpec) excluded(t time.Time) bool {
	for _, cal := range sp.excludes {
		if cal.matches(t) {
			return true
		}
	}
	return false
}

// rawNext is the first whole second after after that a calendar or an
// interval names, exclusions and limits aside, in UTC; zero for none.
func (sp *scheduleSpec) rawNext(after time.Time) time.Time {
	first := int64(math.MaxInt64)
	for _, cal := range sp.calendars {
		if t := cal.next(after); !t.IsZero() {
			first = min(first, t.Unix())
		}
	}
	secs := after.Unix()
	for _, iv := range sp.canonical.GetInterval() {
		first = min(first, nextOfInterval(iv, secs))
	}
	if first == math.MaxInt64 {
		return time.Time{}
	}
	return time.Unix(first, 0).UTC()
}

// nextOfInterval is the first second after secs (Unix seconds) that an
// interval names: a multiple of the interval since the epoch, plus the
// phase.
func nextOfInterval(iv *schedulepb.IntervalSpec, secs int64) int64 {
	every := max(int64(iv.GetInterval().AsDuration()/time.Second), 1)
	phase := max(int64(iv.GetPhase().AsDuration()/time.Second), 0)
	return ((secs-phase)/every+1)*every + phase
}

// jitter is the delay of the action due at nominal, below maxJitter in
// whole milliseconds: a hash of the time and the schedule, so that the
// same schedule delays the same time by the same amount every time it
// computes it (a server hashes differently: its jitter is not this one).
func (sp *scheduleSpec) jitter(nominal time.Time, maxJitter time.Duration) time.Duration {
	if maxJitter <= 0 {
		return 0
	}
	h := fnv.New32a()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(nominal.UnixNano()))
	h.Write(b[:])
	h.Write([]byte(sp.jitterSeed))
	ms := min(uint64(maxJitter.Milliseconds()), math.MaxUint32)
	return time.Duration((uint64(h.Sum32())*ms)>>32) * time.Millisecond
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
