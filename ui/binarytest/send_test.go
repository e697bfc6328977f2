package binarytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// mailWorld is where the real binary sends from: the sender's IMAP
// account (with a special-use \Sent folder), bob, and a submission
// server that takes the sender's mail and delivers it into bob's INBOX
// as an MTA would. Everything is read back by a real IMAP client.
type mailWorld struct {
	imapAddr   string // the mailbox server, for unibox and the checking client
	user, pass string // the sender's login, IMAP and SMTP alike
	from       string
	smtp       *smtptest.Server
	mem        *memimap.Server // nil for Dovecot
}

// bob is the recipient in every world: a user of the mailbox server.
const bob, bobPass = "bob", "bob-pw"

// memWorld runs on the in-process server (faults lets a test hold its
// commands): machines without Dovecot cover the binary's path too.
func memWorld(t *testing.T, faults *memimap.Faults) *mailWorld {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "sam-pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddUser(bob, bobPass, nil); err != nil {
		t.Fatal(err)
	}
	w := &mailWorld{imapAddr: srv.Addr(), user: "sam", pass: "sam-pw", from: "Sam <sam@example.org>", mem: srv}
	w.smtp = startSMTP(t, w, smtptest.IntoMemIMAP(srv))
	return w
}

// dovecotWorld runs on a Dovecot of the test's own (.ci/dovecot.sh, whose
// users have Sent as special-use \Sent); the submission server hands
// each message to it with `doveadm save`. It skips without Dovecot.
func dovecotWorld(t *testing.T) *mailWorld {
	t.Helper()
	d := imaptest.StartDovecot(t) // skips (or fails under CI) without one
	w := &mailWorld{imapAddr: d.DirectAddr(), user: "alice", pass: "alice-pw", from: "Alice <alice@example.org>"}
	w.smtp = startSMTP(t, w, smtptest.IntoDovecot(d.Dir(), bob))
	return w
}

func startSMTP(t *testing.T, w *mailWorld, deliver smtptest.Deliverer) *smtptest.Server {
	t.Helper()
	s, err := smtptest.Start(smtptest.Options{Users: map[string]string{w.user: w.pass}, Deliver: deliver})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// config writes the config of account Work (password from
// UNIBOX_SEND_PW, a copy in Sent always, found by special-use) with a
// store, drafts and outbox of the test's own.
func (w *mailWorld) config(t *testing.T) string {
	t.Helper()
	port := w.imapAddr[strings.LastIndexByte(w.imapAddr, ':')+1:]
	return facetest.Write(t, fmt.Sprintf(`
[[account]]
name = "Work"
host = "127.0.0.1"
port = %s
security = "none"
username = %q
password_env = "UNIBOX_SEND_PW"
from = %q
smtp_host = "127.0.0.1"
smtp_port = %d
smtp_security = "none"
save_sent = "always"
`, port, w.user, w.from, w.smtp.Port()))
}

// copies is the flags of each message in user's folder whose Message-ID
// is id, as another client finds them.
func (w *mailWorld) copies(t *testing.T, user, pass, folder, id string) [][]imap.Flag {
	t.Helper()
	c, err := imapclient.DialInsecure(w.imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	if _, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatalf("select %s/%s: %v", user, folder, err)
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-Id", Value: id}}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	uids := res.AllUIDs()
	if len(uids) == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]imap.Flag
	for _, m := range msgs {
		out = append(out, m.Flags)
	}
	return out
}

// inbox and sent count the message id in bob's INBOX and in the sender's
// Sent; sent also says whether every copy there is \Seen.
func (w *mailWorld) inbox(t *testing.T, id string) int {
	return len(w.copies(t, bob, bobPass, "INBOX", id))
}

func (w *mailWorld) sent(t *testing.T, id string) (n int, seen bool) {
	cs := w.copies(t, w.user, w.pass, "Sent", id)
	seen = true
	for _, f := range cs {
		seen = seen && slices.Contains(f, imap.FlagSeen)
	}
	return len(cs), seen
}

// sendCmd is `unibox send --json --account Work` of the real binary, with
// only what it needs in its environment: the password, and the test's
// own folders (facetest.Write set them).
func (w *mailWorld) sendCmd(bin, config, msg string) *exec.Cmd {
	cmd := exec.Command(bin, "send", "--json", "--config", config, "--account", "Work", "--timeout", "60s")
	cmd.Env = []string{"UNIBOX_SEND_PW=" + w.pass, "HOME=" + os.Getenv("XDG_DATA_HOME"),
		"XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME"), "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}
	cmd.Stdin = strings.NewReader(msg)
	return cmd
}

// runSend runs the binary to its end: its answer, exit code and stderr.
func (w *mailWorld) runSend(t *testing.T, bin, config, msg string) (cli.SendJSON, int, string) {
	t.Helper()
	cmd := w.sendCmd(bin, config, msg)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	var out cli.SendJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("exit %d, %v\nstdout %s\nstderr %s", cmd.ProcessState.ExitCode(), err, stdout.String(), stderr.String())
	}
	return out, cmd.ProcessState.ExitCode(), stderr.String()
}

