package testserver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	schedulepb "go.temporal.io/api/schedule/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// The calendars of a schedule's spec, read as a Temporal server reads
// them. Their grammar is not a cron workflow's (cronspec.go): a field may
// name months and days of the week by any prefix of three and two letters
// or more, 7 is Sunday too, a cron string may have seconds and years, and
// a time must match the day of the month and the day of the week both.
// The ranges a string is read into are those a server's DescribeSchedule
// shows.

// The years a calendar may name; no time after the last one matches.
const (
	firstCalendarYear = 2000
	lastCalendarYear  = 2100
	maxCommentLength  = 200
)

var calendarMonthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
var calendarDayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// calendarNames says which names a calendar field takes.
type calendarNames int

const (
	numbersOnly calendarNames = iota
	yearNumbers               // numbers; "*" is the empty list
	monthNames
	dayNames
)

// calendarToStructured reads the string fields of a CalendarSpec into
// ranges; an empty field takes its default (midnight, every day). The
// error names every field that is wrong.
func calendarToStructured(cal *schedulepb.CalendarSpec) (*schedulepb.StructuredCalendarSpec, error) {
	var problems []string
	field := func(value, name, def string, lo, hi int, names calendarNames) []*schedulepb.Range {
		ranges, err := calendarRanges(value, name, def, lo, hi, names)
		if err != nil {
			problems = append(problems, err.Error())
		}
		return ranges
	}
	out := &schedulepb.StructuredCalendarSpec{
		Second:     field(cal.GetSecond(), "Second", "0", 0, 59, numbersOnly),
		Minute:     field(cal.GetMinute(), "Minute", "0", 0, 59, numbersOnly),
		Hour:       field(cal.GetHour(), "Hour", "0", 0, 23, numbersOnly),
		DayOfWeek:  field(cal.GetDayOfWeek(), "DayOfWeek", "*", 0, 7, dayNames),
		DayOfMonth: field(cal.GetDayOfMonth(), "DayOfMonth", "*", 1, 31, numbersOnly),
		Month:      field(cal.GetMonth(), "Month", "*", 1, 12, monthNames),
		Year:       field(cal.GetYear(), "Year", "*", firstCalendarYear, lastCalendarYear, yearNumbers),
		Comment:    cal.GetComment(),
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, ", "))
	}
	return out, nil
}

// calendarRanges reads one field: a comma-separated list of "*", values,
// ranges a-b, each with an optional step (/n; a/n runs from a to the
// end). A range is written as a server writes it: End 0 for a single
// value, Step 0 for a step of one.
func calendarRanges(value, name, def string, lo, hi int, names calendarNames) ([]*schedulepb.Range, error) {
	value = strings.TrimSpace(value)
	if value == "" {
		value = def
	}
	if value == "*" && names == yearNumbers {
		return nil, nil
	}
	var out []*schedulepb.Range
	for _, part := range strings.Split(value, ",") {
		step, hasStep := 1, false
		switch strings.Count(part, "/") {
		case 0:
		case 1:
			var stepText string
			part, stepText, _ = strings.Cut(part, "/")
			if stepText == "" {
				return nil, fmt.Errorf("%s missing step value", name)
			}
			n, err := strconv.Atoi(stepText)
			if err != nil {
				return nil, err
			}
			if n < 1 {
				return nil, fmt.Errorf("%s has invalid Step", name)
			}
			step, hasStep = n, true
		default:
			return nil, fmt.Errorf("%s has too many slashes", name)
		}
		start, end := lo, hi
		if part != "*" {
			if strings.Contains(part, "-") {
				if strings.Count(part, "-") > 1 {
					return nil, fmt.Errorf("%s has too many dashes", name)
				}
				first, last, _ := strings.Cut(part, "-")
				var err error
				if start, err = calendarValue(first, lo, hi, names); err != nil {
					return nil, fmt.Errorf("%s Start is not in range [%d-%d]", name, lo, hi)
				}
				if end, err = calendarValue(last, start, hi, names); err != nil {
					return nil, fmt.Errorf("%s End is before Start or not in range [%d-%d]", name, lo, hi)
				}
			} else {
				v, err := calendarValue(part, lo, hi, names)
				if err != nil {
					return nil, fmt.Errorf("%s is not in range [%d-%d]", name, lo, hi)
				}
				start = v
				if !hasStep {
					end = v
				}
			}
		}
		// 7 is Sunday, which is 0: a range that reaches 7 ends at 6, and
		// takes Sunday as a value of its own when its steps land on 7.
		if names == dayNames && end == 7 {
			if (7-start)%step == 0 && (step > 1 || start > 1) {
				out = append(out, &schedulepb.Range{Start: 0})
				if start == 7 {
					continue
				}
			}
			end = 6
		}
		r := &schedulepb.Range{Start: int32(start), End: int32(end), Step: int32(step)}
		if start == end {
			r.End = 0
		}
		if step == 1 {
			r.Step = 0
		}
		out = append(out, r)
	}
	return out, nil
}

