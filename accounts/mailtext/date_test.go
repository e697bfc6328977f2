package mailtext

import (
	"testing"
	"time"
)

func TestDate(t *testing.T) {
	utc := func(y int, m time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, m, d, h, mi, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time // zero: unparseable
	}{
		{"Mon, 02 Jan 2006 15:04:05 -0700", utc(2006, 1, 2, 22, 4, 5)},
		{"02 Jan 2006 15:04:05 -0700", utc(2006, 1, 2, 22, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 +0000", utc(2006, 1, 2, 15, 4, 5)},
		{"Mon, 2 Jan 2006 15:04 +0100", utc(2006, 1, 2, 14, 4, 0)},
		{"Mon, 2 Jan 2006 15:04:05 UT", utc(2006, 1, 2, 15, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 GMT", utc(2006, 1, 2, 15, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 EST", utc(2006, 1, 2, 20, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 PDT", utc(2006, 1, 2, 22, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 CEST", utc(2006, 1, 2, 13, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 -0700 (PDT)", utc(2006, 1, 2, 22, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 -0700 PDT", utc(2006, 1, 2, 22, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 GMT+0200", utc(2006, 1, 2, 13, 4, 5)},
		{"Mon, 2 Jan 2006 15:04:05 +02:00", utc(2006, 1, 2, 13, 4, 5)},
		{"Mon (comment), 2 Jan (x (nested)) 2006 15:04:05 +0000", utc(2006, 1, 2, 15, 4, 5)},
		{"2 Jan 06 15:04:05 +0000", utc(2006, 1, 2, 15, 4, 5)},
		{"2 Jan 99 15:04:05 +0000", utc(1999, 1, 2, 15, 4, 5)},
		{"2 Jan 49 15:04:05 +0000", utc(2049, 1, 2, 15, 4, 5)},
		{"2 Jan 50 15:04:05 +0000", utc(1950, 1, 2, 15, 4, 5)},
		{"Monday, 02-Jan-06 15:04:05 GMT", utc(2006, 1, 2, 15, 4, 5)},
		{"Mon Jan  2 15:04:05 2006", utc(2006, 1, 2, 15, 4, 5)},
		{"Mon Jan 2 15:04:05 MST 2006", utc(2006, 1, 2, 22, 4, 5)},
		{"2 January 2006 15:04:05 +0000", utc(2006, 1, 2, 15, 4, 5)},
		{"Thu, 1 Sept 2016 10:00:00 +0000", utc(2016, 9, 1, 10, 0, 0)},
		{"Tue, 2 Jan 2006 15:04:05 +0000", utc(2006, 1, 2, 15, 4, 5)}, // wrong weekday
		{"2 Jan 2006 15:04:05", utc(2006, 1, 2, 15, 4, 5)},
		{"2 Jan 2006 15:04:05 XYZT", utc(2006, 1, 2, 15, 4, 5)},
		{"2 Jan 2006 15:04:05 Z", utc(2006, 1, 2, 15, 4, 5)},
		{"2 Jan 2006 15:04:05.123 +0000", utc(2006, 1, 2, 15, 4, 5)},
		{"31 Dec 2016 23:59:60 +0000", utc(2016, 12, 31, 23, 59, 59)},
		{"2006-01-02T15:04:05Z", utc(2006, 1, 2, 15, 4, 5)},
		{"2006-01-02T15:04:05+01:00", utc(2006, 1, 2, 14, 4, 5)},
		{"2006-01-02 15:04:05", utc(2006, 1, 2, 15, 4, 5)},
		{"0000-01-02T15:04:05Z", time.Time{}},
		{"  Mon,   2   Jan 2006   15:04:05   +0000  ", utc(2006, 1, 2, 15, 4, 5)},
		{"", time.Time{}},
		{"not a date", time.Time{}},
		{"31 Feb 2006 10:00:00 +0000", time.Time{}},
		{"2 Foo 2006 10:00:00 +0000", time.Time{}},
		{"2 Jan 2006", time.Time{}},
		{"2 Jan 2006 25:00:00 +0000", time.Time{}},
		{"2 Jan 2006 10:00:00 +9999", time.Time{}},
		{"2 Jan 2006 1 10:00:00 +0000", time.Time{}},
		{"Mon, 2 Jan 2006 15:04:05 +0000 \x1b[2J", time.Time{}},
	}
	for _, tt := range tests {
		got, ok := Date(tt.in)
		if tt.want.IsZero() {
			if ok {
				t.Errorf("Date(%q) = %v, want failure", tt.in, got)
			}
			continue
		}
		if !ok {
			t.Errorf("Date(%q) failed, want %v", tt.in, tt.want)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("Date(%q) = %v, want %v", tt.in, got.UTC(), tt.want)
		}
	}
}

func TestDateKeepsOffset(t *testing.T) {
	got, ok := Date("Mon, 2 Jan 2006 15:04:05 -0700")
	if !ok {
		t.Fatal("failed")
	}
	if _, off := got.Zone(); off != -7*3600 {
		t.Fatalf("offset = %d, want -25200", off)
	}
}
