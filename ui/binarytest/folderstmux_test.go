package binarytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

func folderMail(from, subject string) []byte {
	return imaptest.Mail{From: from, To: "alice@example.org", Subject: subject, Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes()
}

// The real binary in tmux against Dovecot: o lists the folders with their
// unread counts, a folder opens in the list (its name in the bar), a
// triage key acts in it on the server, new mail is pushed to the folder
// on screen and to the inbox at once, and esc goes back to the inbox.
func TestFoldersInTmuxOnDovecot(t *testing.T) {
	t.Parallel() // its own servers, XDG folders and tmux: nothing shared
	d := imaptest.StartDovecot(t)
	user, _ := d.NewUser(t)
	d.Seed(t, user, "INBOX", folderMail("Ann <ann@example.org>", "waiting in the inbox"))
	d.Seed(t, user, "Archive", folderMail("Bo <bo@example.org>", "kept in the archive"))
	d.Seed(t, user, "Archive", folderMail("Cy <cy@example.org>", "also in the archive"))
	dir := t.TempDir()
	cfg := facetest.IMAPAs("Work", user, d.Port(), facetest.Env("UNIBOX_FOLDER_PW"))
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(xdgIn(dir), "UNIBOX_FOLDER_PW="+user+"-pw")
	s := startTmux(t, buildUnibox(t), []string{"--config", path}, env, 100, 30)
	s.waitFor("waiting in the inbox", 30*time.Second)
	s.waitFor("Work ● connected", 30*time.Second)

	s.keys("o")
	s.waitFor("Archive  2 unread", 30*time.Second)
	s.keys("/", "a", "r", "c", "h", "Enter")
	s.waitUntil("the archive in the list", 30*time.Second, func(lines []string) bool {
		screen := strings.Join(lines, "\n")
		return strings.Contains(screen, "Work/Archive") && strings.Contains(screen, "Work: Archive · 2 messages") &&
			strings.Contains(screen, "kept in the archive") && !strings.Contains(screen, "waiting in the inbox")
	})

	s.keys("d") // trash the top row, on the server
	s.waitFor("trashed 1: Work 1", 30*time.Second)
	c := d.Client(t, user)
	eventually(t, "the trashed message never reached Trash", 30*time.Second, func() bool {
		st, err := c.Status("Trash", &imap.StatusOptions{NumMessages: true}).Wait()
		return err == nil && st.NumMessages != nil && *st.NumMessages == 1
	})
	c.Close()

	d.Seed(t, user, "Archive", folderMail("Di <di@example.org>", "pushed into the archive"))
	s.waitFor("pushed into the archive", 30*time.Second)
	d.Seed(t, user, "INBOX", folderMail("Ed <ed@example.org>", "pushed into the inbox"))
	s.waitFor("Work/Archive ● connected 2", 30*time.Second) // the inbox's unread, in the bar

	s.keys("Escape")
	s.waitUntil("the inbox again", 30*time.Second, func(lines []string) bool {
		screen := strings.Join(lines, "\n")
		return strings.Contains(screen, "pushed into the inbox") && strings.Contains(screen, "waiting in the inbox") &&
			!strings.Contains(screen, "in the archive")
	})
}