// calendarValue reads a number, or a month or day name by its prefix.
func calendarValue(s string, lo, hi int, names calendarNames) (int, error) {
	var v int
	found := false
	lower := strings.ToLower(s)
	switch {
	case names == monthNames && len(s) >= 3:
		for i, month := range calendarMonthNames {
			if strings.HasPrefix(month, lower) {
				v, found = i+1, true
				break
			}
		}
	case names == dayNames && len(s) >= 2:
		for i, day := range calendarDayNames {
			if strings.HasPrefix(day, lower) {
				v, found = i, true
				break
			}
		}
	}
	if !found {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, err
		}
		v = n
	}
	if v < lo || v > hi {
		return v, errors.New("out of range")
	}
	return v, nil
}

// checkCalendar refuses ranges outside their field's values, as a server
// does before it takes a schedule.
func checkCalendar(cal *schedulepb.StructuredCalendarSpec) error {
	var problems []string
	check := func(ranges []*schedulepb.Range, name string, lo, hi int32) {
		for _, r := range ranges {
			if r == nil {
				problems = append(problems, "range is nil")
				continue
			}
			if r.GetStart() < lo || r.GetStart() > hi {
				problems = append(problems, fmt.Sprintf("%s Start is not in range [%d-%d]", name, lo, hi))
			}
			if r.GetEnd() != 0 && (r.GetEnd() < r.GetStart() || r.GetEnd() > hi) {
				problems = append(problems, fmt.Sprintf("%s End is before Start or not in range [%d-%d]", name, lo, hi))
			}
			if r.GetStep() < 0 {
				problems = append(problems, fmt.Sprintf("%s has invalid Step", name))
			}
		}
	}
	check(cal.GetSecond(), "Second", 0, 59)
	check(cal.GetMinute(), "Minute", 0, 59)
	check(cal.GetHour(), "Hour", 0, 23)
	check(cal.GetDayOfMonth(), "DayOfMonth", 1, 31)
	check(cal.GetMonth(), "Month", 1, 12)
	check(cal.GetYear(), "Year", firstCalendarYear, lastCalendarYear)
	check(cal.GetDayOfWeek(), "DayOfWeek", 0, 6)
	if len(cal.GetComment()) > maxCommentLength {
		problems = append(problems, "comment is too long")
	}
	if len(problems) > 0 {
		return errors.New("invalid calendar spec: " + strings.Join(problems, ", "))
	}
	return nil
}

// cronToSpec reads a cron string of a schedule's spec: an optional
// "TZ=zone " or "CRON_TZ=zone " prefix, an optional "# comment", then
// "@every interval[/phase]", a descriptor (@daily, ...) or 5 to 7 fields
// ([second] minute hour day-of-month month day-of-week [year]). It gives
// a calendar or an interval, and the zone named ("" for none).
func cronToSpec(cron string) (*schedulepb.StructuredCalendarSpec, *schedulepb.IntervalSpec, string, error) {
	cron = strings.TrimSpace(cron)
	var zone string
	if strings.HasPrefix(cron, "TZ=") || strings.HasPrefix(cron, "CRON_TZ=") {
		tz, rest, found := strings.Cut(cron, " ")
		if !found {
			return nil, nil, "", errors.New("CronString has time zone but missing fields")
		}
		_, zone, _ = strings.Cut(tz, "=")
		cron = rest
	}
	cron, comment, _ := strings.Cut(cron, "#")
	cron, comment = strings.TrimSpace(cron), strings.TrimSpace(comment)
	if strings.HasPrefix(cron, "@every") {
		interval, err := everyToInterval(cron)
		return nil, interval, "", err
	}
	if expanded, ok := cronDescriptors[cron]; ok {
		cron = expanded
	}
	f := strings.Fields(cron)
	cal := &schedulepb.CalendarSpec{Comment: comment}
	switch len(f) {
	case 5:
		cal.Minute, cal.Hour, cal.DayOfMonth, cal.Month, cal.DayOfWeek = f[0], f[1], f[2], f[3], f[4]
	case 6:
		cal.Minute, cal.Hour, cal.DayOfMonth, cal.Month, cal.DayOfWeek, cal.Year = f[0], f[1], f[2], f[3], f[4], f[5]
	case 7:
		cal.Second, cal.Minute, cal.Hour, cal.DayOfMonth, cal.Month, cal.DayOfWeek, cal.Year = f[0], f[1], f[2], f[3], f[4], f[5], f[6]
	default:
		return nil, nil, "", errors.New("CronString does not have 5-7 fields")
	}
	structured, err := calendarToStructured(cal)
	return structured, nil, zone, err
}

