package outbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The review refuses a message too big for its account's server before
// anything is sent, so it must know the limit without connecting: the
// SIZE (RFC 1870) the server last announced, remembered here per account
// by whoever sent through it (the TUI, `unibox send`, `unibox sync`):
//
//	smtp-size/<account hash>   the limit in bytes, one line ("0": no fixed limit)
//
// It is rebuilt by the next send, so a lost or damaged file only means
// the default again; written atomically, the last writer wins.

// smtpSizePath is the record's path for account (named by a hash: an
// account name may hold any character).
func (b *Box) smtpSizePath(account string) string {
	sum := sha256.Sum256([]byte(account))
	return filepath.Join(b.root, "smtp-size", hex.EncodeToString(sum[:16]))
}

// SMTPSize is the SIZE account's server last announced: its limit in
// bytes (0: no fixed limit), and whether one is known at all.
func (b *Box) SMTPSize(account string) (limit int64, known bool) {
	data, err := os.ReadFile(b.smtpSizePath(account))
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// NoteSMTPSize remembers the SIZE account's server announced; the file
// is written only when the limit changed.
func (b *Box) NoteSMTPSize(account string, limit int64) error {
	if limit < 0 {
		return fmt.Errorf("outbox: SIZE of %s: %w (%d)", account, ErrInvalid, limit)
	}
	if n, ok := b.SMTPSize(account); ok && n == limit {
		return nil
	}
	p := b.smtpSizePath(account)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("outbox: SIZE of %s: %w", account, err)
	}
	return writeAtomic(filepath.Dir(p), filepath.Base(p), []byte(strconv.FormatInt(limit, 10)+"\n"))
}
