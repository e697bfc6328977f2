package teatest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/tui"
)

// imapSessions is how many IMAP sessions Dovecot counts for user, as its
// per-user limit (mail_max_userip_connections) does: doveadm who, one
// line a connection.
func imapSessions(t *testing.T, d *imaptest.PrivateDovecot, user string) int {
	t.Helper()
	out, err := exec.Command("doveadm", "-c", filepath.Join(d.Dir(), "dovecot.conf"), "who", "-1", user).CombinedOutput()
	if err != nil && !strings.Contains(string(out), "username") {
		return 0 // exit 68: no session
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == user && strings.Contains(l, "imap") {
			n++
		}
	}
	return n
}

// On Dovecot: visiting folder after folder holds one IMAP session more
// than the inbox alone, never one a folder; each folder on screen gets
// its new mail pushed, the inbox's too; back in the inbox the extra
// session ends.
func TestFolderSessionsOnDovecot(t *testing.T) {
	d := imaptest.StartDovecot(t)
	user, pass := d.NewUser(t)
	d.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "in the inbox", Date: now.Add(-time.Hour), Body: "x"}.Bytes())
	set, st := openStoredUser(t, d, filepath.Join(t.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(t, tm, "in the inbox", "Home ● connected")
	// Three: the calls', the inbox's watch, and the one the test seeds
	// through (imaptest keeps it logged in for the test).
	waitUntil(t, "no IMAP session", func() bool { return imapSessions(t, d, user) >= 3 })
	base := imapSessions(t, d, user)
	t.Logf("Dovecot sessions of %s with the inbox alone: %d", user, base)
	for _, f := range []string{"Archive", "Trash", "Junk", "Sent"} {
		tm.Send(key("o"))
		waitFor(t, tm, "folders of Home", f)
		tm.Send(key("/"))
		typeText(tm, strings.ToLower(f))
		tm.Send(key("enter"))
		waitFor(t, tm, "Home: "+f)
		// Its push works: the watch is connected, and counted, now.
		d.Seed(t, user, f, imaptest.Mail{From: "Bo <bo@example.org>", Subject: "new in " + f, Date: now, Body: "x"}.Bytes())
		waitFor(t, tm, "new in "+f)
		waitUntil(t, f+": more than one IMAP session besides the inbox's", func() bool { return imapSessions(t, d, user) <= base+1 })
	}
	d.Seed(t, user, "INBOX", imaptest.Mail{From: "Cy <cy@example.org>", Subject: "new in the inbox", Date: now, Body: "x"}.Bytes())
	waitFor(t, tm, "Home/Sent ● connected 2")
	tm.Send(key("esc"))
	waitFor(t, tm, "new in the inbox")
	waitUntil(t, "back in the inbox, the folder's session stayed", func() bool { return imapSessions(t, d, user) <= base })
}