// everyToInterval reads "@every 90m" or "@every 1d/3h" (an interval and
// its phase; a "d" is 24 hours).
func everyToInterval(cron string) (*schedulepb.IntervalSpec, error) {
	_, text, found := strings.Cut(cron, " ")
	if !found {
		return nil, errors.New("CronString does not have interval after @every")
	}
	everyText, phaseText, hasPhase := strings.Cut(text, "/")
	every, err := parseDays(everyText)
	if err != nil {
		return nil, err
	}
	out := &schedulepb.IntervalSpec{Interval: durationpb.New(every)}
	if hasPhase && phaseText != "" {
		phase, err := parseDays(phaseText)
		if err != nil {
			return nil, err
		}
		out.Phase = durationpb.New(phase)
	}
	return out, nil
}

// parseDays is time.ParseDuration with "d" for 24 hours.
func parseDays(s string) (time.Duration, error) {
	var b strings.Builder
	start := 0 // where the current number began
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'd' && i > start {
			days, err := strconv.ParseFloat(s[start:i], 64)
			if err != nil {
				return 0, fmt.Errorf("time: invalid duration %q", s)
			}
			fmt.Fprintf(&b, "%fh", 24*days)
			start = i + 1
			continue
		}
		if (c < '0' || c > '9') && c != '.' {
			b.WriteString(s[start : i+1])
			start = i + 1
		}
	}
	b.WriteString(s[start:])
	return time.ParseDuration(b.String())
}

// calendarMatcher is a structured calendar compiled for matching, in its
// spec's time zone.
type calendarMatcher struct {
	loc                                                *time.Location
	second, minute, hour, dayOfMonth, month, dayOfWeek uint64       // bit i: value i matches
	years                                              map[int]bool // nil: every year
}

func newCalendarMatcher(cal *schedulepb.StructuredCalendarSpec, loc *time.Location) *calendarMatcher {
	m := &calendarMatcher{
		loc: loc, second: rangeBits(cal.GetSecond()), minute: rangeBits(cal.GetMinute()), hour: rangeBits(cal.GetHour()),
		dayOfMonth: rangeBits(cal.GetDayOfMonth()), month: rangeBits(cal.GetMonth()), dayOfWeek: rangeBits(cal.GetDayOfWeek()),
	}
	if len(cal.GetYear()) > 0 {
		m.years = make(map[int]bool)
		eachInRanges(cal.GetYear(), func(v int) { m.years[v] = true })
	}
	return m
}

func rangeBits(ranges []*schedulepb.Range) uint64 {
	var bits uint64
	eachInRanges(ranges, func(v int) {
		if v >= 0 && v < 64 {
			bits |= 1 << uint(v)
		}
	})
	return bits
}

// eachInRanges calls f with each value of ranges: an End before its
// Start is the Start, a Step of 0 is 1.
func eachInRanges(ranges []*schedulepb.Range, f func(int)) {
	for _, r := range ranges {
		start, end, step := int(r.GetStart()), int(r.GetEnd()), int(r.GetStep())
		end = max(end, start)
		step = max(step, 1)
		for v := start; v <= end; v += step {
			f(v)
		}
	}
}

func has(bits uint64, v int) bool { return bits&(1<<uint(v)) != 0 }

func (m *calendarMatcher) yearMatches(y int) bool { return m.years == nil || m.years[y] }

