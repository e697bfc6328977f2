package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// A message to Bob, with Carol in Bcc.
const toBob = "To: Bob <bob@example.com>\r\nBcc: carol@example.com\r\nSubject: lunch?\r\n\r\nTomorrow at noon?\r\n"

// sendWorld is sam (with a Sent folder) and bob on one IMAP server, and a
// submission server delivering into it.
func sendWorld(t *testing.T) (*memimap.Server, *smtptest.Server) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent})
	if err := srv.AddUser("bob", "bobpw", nil); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddUser("carol", "carolpw", nil); err != nil {
		t.Fatal(err)
	}
	return srv, facetest.SMTP(t, srv, "pw")
}

// sendConfig writes a config with account Work sending through port.
func sendConfig(t *testing.T, srv *memimap.Server, port int, rest string) string {
	t.Setenv("UNIBOX_TEST_PW", "pw")
	return facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")+"\n"+facetest.Sending(port, rest)))
}

// runSend runs `unibox send --json` in process with msg on stdin.
func runSend(t *testing.T, msg string, args ...string) (cli.SendJSON, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Send(append([]string{"--json"}, args...), strings.NewReader(msg), &stdout, &stderr)
	var out cli.SendJSON
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout.String(), stderr.String())
		}
	}
	return out, code, stderr.String()
}

// outboxEntries is what the test's outbox holds.
func outboxEntries(t *testing.T) []outbox.Entry {
	t.Helper()
	b, err := outbox.Open(filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := b.Entries()
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// withID keeps the stored messages that carry Message-ID id.
func withID(ms []facetest.Stored, id string) []facetest.Stored {
	var out []facetest.Stored
	for _, m := range ms {
		if bytes.Contains(m.Raw, []byte("<"+id+">")) {
			out = append(out, m)
		}
	}
	return out
}

func TestSendDeliversOnceAndFilesTheCopy(t *testing.T) {
	srv, smtp := sendWorld(t)
	cfg := sendConfig(t, srv, smtp.Port(), `save_sent = "always"`)
	out, code, stderr := runSend(t, toBob, "--config", cfg, "--account", "Work")
	if code != 0 || out.Outcome != "sent" || out.SavedTo != "Sent" || out.MessageID == "" || !strings.HasSuffix(out.MessageID, "@example.com") {
		t.Fatalf("exit %d %+v\n%s", code, out, stderr)
	}
	bob := withID(facetest.Folder(t, srv, "bob", "bobpw", "INBOX"), out.MessageID)
	carol := withID(facetest.Folder(t, srv, "carol", "carolpw", "INBOX"), out.MessageID)
	sent := withID(facetest.Folder(t, srv, "sam", "pw", "Sent"), out.MessageID)
	if len(bob) != 1 || len(carol) != 1 || len(sent) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob %d, carol %d, Sent %d, deliveries %d: want each exactly once", len(bob), len(carol), len(sent), smtp.Deliveries())
	}
	if bytes.Contains(bob[0].Raw, []byte("carol@")) || !bytes.Contains(sent[0].Raw, []byte("Bcc: carol@example.com")) {
		t.Errorf("Bcc must be in the Sent copy only:\nbob's:\n%s\nSent:\n%s", bob[0].Raw, sent[0].Raw)
	}
	if !bytes.Contains(bob[0].Raw, []byte("Sam\" <sam@example.com>")) {
		t.Errorf("From was not added:\n%s", bob[0].Raw)
	}
	if !slices.Contains(sent[0].Flags, imap.FlagSeen) {
		t.Errorf("the Sent copy is not \\Seen: %v", sent[0].Flags)
	}
	if es := outboxEntries(t); len(es) != 0 {
		t.Errorf("the outbox keeps %+v after a sent and saved message", es)
	}
}

func TestSendOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(s *smtptest.Server)
		args     []string
		want     int
		outcome  string
		errHas   string
		delivers int
		left     outbox.State // what stays in the outbox ("" nothing)
	}{
		{name: "refused recipient", fault: func(s *smtptest.Server) { s.RejectRcpt("carol@example.com", true) },
			want: 1, outcome: "failed", errHas: "carol@example.com"},
		{name: "cut after the dot", fault: func(s *smtptest.Server) { s.CutAfterDot(1) },
			want: 3, outcome: "unknown", errHas: "may have been sent", delivers: 1, left: outbox.StateUnknown},
		{name: "cut before MAIL, every try", fault: func(s *smtptest.Server) { s.CutAtMail(10) },
			want: 1, outcome: "failed"},
		{name: "cut before MAIL, queued", fault: func(s *smtptest.Server) { s.CutAtMail(10) }, args: []string{"--queue"},
			want: 4, outcome: "queued", left: outbox.StateQueued},
		{name: "cut before MAIL once, then sent", fault: func(s *smtptest.Server) { s.CutAtMail(1) },
			want: 0, outcome: "sent", delivers: 1},
		{name: "refused recipient, queued", fault: func(s *smtptest.Server) { s.RejectRcpt("carol@example.com", true) }, args: []string{"--queue"},
			want: 1, outcome: "failed", errHas: "carol@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, smtp := sendWorld(t)
			cfg := sendConfig(t, srv, smtp.Port(), `save_sent = "never"`)
			tt.fault(smtp)
			out, code, stderr := runSend(t, toBob, append([]string{"--config", cfg, "--account", "Work"}, tt.args...)...)
			if code != tt.want || out.Outcome != tt.outcome || !strings.Contains(out.Error, tt.errHas) {
				t.Fatalf("exit %d (want %d), %+v (want %s, error with %q)\n%s", code, tt.want, out, tt.outcome, tt.errHas, stderr)
			}
			if got := len(facetest.Folder(t, srv, "bob", "bobpw", "INBOX")); got != tt.delivers || smtp.Deliveries() != tt.delivers {
				t.Errorf("bob has %d, the server delivered %d: want %d", got, smtp.Deliveries(), tt.delivers)
			}
			es := outboxEntries(t)
			switch {
			case tt.left == "" && len(es) != 0:
				t.Errorf("left behind: %+v", es)
			case tt.left != "" && (len(es) != 1 || es[0].State != tt.left):
				t.Errorf("the outbox holds %+v, want one %s entry", es, tt.left)
			}
		})
	}
}

func TestSendRefusals(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	t.Setenv("UNIBOX_TEST_PW", "pw")
	readOnly := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	down := sendConfig(t, srv, imaptest.ClosedPort(t), "")
	tests := []struct {
		name, cfg, msg string
		args           []string
		want           int
		errHas         string
	}{
		{"no smtp_host", readOnly, toBob, nil, 1, "sending is not configured for this account (smtp_host)"},
		{"no recipient", down, "Subject: x\r\n\r\nbody\r\n", nil, 2, "no recipient"},
		{"no account", down, toBob, []string{"--account", "Nope"}, 2, "Nope"},
		{"server down", down, toBob, nil, 1, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args == nil {
				args = []string{"--account", "Work"}
			}
			var stdout, stderr bytes.Buffer
			code := cli.Send(append([]string{"--config", tt.cfg}, args...), strings.NewReader(tt.msg), &stdout, &stderr)
			if code != tt.want || !strings.Contains(stderr.String(), tt.errHas) {
				t.Fatalf("exit %d (want %d)\nstdout %s\nstderr %s\nwant %q", code, tt.want, stdout.String(), stderr.String(), tt.errHas)
			}
			if es := outboxEntries(t); len(es) != 0 {
				t.Errorf("left behind: %+v", es)
			}
		})
	}
}
