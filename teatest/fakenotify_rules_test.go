package teatest

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// notifySendCases are notify-send 0.8.1's answers to argument lists, as
// the real one gave them (libnotify-bin 0.8.1-1, by hand): an error line,
// or the summary and body it would show.
var notifySendCases = []struct {
	args          []string
	err           string // "" when accepted
	summary, body string
}{
	{[]string{"--app-name=unibox", "Work", "Ann", "Lunch"}, "Invalid number of options.", "", ""},
	{[]string{"a", "b", "c"}, "Invalid number of options.", "", ""},
	{[]string{"--", "a", "b", "c"}, "Invalid number of options.", "", ""},
	{[]string{"--app-name", "unibox", "a", "b", "c"}, "Invalid number of options.", "", ""},
	{[]string{"--app-name=unibox", "a", "b"}, "", "a", "b"},
	{[]string{"a", "--app-name=unibox", "b"}, "", "a", "b"},
	{[]string{"a", "b", "--app-name=unibox"}, "", "a", "b"},
	{[]string{"--app-name", "unibox", "a", "b"}, "", "a", "b"},
	{[]string{"-a", "unibox", "a"}, "", "a", ""},
	{[]string{"-ea", "x", "a", "b"}, "", "a", "b"},
	{[]string{"-ae", "x", "a"}, "", "a", ""},
	{[]string{"--", "a", "-b"}, "", "a", "-b"},
	{[]string{"a", "--", "b"}, "", "a", "b"},
	{[]string{" --help", "b"}, "", " --help", "b"},
	{[]string{"-", "b"}, "", "-", "b"},
	{[]string{"a", "-x"}, "Unknown option -x", "", ""},
	{[]string{"--bogus", "a"}, "Unknown option --bogus", "", ""},
	{[]string{"-a"}, "Missing argument for -a", "", ""},
	{[]string{}, "No summary specified.", "", ""},
	{[]string{"", "b"}, "No summary specified.", "", ""},
	{[]string{"--urgency=bad", "a"}, "Unknown urgency bad specified. Known urgency levels: low, normal, critical.", "", ""},
}

// The fake keeps notify-send 0.8's rules.
func TestFakeNotifySendRules(t *testing.T) {
	for _, tc := range notifySendCases {
		var rec, stderr bytes.Buffer
		code := fakeNotifySend(tc.args, &rec, &stderr)
		if tc.err != "" {
			if code != 1 || strings.TrimSpace(stderr.String()) != tc.err || rec.Len() != 0 {
				t.Errorf("%q: exit %d, stderr %q, shown %q; want exit 1 and %q", tc.args, code, stderr.String(), rec.String(), tc.err)
			}
			continue
		}
		var got notifySent
		if err := json.Unmarshal(rec.Bytes(), &got); code != 0 || err != nil || got.Summary != tc.summary || got.Body != tc.body {
			t.Errorf("%q: exit %d (%s), shown %+v; want %q / %q", tc.args, code, stderr.String(), got, tc.summary, tc.body)
		}
	}
}

// Where the real notify-send is installed, it refuses what the fake
// refuses, in the same words, and gets past its arguments where the fake
// accepts (without a session bus it then fails to connect).
func TestFakeNotifySendAgreesWithTheRealOne(t *testing.T) {
	real, err := exec.LookPath("notify-send")
	if err != nil {
		t.Skip("notify-send is not installed (apt: libnotify-bin)")
	}
	for _, tc := range notifySendCases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, real, tc.args...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent"}
		out, _ := cmd.CombinedOutput()
		cancel()
		refused := false
		for _, e := range []string{"Unknown option", "Missing argument", "No summary", "Invalid number", "Unknown urgency", "Invalid hint"} {
			refused = refused || strings.Contains(string(out), e)
		}
		if tc.err != "" && !strings.Contains(string(out), tc.err) || tc.err == "" && refused {
			t.Errorf("real notify-send %q said %q; the fake says %q", tc.args, out, tc.err)
		}
	}
}
