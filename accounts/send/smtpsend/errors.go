package smtpsend

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/emersion/go-smtp"

	"unibox/conn"
)

// Stage is the step of the SMTP exchange an error happened at.
type Stage int

const (
	StageConnect  Stage = iota // dial, and the checks before it
	StageGreeting              // the server's 220
	StageEHLO                  // EHLO and its capabilities
	StageTLS                   // implicit TLS or STARTTLS
	StageAuth                  // AUTH, and getting the secret
	StageMail                  // MAIL FROM (and the SIZE check before it)
	StageRcpt                  // RCPT TO
	StageData                  // the DATA command, up to its 354
	StageBody                  // BeforeBody and the message itself
	StageDot                   // the final dot and the wait for its answer
)

var stageNames = [...]string{"connect", "greeting", "ehlo", "tls", "auth", "mail", "rcpt", "data", "body", "dot"}

func (s Stage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("stage(%d)", int(s))
}

// Outcome says what a failed Send may have left behind, which is all the
// outbox needs to decide: send again, give up, or ask a person.
type Outcome int

const (
	// NotSent: nothing was delivered; the same message may be sent again.
	NotSent Outcome = iota
	// Refused: the server said no for good (5xx), or the setup cannot
	// work (plaintext to a remote host, no STARTTLS); do not retry.
	Refused
	// Unknown: the connection failed after the first byte of the body
	// without an SMTP answer to the final dot. The message may have been
	// delivered: never send it again without a person deciding.
	Unknown
)

func (o Outcome) String() string {
	switch o {
	case NotSent:
		return "not sent"
	case Refused:
		return "refused"
	case Unknown:
		return "outcome unknown"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// Sentinels matching an *Error by its Outcome (errors.Is), and ErrAuth for
// credentials the server refused (after the one fresh retry for tokens).
var (
	ErrNotSent = errors.New("not sent")
	ErrRefused = errors.New("refused")
	ErrUnknown = errors.New("may have been sent")
	ErrAuth    = errors.New("authentication failed")
)

// Error is every failure of Send.
type Error struct {
	Stage     Stage
	Outcome   Outcome
	Code      int    // the server's reply code, 0 when there was none
	Recipient string // the refused address, at StageRcpt
	Err       error  // the cause; never holds the secret
	Size      Size   // what EHLO said of SIZE, when it got that far

	class conn.ErrorClass // set when the cause alone does not say it (config)
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "smtp %s: ", e.Stage)
	if e.Recipient != "" {
		fmt.Fprintf(&b, "recipient %s: ", e.Recipient)
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	switch e.Outcome {
	case Unknown:
		b.WriteString(" (the message may have been sent: check Sent before sending it again)")
	case Refused:
		b.WriteString(" (not sent)")
	case NotSent:
		b.WriteString(" (not sent; safe to try again)")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches the outcome sentinels; ErrAuth and the rest come from Err.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotSent:
		return e.Outcome == NotSent
	case ErrRefused:
		return e.Outcome == Refused
	case ErrUnknown:
		return e.Outcome == Unknown
	}
	return false
}

// Class maps a Send error to unibox's error classes (conn.ErrorClass
// names): auth, config, timeout, unavailable (the server is unreachable
// or said "try later"), tool (a permanent refusal of this message).
func Class(err error) string {
	if err == nil {
		return conn.ClassNone.String()
	}
	var e *Error
	if !errors.As(err, &e) {
		return conn.ClassOf(err).String()
	}
	switch {
	case errors.Is(err, ErrAuth):
		return conn.ClassAuth.String()
	case e.class != conn.ClassNone:
		return e.class.String()
	case isTimeout(err):
		return conn.ClassTimeout.String()
	case e.Outcome == Refused:
		return conn.ClassTool.String()
	}
	return conn.ClassUnavailable.String()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// codeOf is the reply code of an SMTP error in err's chain, or 0.
func codeOf(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

// byReply is the outcome a reply code gives before the body: 5xx is
// final, 4xx and no reply at all leave the message unsent.
func byReply(err error) Outcome {
	if c := codeOf(err); c >= 500 && c < 600 {
		return Refused
	}
	return NotSent
}

// scrubber removes secrets from error text: a server may echo what it was
// sent (the token, or the base64 AUTH line) in its reply.
type scrubber struct{ secrets []string }

func (s *scrubber) add(secret string, initialResponse []byte) {
	if secret == "" {
		return
	}
	s.secrets = append(s.secrets, secret, base64.StdEncoding.EncodeToString([]byte(secret)))
	if len(initialResponse) > 0 {
		s.secrets = append(s.secrets, base64.StdEncoding.EncodeToString(initialResponse))
	}
}

func (s *scrubber) text(t string) string {
	for _, sec := range s.secrets {
		t = strings.ReplaceAll(t, sec, "[secret]")
	}
	return t
}

// scrub returns err unchanged unless its text holds a secret; then an SMTP
// error keeps its code with the words replaced, anything else becomes
// plain text (nothing left to unwrap to the secret).
func (s *scrubber) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if s.text(msg) == msg {
		return err
	}
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		c := *se
		c.Message = s.text(se.Message)
		return &c
	}
	return errors.New(s.text(msg))
}
