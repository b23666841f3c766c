package testserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cronSpec is a standard cron schedule: minute, hour, day of month, month
// and day of week, each a set of allowed values, or one of the
// descriptors (@hourly, @daily, @every 90m, ...). It reads the schedules a
// child workflow's CronSchedule may hold, with the rules of the parser
// go.temporal.io/sdk's test environment uses: when both the day of month
// and the day of week are restricted, a day matching either one matches.
type cronSpec struct {
	minute, hour, dom, month, dow uint64 // bit i: value i allowed
	domStar, dowStar              bool
	every                         time.Duration // @every: a fixed interval instead
}

var cronDescriptors = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

var cronMonths = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
var cronDays = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}

// parseCron reads a cron schedule; its error says which part is wrong.
func parseCron(spec string) (*cronSpec, error) {
	spec = strings.TrimSpace(spec)
	if rest, ok := strings.CutPrefix(spec, "@every "); ok {
		d, err := time.ParseDuration(strings.TrimSpace(rest))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("cron schedule %q: @every needs a positive duration", spec)
		}
		return &cronSpec{every: d}, nil
	}
	if d, ok := cronDescriptors[spec]; ok {
		spec = d
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return nil, fmt.Errorf("cron schedule %q: want 5 fields (minute hour day-of-month month day-of-week) or a descriptor such as @hourly", spec)
	}
	c := &cronSpec{}
	var err error
	parts := []struct {
		bits     *uint64
		min, max int
		names    map[string]int
	}{{&c.minute, 0, 59, nil}, {&c.hour, 0, 23, nil}, {&c.dom, 1, 31, nil}, {&c.month, 1, 12, cronMonths}, {&c.dow, 0, 6, cronDays}}
	for i, p := range parts {
		if *p.bits, err = parseCronField(fields[i], p.min, p.max, p.names); err != nil {
			return nil, fmt.Errorf("cron schedule %q: field %d (%q): %w", spec, i+1, fields[i], err)
		}
	}
	c.domStar = fields[2] == "*" || fields[2] == "?"
	c.dowStar = fields[4] == "*" || fields[4] == "?"
	return c, nil
}

// parseCronField reads a comma-separated list of *, values, ranges a-b
// and steps (*/n, a-b/n, a/n) into a set of values.
func parseCronField(field string, min, max int, names map[string]int) (uint64, error) {
	var bits uint64
	for _, item := range strings.Split(field, ",") {
		rangePart, stepPart, hasStep := strings.Cut(item, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepPart)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("bad step %q", stepPart)
			}
			step = n
		}
		lo, hi := min, max
		if rangePart != "*" && rangePart != "?" {
			a, b, isRange := strings.Cut(rangePart, "-")
			var err error
			if lo, err = cronValue(a, names); err != nil {
				return 0, err
			}
			hi = lo
			if isRange {
				if hi, err = cronValue(b, names); err != nil {
					return 0, err
				}
			} else if hasStep {
				hi = max // a/n: from a to the end
			}
		}
		if lo < min || hi > max || lo > hi {
			return 0, fmt.Errorf("%q is outside %d-%d", item, min, max)
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, nil
}

func cronValue(s string, names map[string]int) (int, error) {
	if v, ok := names[strings.ToLower(s)]; ok {
		return v, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("bad value %q", s)
	}
	return v, nil
}

// next is the first time after t that the schedule matches, or the zero
// time when none comes within five years.
func (c *cronSpec) next(t time.Time) time.Time {
	if c.every > 0 {
		return t.Add(c.every - time.Duration(t.Nanosecond())).Truncate(time.Second)
	}
	t = t.Truncate(time.Minute).Add(time.Minute)
	limit := t.AddDate(5, 0, 0)
	for t.Before(limit) {
		switch {
		case c.month&(1<<uint(t.Month())) == 0:
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, t.Location())
		case !c.dayMatches(t):
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, t.Location())
		case c.hour&(1<<uint(t.Hour())) == 0:
			t = t.Truncate(time.Hour).Add(time.Hour)
		case c.minute&(1<<uint(t.Minute())) == 0:
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}

func (c *cronSpec) dayMatches(t time.Time) bool {
	dom := c.dom&(1<<uint(t.Day())) != 0
	dow := c.dow&(1<<uint(t.Weekday())) != 0
	if c.domStar || c.dowStar {
		return dom && dow
	}
	return dom || dow
}

// NextCronTime is the first time after after that a cron schedule names,
// or an error saying what is wrong with spec: a frontend delays a cron
// workflow's first run until then.
func NextCronTime(spec string, after time.Time) (time.Time, error) {
	c, err := parseCron(spec)
	if err != nil {
		return time.Time{}, err
	}
	return c.next(after), nil
}
