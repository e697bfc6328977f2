package outbox

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"unibox/model/review"
)

// The outbox forgets an entry once it is done, but the review screen must
// know whom the account has written to ("new recipient: x@evil.example"),
// also where no copy is kept in Sent (save_sent never, a third-party
// server). So every entry that reaches "sent" leaves its recipients in a
// record of its own:
//
//	sent-to/<account hash>        one address key (review.AddressKey) a line
//	sent-to/<account hash>.lock   flocked by whoever reads or writes it
//
// The file is named by a hash of the account name (a name may hold any
// character), appended to under the lock, each address once, and bounded:
// past sentToMax lines it is rewritten atomically with the newest
// sentToKeep. An address dropped then is only shown as new again, which is
// the safe side.

var (
	sentToMax  = 5000
	sentToKeep = 4000
)

// sentToPath is the record's path for account.
func (b *Box) sentToPath(account string) string {
	sum := sha256.Sum256([]byte(account))
	return filepath.Join(b.root, "sent-to", hex.EncodeToString(sum[:16]))
}

// lockSentTo opens and flocks the record's lock file (how: LOCK_SH or
// LOCK_EX); closing the file lets go of the lock.
func (b *Box) lockSentTo(account string, how int) (*os.File, error) {
	p := b.sentToPath(account)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("outbox: sent-to record of %s: %w", account, err)
	}
	f, err := os.OpenFile(p+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("outbox: sent-to record of %s: %w", account, err)
	}
	if err := unix.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, fmt.Errorf("outbox: locking the sent-to record of %s: %w", account, err)
	}
	return f, nil
}

// readSentTo is the record's keys, oldest first (none when it is
// absent), and whether it ends mid-line (an append a crash cut short).
func readSentTo(p string) (keys []string, cut bool, err error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if k := strings.TrimSpace(sc.Text()); k != "" {
			keys = append(keys, k)
		}
	}
	return keys, len(data) > 0 && data[len(data)-1] != '\n', sc.Err()
}

// SentTo is every address the account has sent to through this outbox,
// by review.AddressKey: any Box on the same root sees what any other
// recorded.
func (b *Box) SentTo(account string) (map[string]bool, error) {
	lock, err := b.lockSentTo(account, unix.LOCK_SH)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	keys, _, err := readSentTo(b.sentToPath(account))
	if err != nil {
		return nil, fmt.Errorf("outbox: reading the sent-to record of %s: %w", account, err)
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}

// RecordSentTo adds addrs to the account's record, each once.
func (b *Box) RecordSentTo(account string, addrs []string) error {
	lock, err := b.lockSentTo(account, unix.LOCK_EX)
	if err != nil {
		return err
	}
	defer lock.Close()
	p := b.sentToPath(account)
	keys, cut, err := readSentTo(p)
	if err != nil {
		return fmt.Errorf("outbox: reading the sent-to record of %s: %w", account, err)
	}
	have := make(map[string]bool, len(keys))
	for _, k := range keys {
		have[k] = true
	}
	var add []string
	for _, a := range addrs {
		// A key is one line: an address holding a line break (compose
		// refuses one) is never recorded.
		if k := review.AddressKey(a); k != "" && !have[k] && !strings.ContainsAny(k, "\r\n") {
			have[k] = true
			add = append(add, k)
		}
	}
	if len(add) == 0 {
		return nil
	}
	if all := append(keys, add...); len(all) > sentToMax {
		return writeAtomic(filepath.Dir(p), filepath.Base(p), []byte(strings.Join(all[len(all)-sentToKeep:], "\n")+"\n"))
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("outbox: sent-to record of %s: %w", account, err)
	}
	text := strings.Join(add, "\n") + "\n"
	if cut {
		text = "\n" + text // the cut line stays a line of its own
	}
	_, werr := f.WriteString(text)
	serr := f.Sync()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		return fmt.Errorf("outbox: writing the sent-to record of %s: %w", account, err)
	}
	return nil
}

// SentToStamp changes whenever the account's record does (its size and
// modification time; "" while there is none): a reader that keeps what
// it read (the contacts index) asks this, a stat, instead of reading the
// record again.
func (b *Box) SentToStamp(account string) (string, error) {
	st, err := os.Stat(b.sentToPath(account))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("outbox: the sent-to record of %s: %w", account, err)
	}
	return fmt.Sprintf("%d.%d", st.Size(), st.ModTime().UnixNano()), nil
}
