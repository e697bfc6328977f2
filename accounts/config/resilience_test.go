package config

import (
	"testing"
	"time"

	"unibox/conn"
)

func TestDials(t *testing.T) {
	tests := []struct {
		name string
		r    Resilience
		want conn.Dials
	}{
		{"zero keeps conn's defaults", Resilience{}, conn.Dials{}},
		{"every field", Resilience{
			ConnectTimeout: Duration{1 * time.Second}, ConnectAttempts: 3, CallTimeout: Duration{2 * time.Second},
			BackoffBase: Duration{3 * time.Second}, BackoffCap: Duration{4 * time.Second}, BackoffJitter: 0.5,
			StableAfter: Duration{5 * time.Second}, ProbeInterval: Duration{6 * time.Second},
			ProbeTimeout: Duration{7 * time.Second}, ProbeMisses: 8, TerminateAfter: Duration{9 * time.Second},
			IMAPCommandTimeout: Duration{10 * time.Second},
		}, conn.Dials{
			ConnectTimeout: 1 * time.Second, ConnectAttempts: 3, CallTimeout: 2 * time.Second,
			BackoffBase: 3 * time.Second, BackoffCap: 4 * time.Second, BackoffJitter: 0.5,
			StableAfter: 5 * time.Second, ProbeInterval: 6 * time.Second,
			ProbeTimeout: 7 * time.Second, ProbeMisses: 8, TerminateAfter: 9 * time.Second,
		}},
		{"off switches stay negative", Resilience{BackoffJitter: -1, ProbeInterval: Duration{-1}},
			conn.Dials{BackoffJitter: -1, ProbeInterval: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Dials(); got != tt.want {
				t.Errorf("Dials() =\n %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestDialsFromFile goes through the file: "0" and "0s" mean off, which
// conn spells as negative.
func TestDialsFromFile(t *testing.T) {
	c, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+"[resilience]\nbackoff_jitter = 0\nprobe_interval = \"0s\"\ncall_timeout = \"45s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := conn.Dials{BackoffJitter: -1, ProbeInterval: -1, CallTimeout: 45 * time.Second}
	if got := c.Resilience.Dials(); got != want {
		t.Errorf("Dials() = %+v, want %+v", got, want)
	}
}

func TestCommandTimeout(t *testing.T) {
	if got := (Resilience{}).CommandTimeout(); got != DefaultCommandTimeout {
		t.Errorf("default = %s", got)
	}
	if got := (Resilience{IMAPCommandTimeout: Duration{time.Minute}}).CommandTimeout(); got != time.Minute {
		t.Errorf("set = %s", got)
	}
}

func TestDurationText(t *testing.T) {
	var d Duration
	if err := d.UnmarshalText([]byte("1m30s")); err != nil || d.Duration != 90*time.Second {
		t.Fatalf("got %v, %v", d, err)
	}
	if b, _ := d.MarshalText(); string(b) != "1m30s" {
		t.Errorf("MarshalText = %s", b)
	}
	if err := d.UnmarshalText([]byte("20")); err == nil {
		t.Error("a bare number parsed")
	}
}
