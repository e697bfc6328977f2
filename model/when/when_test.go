package when

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	// Monday 7 December 2026, 10:30 in Berlin.
	now := time.Date(2026, 12, 7, 10, 30, 0, 0, berlin)
	at := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, berlin) }
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"18:00", at(12, 7, 18, 0)},
		{"9:15", at(12, 8, 9, 15)}, // passed today: tomorrow
		{"10:30", at(12, 8, 10, 30)},
		{"today 18:00", at(12, 7, 18, 0)},
		{"tomorrow", at(12, 8, 8, 0)},
		{"Tomorrow 08:00", at(12, 8, 8, 0)},
		{"monday 09:00", at(12, 14, 9, 0)}, // today, but passed
		{"monday 11:00", at(12, 7, 11, 0)},
		{"next monday 11:00", at(12, 14, 11, 0)},
		{"mon", at(12, 14, 8, 0)},
		{"friday", at(12, 11, 8, 0)},
		{"sun 20:00", at(12, 13, 20, 0)},
		{"in 2h", at(12, 7, 12, 30)},
		{"in 90m", at(12, 7, 12, 0)},
		{"in 1h30m", at(12, 7, 12, 0)},
		{"in 2 hours", at(12, 7, 12, 30)},
		{"in 1d 2h", at(12, 8, 12, 30)},
		{"+3d", at(12, 10, 10, 30)},
		{"+1w", at(12, 14, 10, 30)},
		{"2026-12-24 09:00", at(12, 24, 9, 0)},
		{"2026-12-24", at(12, 24, 8, 0)},
		{"2026-12-24T09:00:00+01:00", at(12, 24, 9, 0)},
		{"  in   2h  ", at(12, 7, 12, 30)},
	} {
		got, err := Parse(tc.in, now)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// Days are calendar days: across the spring change, +1d is the same clock
// time (23 hours later), in 24h is not.
func TestDaysAcrossDST(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	now := time.Date(2027, 3, 27, 12, 0, 0, 0, berlin)
	day, _ := Parse("+1d", now)
	hours, _ := Parse("in 24h", now)
	if want := time.Date(2027, 3, 28, 12, 0, 0, 0, berlin); !day.Equal(want) {
		t.Errorf("+1d = %s, want %s", day, want)
	}
	if want := time.Date(2027, 3, 28, 13, 0, 0, 0, berlin); !hours.Equal(want) {
		t.Errorf("in 24h = %s, want %s", hours, want)
	}
}

func TestParseRefuses(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		past bool
	}{
		{"", false},
		{"soon", false},
		{"25:00", false},
		{"12:60", false},
		{"in", false},
		{"in 2", false},
		{"in 2x", false},
		{"+", false},
		{"in 1234567h", false},
		{"tomorrow 08:00 extra", false},
		{"next", false},
		{"2026-13-01", false},
		{"\x1b[31m18:00", false},
		{"today 09:00", true},
		{"2026-12-01 09:00", true},
		{"2020-01-01T00:00:00Z", true},
	} {
		_, err := Parse(tc.in, now)
		if err == nil {
			t.Errorf("Parse(%q): no error", tc.in)
			continue
		}
		if errors.Is(err, ErrPast) != tc.past {
			t.Errorf("Parse(%q): %v; past = %v, want %v", tc.in, err, errors.Is(err, ErrPast), tc.past)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range append(Examples, "next fri 9:00", "in 1d2h3m", "2026-12-24T09:00:00Z") {
		f.Add(s)
	}
	now := time.Date(2026, 12, 7, 10, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s, now)
		if err == nil && !got.After(now) {
			t.Fatalf("Parse(%q) = %s, not after now", s, got)
		}
	})
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 30, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"30d":    time.Date(2026, 11, 7, 10, 30, 0, 0, time.UTC),
		"2w":     time.Date(2026, 11, 23, 10, 30, 0, 0, time.UTC),
		"12h":    time.Date(2026, 12, 6, 22, 30, 0, 0, time.UTC),
		"1d 12h": time.Date(2026, 12, 5, 22, 30, 0, 0, time.UTC),
	} {
		if got, err := Ago(in, now); err != nil || !got.Equal(want) {
			t.Errorf("Ago(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "30", "d", "thirty days", "-3d"} {
		if _, err := Ago(bad, now); err == nil {
			t.Errorf("Ago(%q): no error", bad)
		}
	}
}
