package testserver

import (
	"fmt"
	"strings"
	"testing"
	"time"

	schedulepb "go.temporal.io/api/schedule/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// rangesText writes ranges as start-end/step, to compare them at a glance.
func rangesText(ranges []*schedulepb.Range) string {
	parts := make([]string, len(ranges))
	for i, r := range ranges {
		parts[i] = fmt.Sprintf("%d-%d/%d", r.GetStart(), r.GetEnd(), r.GetStep())
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func calendarText(c *schedulepb.StructuredCalendarSpec) string {
	return fmt.Sprintf("s%s m%s h%s dom%s mon%s y%s dow%s", rangesText(c.GetSecond()), rangesText(c.GetMinute()), rangesText(c.GetHour()),
		rangesText(c.GetDayOfMonth()), rangesText(c.GetMonth()), rangesText(c.GetYear()), rangesText(c.GetDayOfWeek()))
}

// TestCronStringsBecomeTheCalendarsAServerKeeps: the ranges are those a
// server's DescribeSchedule shows for the same strings (End 0 for a
// single value, Step 0 for one; 7 is Sunday; names by their prefix).
func TestCronStringsBecomeTheCalendarsAServerKeeps(t *testing.T) {
	for _, tc := range []struct{ cron, want string }{
		{"0 9 * * MON-FRI", "s[0-0/0] m[0-0/0] h[9-0/0] dom[1-31/0] mon[1-12/0] y[] dow[1-5/0]"},
		{"*/15 8-18/2 1,15 jan-mar *", "s[0-0/0] m[0-59/15] h[8-18/2] dom[1-0/0 15-0/0] mon[1-3/0] y[] dow[0-6/0]"},
		{"30 5 * * 7", "s[0-0/0] m[30-0/0] h[5-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-0/0]"},
		{"0 0 * * 3-7", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-0/0 3-6/0]"},
		{"0 0 * * 1-7/2", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-0/0 1-6/2]"},
		{"0 0 * * 0-7", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-6/0]"},
		{"0 0 * * 3-7/3", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[3-6/3]"},
		{"0 0 * * tu,thurs", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[2-0/0 4-0/0]"},
		{"15 10 30 6 * 2030", "s[0-0/0] m[15-0/0] h[10-0/0] dom[30-0/0] mon[6-0/0] y[2030-0/0] dow[0-6/0]"},
		{"5/20 1 2 3 4 5 2040-2050", "s[5-59/20] m[1-0/0] h[2-0/0] dom[3-0/0] mon[4-0/0] y[2040-2050/0] dow[5-0/0]"},
		{"@daily", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-6/0]"},
		{"@weekly # on Sundays", "s[0-0/0] m[0-0/0] h[0-0/0] dom[1-31/0] mon[1-12/0] y[] dow[0-0/0]"},
	} {
		cal, interval, _, err := cronToSpec(tc.cron)
		if err != nil || interval != nil {
			t.Errorf("%q: %v, %v", tc.cron, interval, err)
			continue
		}
		if got := calendarText(cal); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.cron, got, tc.want)
		}
	}
	cal, _, zone, err := cronToSpec("CRON_TZ=Europe/Paris 0 9 * * * # standup")
	if err != nil || zone != "Europe/Paris" || cal.GetComment() != "standup" {
		t.Errorf("zone %q, comment %q, %v", zone, cal.GetComment(), err)
	}
	_, interval, _, err := cronToSpec("@every 1d/3h")
	if err != nil || interval.GetInterval().AsDuration() != 24*time.Hour || interval.GetPhase().AsDuration() != 3*time.Hour {
		t.Errorf("@every 1d/3h: %v, %v", interval, err)
	}
}

// TestBadSpecsAreRefusedWithTheServersReasons: each error names what is
// wrong as a server's does.
func TestBadSpecsAreRefusedWithTheServersReasons(t *testing.T) {
	for _, tc := range []struct {
		spec *schedulepb.ScheduleSpec
		want string
	}{
		{&schedulepb.ScheduleSpec{CronString: []string{"* * * *"}}, "CronString does not have 5-7 fields"},
		{&schedulepb.ScheduleSpec{CronString: []string{"61 * * * *"}}, "Minute is not in range [0-59]"},
		{&schedulepb.ScheduleSpec{CronString: []string{"0 5-2 * * *"}}, "Hour End is before Start or not in range [0-23]"},
		{&schedulepb.ScheduleSpec{CronString: []string{"0 1/2/3 * * *"}}, "Hour has too many slashes"},
		{&schedulepb.ScheduleSpec{CronString: []string{"0 0 * * 1-2-3"}}, "DayOfWeek has too many dashes"},
		{&schedulepb.ScheduleSpec{CronString: []string{"TZ=UTC 0 * * * *", "0 0 * * *"}}, "conflicting timezone names"},
		{&schedulepb.ScheduleSpec{CronString: []string{"TZ=UTC 0 * * * *"}, TimezoneName: "Europe/Paris"}, "conflicting timezone names"},
		{&schedulepb.ScheduleSpec{Calendar: []*schedulepb.CalendarSpec{{Hour: "25", Month: "smarch"}}}, "Hour is not in range [0-23], Month is not in range [1-12]"},
		{&schedulepb.ScheduleSpec{StructuredCalendar: []*schedulepb.StructuredCalendarSpec{{Hour: []*schedulepb.Range{{Start: 24}}}}}, "invalid calendar spec: Hour Start is not in range [0-23]"},
		{&schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(time.Millisecond)}}}, "interval is too small"},
		{&schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(time.Hour), Phase: durationpb.New(time.Hour)}}}, "phase cannot be greater than Interval"},
		{&schedulepb.ScheduleSpec{TimezoneName: "Mars/Olympus_Mons"}, "unknown time zone Mars/Olympus_Mons"},
	} {
		_, err := compileSpec(tc.spec, "seed")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// times lists the first n times a spec names after from, in RFC 3339 in
// the zone loc.
func times(t *testing.T, spec *schedulepb.ScheduleSpec, from time.Time, n int, loc *time.Location) []string {
	t.Helper()
	sp, err := compileSpec(spec, "seed")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for at := from; len(out) < n; {
		next := sp.next(at)
		if next.actual.IsZero() {
			break
		}
		out = append(out, next.actual.In(loc).Format(time.RFC3339))
		at = next.actual
	}
	return out
}

func TestSpecsNameTheTimesAServerActsAt(t *testing.T) {
	from := time.Date(2024, 2, 28, 23, 59, 30, 0, time.UTC) // a Wednesday; 2024 is a leap year
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	hour := durationpb.New(time.Hour)
	for _, tc := range []struct {
		name string
		spec *schedulepb.ScheduleSpec
		from time.Time
		loc  *time.Location
		want string
	}{
		{"an interval counts from the epoch", &schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(90 * time.Minute)}}},
			from, time.UTC, "2024-02-29T00:00:00Z 2024-02-29T01:30:00Z 2024-02-29T03:00:00Z"},
		{"with a phase", &schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: hour, Phase: durationpb.New(15 * time.Minute)}}},
			from, time.UTC, "2024-02-29T00:15:00Z 2024-02-29T01:15:00Z 2024-02-29T02:15:00Z"},
		{"a weekday calendar", &schedulepb.ScheduleSpec{CronString: []string{"0 9 * * MON-FRI"}},
			from, time.UTC, "2024-02-29T09:00:00Z 2024-03-01T09:00:00Z 2024-03-04T09:00:00Z"},
		{"day of month and day of week both", &schedulepb.ScheduleSpec{CronString: []string{"0 12 15 * MON"}},
			from, time.UTC, "2024-04-15T12:00:00Z 2024-07-15T12:00:00Z 2025-09-15T12:00:00Z"},
		{"a leap day", &schedulepb.ScheduleSpec{CronString: []string{"0 0 29 2 *"}},
			from, time.UTC, "2024-02-29T00:00:00Z 2028-02-29T00:00:00Z 2032-02-29T00:00:00Z"},
		{"calendars and intervals together", &schedulepb.ScheduleSpec{CronString: []string{"0 0 * * *"}, Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(10 * time.Hour)}}},
			from, time.UTC, "2024-02-29T00:00:00Z 2024-02-29T02:00:00Z 2024-02-29T12:00:00Z 2024-02-29T22:00:00Z 2024-03-01T00:00:00Z"},
		{"seconds and years", &schedulepb.ScheduleSpec{CronString: []string{"*/20 0 0 1 3 * 2025"}},
			from, time.UTC, "2025-03-01T00:00:00Z 2025-03-01T00:00:20Z 2025-03-01T00:00:40Z"},
		//lint:ignore SA1019 a server still reads the string calendars of older clients
		{"exclusions", &schedulepb.ScheduleSpec{CronString: []string{"0 9 * * *"}, ExcludeCalendar: []*schedulepb.CalendarSpec{{Hour: "*", Minute: "*", Second: "*", DayOfWeek: "fri-sat"}}},
			from, time.UTC, "2024-02-29T09:00:00Z 2024-03-03T09:00:00Z 2024-03-04T09:00:00Z"},
		{"a start time, included", &schedulepb.ScheduleSpec{CronString: []string{"0 * * * *"}, StartTime: timestamppb.New(time.Date(2024, 3, 1, 5, 0, 0, 0, time.UTC))},
			from, time.UTC, "2024-03-01T05:00:00Z 2024-03-01T06:00:00Z"},
		{"an end time, included", &schedulepb.ScheduleSpec{CronString: []string{"0 * * * *"}, EndTime: timestamppb.New(time.Date(2024, 2, 29, 2, 0, 0, 0, time.UTC))},
			from, time.UTC, "2024-02-29T00:00:00Z 2024-02-29T01:00:00Z 2024-02-29T02:00:00Z"},
		{"a time zone", &schedulepb.ScheduleSpec{CronString: []string{"0 9 * * *"}, TimezoneName: "America/New_York"},
			from, ny, "2024-02-29T09:00:00-05:00 2024-03-01T09:00:00-05:00"},
		{"a cron string's zone", &schedulepb.ScheduleSpec{CronString: []string{"TZ=America/New_York 0 9 * * *"}},
			time.Date(2024, 3, 9, 0, 0, 0, 0, time.UTC), ny, "2024-03-09T09:00:00-05:00 2024-03-10T09:00:00-04:00 2024-03-11T09:00:00-04:00"},
		{"a wall time the clocks skip is not a time", &schedulepb.ScheduleSpec{CronString: []string{"30 2 * * *"}, TimezoneName: "America/New_York"},
			time.Date(2024, 3, 9, 0, 0, 0, 0, time.UTC), ny, "2024-03-09T02:30:00-05:00 2024-03-11T02:30:00-04:00"},
		{"a wall time the clocks repeat is two", &schedulepb.ScheduleSpec{CronString: []string{"30 1 * * *"}, TimezoneName: "America/New_York"},
			time.Date(2024, 11, 2, 12, 0, 0, 0, time.UTC), ny, "2024-11-03T01:30:00-04:00 2024-11-03T01:30:00-05:00 2024-11-04T01:30:00-05:00"},
		{"every hour across a repeated hour", &schedulepb.ScheduleSpec{CronString: []string{"0 * * * *"}, TimezoneName: "America/New_York"},
			time.Date(2024, 11, 3, 4, 30, 0, 0, time.UTC), ny, "2024-11-03T01:00:00-04:00 2024-11-03T01:00:00-05:00 2024-11-03T02:00:00-05:00"},
		{"no time after the last calendar year", &schedulepb.ScheduleSpec{CronString: []string{"0 0 1 1 * 2099-2100"}},
			from, time.UTC, "2099-01-01T00:00:00Z 2100-01-01T00:00:00Z"},
		{"an empty spec names no time", &schedulepb.ScheduleSpec{}, from, time.UTC, ""},
	} {
		got := strings.Join(times(t, tc.spec, tc.from, 5, tc.loc), " ")
		if !strings.HasPrefix(got, tc.want) || tc.want == "" && got != "" {
			t.Errorf("%s:\n got %s\nwant %s ...", tc.name, got, tc.want)
		}
	}
}

// TestJitterDelaysEachTimeTheSameAndNeverPastTheNext: jitter is
// deterministic per schedule and time, below its maximum and below the
// gap to the next time.
func TestJitterDelaysEachTimeTheSameAndNeverPastTheNext(t *testing.T) {
	spec := &schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(time.Minute)}}, Jitter: durationpb.New(time.Hour)}
	a, err := compileSpec(spec, "ns-a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compileSpec(spec, "ns-b")
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	differ := false
	for at := from; at.Before(from.Add(time.Hour)); at = at.Add(time.Minute) {
		ta, again, tb := a.next(at), a.next(at), b.next(at)
		if ta != again {
			t.Fatalf("after %v: %v, then %v", at, ta, again)
		}
		if d := ta.actual.Sub(ta.nominal); d < 0 || d >= time.Minute || d%time.Millisecond != 0 {
			t.Errorf("the time due at %v is delayed %v: want under the minute to the next, in whole milliseconds", ta.nominal, d)
		}
		differ = differ || ta.actual != tb.actual
	}
	if !differ {
		t.Error("two schedules with the same spec jitter every time alike: the seed is not used")
	}
}