// dateMatches reports whether a day (its year, month and day, whatever
// the location of d) matches.
func (m *calendarMatcher) dateMatches(d time.Time) bool {
	return m.yearMatches(d.Year()) && has(m.month, int(d.Month())) && has(m.dayOfMonth, d.Day()) && has(m.dayOfWeek, int(d.Weekday()))
}

// matches reports whether an instant's wall clock, in the calendar's
// zone, matches.
func (m *calendarMatcher) matches(t time.Time) bool {
	t = t.In(m.loc)
	return m.dateMatches(t) && has(m.hour, t.Hour()) && has(m.minute, t.Minute()) && has(m.second, t.Second())
}

// next is the first whole second after after (its fraction of a second
// dropped) whose wall clock matches, or the zero time when none does
// before the last calendar year ends. A wall time that a daylight saving
// change skips matches no instant; one that it repeats matches both.
func (m *calendarMatcher) next(after time.Time) time.Time {
	from := after.Truncate(time.Second).Add(time.Second)
	local := from.In(m.loc)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
	// On the first day, wall times well before from's cannot match; near a
	// daylight saving change, an hour's slack keeps those that still may.
	fromWall := local.Hour()*3600 + local.Minute()*60 + local.Second()
	if nearZoneChange(from, m.loc) {
		fromWall -= 3 * 3600
	}
	for first := true; day.Year() <= lastCalendarYear; first = false {
		switch {
		case !m.yearMatches(day.Year()):
			day = time.Date(day.Year()+1, time.January, 1, 0, 0, 0, 0, time.UTC)
			continue
		case !has(m.month, int(day.Month())):
			day = time.Date(day.Year(), day.Month()+1, 1, 0, 0, 0, 0, time.UTC)
			continue
		case !m.dateMatches(day):
			day = day.AddDate(0, 0, 1)
			continue
		}
		if t := m.firstOnDay(day, from, first, fromWall); !t.IsZero() {
			return t
		}
		day = day.AddDate(0, 0, 1)
	}
	return time.Time{}
}

// firstOnDay is the first matching instant of a matching day not before
// from (whose wall second of the day, less any slack, is fromWall when
// the day is from's own).
func (m *calendarMatcher) firstOnDay(day, from time.Time, fromsDay bool, fromWall int) time.Time {
	for h := 0; h < 24; h++ {
		if !has(m.hour, h) || fromsDay && (h+1)*3600 <= fromWall {
			continue
		}
		for mi := 0; mi < 60; mi++ {
			if !has(m.minute, mi) || fromsDay && h*3600+(mi+1)*60 <= fromWall {
				continue
			}
			for s := 0; s < 60; s++ {
				if !has(m.second, s) || fromsDay && h*3600+mi*60+s < fromWall {
					continue
				}
				for _, t := range m.instants(day, h, mi, s) {
					if !t.Before(from) {
						return t
					}
				}
			}
		}
	}
	return time.Time{}
}

// instants are the instants, in order, whose wall clock in the
// calendar's zone reads day at h:mi:s: none in a daylight saving gap, two
// in a repeated hour.
func (m *calendarMatcher) instants(day time.Time, h, mi, s int) []time.Time {
	y, mo, d := day.Date()
	t := time.Date(y, mo, d, h, mi, s, 0, m.loc)
	reads := func(u time.Time) bool {
		u = u.In(m.loc)
		uy, umo, ud := u.Date()
		return uy == y && umo == mo && ud == d && u.Hour() == h && u.Minute() == mi && u.Second() == s
	}
	if !reads(t) {
		return nil
	}
	if !nearZoneChange(t, m.loc) {
		return []time.Time{t}
	}
	_, before := t.Add(-3 * time.Hour).In(m.loc).Zone()
	_, after := t.Add(3 * time.Hour).In(m.loc).Zone()
	shift := time.Duration(after-before) * time.Second
	if shift < 0 {
		shift = -shift
	}
	if earlier := t.Add(-shift); reads(earlier) {
		return []time.Time{earlier, t}
	}
	if later := t.Add(shift); reads(later) {
		return []time.Time{t, later}
	}
	return []time.Time{t}
}

// nearZoneChange reports whether the zone's offset from UTC changes
// within three hours of t (a daylight saving change).
func nearZoneChange(t time.Time, loc *time.Location) bool {
	_, before := t.Add(-3 * time.Hour).In(loc).Zone()
	_, after := t.Add(3 * time.Hour).In(loc).Zone()
	return before != after
}
