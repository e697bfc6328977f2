package smtptest

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"unibox/accounts/testservers/memimap"
)

// IntoMemIMAP delivers into m: each recipient that names a memimap user
// (the whole address, else its local part) gets the message appended to
// its INBOX, through memimap's own store, as an MDA would. Recipients of
// no user there are taken as remote and skipped.
func IntoMemIMAP(m *memimap.Server) Deliverer {
	return func(_ string, rcpt []string, data []byte) error {
		for _, r := range rcpt {
			user := r
			if !m.HasUser(user) {
				user, _, _ = strings.Cut(r, "@")
				if !m.HasUser(user) {
					continue
				}
			}
			if _, err := m.Append(user, "INBOX", data, nil, time.Now()); err != nil {
				return fmt.Errorf("deliver to %s: %w", r, err)
			}
		}
		return nil
	}
}

// IntoDovecot delivers into the .ci/dovecot.sh instance living in dir
// (UNIBOX_DOVECOT_DIR), as its MDA would: `doveadm save` into the INBOX of
// each recipient whose local part is one of users. Others are skipped.
func IntoDovecot(dir string, users ...string) Deliverer {
	return func(_ string, rcpt []string, data []byte) error {
		for _, r := range rcpt {
			user, _, _ := strings.Cut(r, "@")
			if !slices.Contains(users, user) {
				continue
			}
			cmd := exec.Command("doveadm", "-c", filepath.Join(dir, "dovecot.conf"), "save", "-u", user, "-m", "INBOX")
			cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
			cmd.Stdin = bytes.NewReader(data)
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("doveadm save for %s: %w: %s", user, err, bytes.TrimSpace(out))
			}
		}
		return nil
	}
}
