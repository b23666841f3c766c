package testserver

import (
	"testing"
	"time"
)

func TestCronSchedulesGiveTheNextMatchingTime(t *testing.T) {
	from := time.Date(2024, 2, 28, 23, 59, 30, 0, time.UTC) // a Wednesday; 2024 is a leap year
	for _, tc := range []struct{ spec, want string }{
		{"* * * * *", "2024-02-29T00:00:00Z"},
		{"0 * * * *", "2024-02-29T00:00:00Z"},
		{"*/15 9-17 * * *", "2024-02-29T09:00:00Z"},
		{"30 6 1 * *", "2024-03-01T06:30:00Z"},
		{"0 0 * * sun", "2024-03-03T00:00:00Z"},
		{"0 12 15 * MON", "2024-03-04T12:00:00Z"}, // day of month or day of week
		{"0 0 29 feb *", "2024-02-29T00:00:00Z"},
		{"5/20 * * * *", "2024-02-29T00:05:00Z"},
		{"@monthly", "2024-03-01T00:00:00Z"},
		{"@weekly", "2024-03-03T00:00:00Z"},
		{"@every 90m", "2024-02-29T01:29:30Z"},
	} {
		c, err := parseCron(tc.spec)
		if err != nil {
			t.Errorf("%q: %v", tc.spec, err)
			continue
		}
		if got := c.next(from).Format(time.RFC3339); got != tc.want {
			t.Errorf("%q after %v: %s, want %s", tc.spec, from, got, tc.want)
		}
	}
	for _, bad := range []string{"", "* * * *", "60 * * * *", "* * 0 * *", "*/0 * * * *", "x * * * *", "@every -1m", "5-1 * * * *", "0 0 * * 7"} {
		if _, err := parseCron(bad); err == nil {
			t.Errorf("%q: accepted, want an error", bad)
		}
	}
}