// outboxNow is what the test's outbox holds, read as the next unibox would.
func outboxNow(t *testing.T) []outbox.Entry {
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

// letter is a message to bob whose body carries mark.
func letter(mark string) string {
	return "To: Bob <bob@example.org>\r\nSubject: " + mark + "\r\n\r\nSee you at noon (" + mark + ").\r\n"
}

// `unibox send` as a real process, on the in-process server and on
// Dovecot: sent (exit 0) lands once in bob's INBOX and once, \Seen, in
// Sent; a refused recipient (exit 1) lands nowhere and leaves nothing;
// cut after the dot (exit 3) is delivered once, reported unknown, and
// kept in the outbox for a person.
func TestSendRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	worlds := []struct {
		name string
		make func(t *testing.T) *mailWorld
	}{
		{"memimap", func(t *testing.T) *mailWorld { return memWorld(t, nil) }},
		{"dovecot", dovecotWorld},
	}
	tests := []struct {
		name       string
		fault      func(s *smtptest.Server)
		code       int
		outcome    string
		errHas     string
		inbox      int
		sent       int
		left       outbox.State // what the outbox keeps ("" nothing)
		deliveries int
	}{
		{name: "sent", fault: func(*smtptest.Server) {}, code: 0, outcome: "sent", inbox: 1, sent: 1, deliveries: 1},
		{name: "refused", fault: func(s *smtptest.Server) { s.RejectRcpt("bob@example.org", true) },
			code: 1, outcome: "failed", errHas: "bob@example.org"},
		{name: "cut after the dot", fault: func(s *smtptest.Server) { s.CutAfterDot(1) },
			code: 3, outcome: "unknown", errHas: "may have been sent", inbox: 1, left: outbox.StateUnknown, deliveries: 1},
	}
	for _, world := range worlds {
		t.Run(world.name, func(t *testing.T) {
			w := world.make(t)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					cfg := w.config(t)
					before := w.smtp.Deliveries()
					tt.fault(w.smtp)
					defer w.smtp.RejectRcpt("bob@example.org", false)
					out, code, stderr := w.runSend(t, bin, cfg, letter(t.Name()))
					if code != tt.code || out.Outcome != tt.outcome || !strings.Contains(out.Error, tt.errHas) || out.MessageID == "" {
						t.Fatalf("exit %d (want %d), %+v (want %s, error with %q)\n%s", code, tt.code, out, tt.outcome, tt.errHas, stderr)
					}
					inbox := w.inbox(t, out.MessageID)
					sent, seen := w.sent(t, out.MessageID)
					if inbox != tt.inbox || sent != tt.sent || !seen || w.smtp.Deliveries()-before != tt.deliveries {
						t.Errorf("bob's INBOX %d (want %d), Sent %d (want %d, all \\Seen: %v), deliveries %d (want %d)",
							inbox, tt.inbox, sent, tt.sent, seen, w.smtp.Deliveries()-before, tt.deliveries)
					}
					if tt.sent > 0 && out.SavedTo != "Sent" {
						t.Errorf("saved_to %q, want Sent", out.SavedTo)
					}
					es := outboxNow(t)
					switch {
					case tt.left == "" && len(es) != 0:
						t.Errorf("left in the outbox: %+v", es)
					case tt.left != "" && (len(es) != 1 || es[0].State != tt.left || es[0].MessageID != out.MessageID):
						t.Errorf("the outbox holds %+v, want this message, %s", es, tt.left)
					}
				})
			}
		})
	}
}
