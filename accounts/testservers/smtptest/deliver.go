package smtptest

import (
	"fmt"
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
