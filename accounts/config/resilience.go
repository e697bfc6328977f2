package config

import (
	"time"

	"unibox/conn"
)

// DefaultCommandTimeout is the IMAP command deadline inside the provider
// when command_timeout is unset (the same default as `unibox serve-imap`).
const DefaultCommandTimeout = 15 * time.Second

// Resilience holds the [resilience] section. It follows conn.Dials'
// conventions so the mapping stays a plain copy: zero means "use conn's
// default", and for BackoffJitter and ProbeInterval a negative value means
// "off" (written in the file as 0 and "0s").
type Resilience struct {
	ConnectTimeout     Duration // spawn + handshake + provisioning, all attempts
	ConnectAttempts    int      // quick attempts per connect
	CallTimeout        Duration // per tool call
	BackoffBase        Duration // first cooldown
	BackoffCap         Duration // longest cooldown
	BackoffJitter      float64  // fraction 0–1; negative: none
	StableAfter        Duration // uptime after which the backoff resets
	ProbeInterval      Duration // health probe period; negative: no probes
	ProbeTimeout       Duration
	ProbeMisses        int      // consecutive misses before the child is killed
	TerminateAfter     Duration // grace period before a closing child is killed
	IMAPCommandTimeout Duration // command_timeout; see CommandTimeout
	// Push (IMAP IDLE): IDLE is re-issued every IdleRestart, before the
	// server's limit (RFC 2177: 29 minutes); a server without IDLE gets a
	// NOOP every PushPoll. Zero: the provider's defaults (28m, 30s).
	IdleRestart Duration // idle_restart
	PushPoll    Duration // push_poll
}

// Dials maps the section onto the adapter's dials; unset values stay zero
// so conn applies its own defaults and keeps them in one place.
func (r Resilience) Dials() conn.Dials {
	return conn.Dials{
		ConnectTimeout:  r.ConnectTimeout.Duration,
		ConnectAttempts: r.ConnectAttempts,
		CallTimeout:     r.CallTimeout.Duration,
		BackoffBase:     r.BackoffBase.Duration,
		BackoffCap:      r.BackoffCap.Duration,
		BackoffJitter:   r.BackoffJitter,
		StableAfter:     r.StableAfter.Duration,
		ProbeInterval:   r.ProbeInterval.Duration,
		ProbeTimeout:    r.ProbeTimeout.Duration,
		ProbeMisses:     r.ProbeMisses,
		TerminateAfter:  r.TerminateAfter.Duration,
	}
}

// CommandTimeout is the IMAP command deadline to hand the provider; never
// zero, because it goes on a command line where zero would read as "none".
func (r Resilience) CommandTimeout() time.Duration {
	if r.IMAPCommandTimeout.Duration > 0 {
		return r.IMAPCommandTimeout.Duration
	}
	return DefaultCommandTimeout
}

// resilience decodes [resilience]. Every duration must be positive: a zero
// timeout or backoff is never what someone means, except probe_interval =
// "0s", which turns probing off.
func resilience(t *table) Resilience {
	var r Resilience
	positive := func(key string, dst *Duration) {
		if d, ok := t.duration(key); ok {
			if d <= 0 {
				t.errorf(key, "must be positive, like \"20s\"")
				return
			}
			dst.Duration = d
		}
	}
	atLeastOne := func(key string, dst *int) {
		if n, ok := t.integer(key); ok {
			if n < 1 {
				t.errorf(key, "must be at least 1 (got %d)", n)
				return
			}
			*dst = n
		}
	}
	positive("connect_timeout", &r.ConnectTimeout)
	atLeastOne("connect_attempts", &r.ConnectAttempts)
	positive("call_timeout", &r.CallTimeout)
	positive("backoff_base", &r.BackoffBase)
	positive("backoff_cap", &r.BackoffCap)
	if r.BackoffBase.Duration > 0 && r.BackoffCap.Duration > 0 && r.BackoffCap.Duration < r.BackoffBase.Duration {
		t.errorf("backoff_cap", "%s is shorter than backoff_base (%s)", r.BackoffCap, r.BackoffBase)
	}
	if f, ok := t.float("backoff_jitter"); ok {
		switch {
		case f < 0 || f > 1:
			t.errorf("backoff_jitter", "must be between 0 and 1 (got %g)", f)
		case f == 0:
			r.BackoffJitter = -1 // conn reads zero as "default"
		default:
			r.BackoffJitter = f
		}
	}
	positive("stable_after", &r.StableAfter)
	if d, ok := t.duration("probe_interval"); ok {
		switch {
		case d < 0:
			t.errorf("probe_interval", "must be positive, or \"0s\" to turn health probes off")
		case d == 0:
			r.ProbeInterval.Duration = -1
		default:
			r.ProbeInterval.Duration = d
		}
	}
	positive("probe_timeout", &r.ProbeTimeout)
	atLeastOne("probe_misses", &r.ProbeMisses)
	positive("terminate_after", &r.TerminateAfter)
	positive("command_timeout", &r.IMAPCommandTimeout)
	positive("idle_restart", &r.IdleRestart)
	positive("push_poll", &r.PushPoll)
	t.finish()
	return r
}
