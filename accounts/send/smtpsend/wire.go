package smtpsend

import (
	"bytes"
	"net"
	"time"
)

// wire is the connection under go-smtp. It does two things go-smtp cannot
// be asked to do before NewClientStartTLS returns (which greets, says EHLO
// and STARTTLS with its own 5-minute timeouts): it caps every deadline at
// StepTimeout while capped is set, and it remembers the verb of the last
// command written, so an error there is put at the right stage. Only the
// sending goroutine touches it (ctx cancellation only calls Close).
type wire struct {
	net.Conn
	step   time.Duration
	capped bool
	track  bool
	last   string // "", "EHLO", "HELO", "STARTTLS", ...
}

func (w *wire) SetDeadline(t time.Time) error {
	if w.capped && w.step > 0 {
		if limit := time.Now().Add(w.step); t.IsZero() || t.After(limit) {
			t = limit
		}
	}
	return w.Conn.SetDeadline(t)
}

func (w *wire) Write(p []byte) (int, error) {
	if w.track && len(p) > 0 {
		verb := p
		if i := bytes.IndexAny(verb, " \r\n"); i >= 0 {
			verb = verb[:i]
		}
		w.last = string(bytes.ToUpper(verb))
	}
	return w.Conn.Write(p)
}

// helloStage is where a failure during the greeting, EHLO or STARTTLS
// happened, from the last command written.
func (w *wire) helloStage() Stage {
	switch w.last {
	case "":
		return StageGreeting
	case "EHLO", "HELO":
		return StageEHLO
	}
	return StageTLS
}
