package smtptest

import (
	"strings"

	"github.com/emersion/go-smtp"
)

// faults are misbehaviours a test asks for; each counted one fires for
// that many commands. Guarded by Server.mu: set them at any time.
type faults struct {
	cutAtMail    int
	cutAtData    int
	cutAfterDot  int
	hangAfterDot int
	hangDelivers bool
	failAt       map[string][]int  // stage → reply codes, one per command
	failText     map[string]string // stage → the text of its replies (FailAtSaying)
	rejectRcpt   map[string]bool
	echoSecrets  bool
}

// CutAtMail makes the next n MAIL commands hang up without a reply:
// nothing of the message was accepted.
func (s *Server) CutAtMail(n int) { s.mu.Lock(); s.faults.cutAtMail += n; s.mu.Unlock() }

// CutAtData makes the next n RCPTs be accepted (250 sent) and then the
// connection hang up before the DATA command is read: no 354, no body.
func (s *Server) CutAtData(n int) { s.mu.Lock(); s.faults.cutAtData += n; s.mu.Unlock() }

// CutAfterDot makes the next n messages be delivered whole and then the
// connection hang up without answering the final dot: the client cannot
// know the message went.
func (s *Server) CutAfterDot(n int) { s.mu.Lock(); s.faults.cutAfterDot += n; s.mu.Unlock() }

// HangAfterDot makes the next n messages get no answer to the final dot
// until Close; deliver says whether they are delivered first.
func (s *Server) HangAfterDot(n int, deliver bool) {
	s.mu.Lock()
	s.faults.hangAfterDot += n
	s.faults.hangDelivers = deliver
	s.mu.Unlock()
}

// FailAt answers the next command of stage ("auth", "mail", "rcpt" or
// "dot": the answer to the final dot, nothing delivered) with code, once
// per call (4xx: try later; 5xx: final).
func (s *Server) FailAt(stage string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faults.failAt == nil {
		s.faults.failAt = map[string][]int{}
	}
	s.faults.failAt[stage] = append(s.faults.failAt[stage], code)
}

// FailAtSaying is FailAt with the reply's text given: a hostile
// server's words (escape sequences, bidi controls) for the client to make
// safe before they reach a terminal.
func (s *Server) FailAtSaying(stage string, code int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faults.failAt == nil {
		s.faults.failAt = map[string][]int{}
	}
	if s.faults.failText == nil {
		s.faults.failText = map[string]string{}
	}
	s.faults.failAt[stage] = append(s.faults.failAt[stage], code)
	s.faults.failText[stage] = text
}

// RejectRcpt answers RCPT TO addr with 550 until called with false.
func (s *Server) RejectRcpt(addr string, reject bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faults.rejectRcpt == nil {
		s.faults.rejectRcpt = map[string]bool{}
	}
	s.faults.rejectRcpt[strings.ToLower(addr)] = reject
}

// EchoSecrets makes a refused login quote the password or token it was
// given in its 535, as a careless server might: the client must not
// pass it on.
func (s *Server) EchoSecrets(on bool) { s.mu.Lock(); s.faults.echoSecrets = on; s.mu.Unlock() }

// take consumes one of a counted fault.
func (s *Server) take(n *int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if *n > 0 {
		*n--
		return true
	}
	return false
}

// failure is the reply FailAt queued for stage, or nil.
func (s *Server) failure(stage string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.faults.failAt[stage]
	if len(q) == 0 {
		return nil
	}
	s.faults.failAt[stage] = q[1:]
	if text, ok := s.faults.failText[stage]; ok {
		return reply(q[0], text)
	}
	return reply(q[0], "refused at "+stage+" by the test")
}

func reply(code int, msg string) *smtp.SMTPError {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 0, 0}, Message: msg}
}
