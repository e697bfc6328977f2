package outbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// Claim is one process's exclusive hold on an entry: an flock on the
// entry's lock file. The kernel drops it when the process dies, kill -9
// included, so a dead sender never blocks an entry; and flock locks
// belong to an open file, so two Claims in one process exclude each
// other as two processes do. A Claim is for one goroutine.
type Claim struct {
	b     *Box
	lock  *os.File
	entry Entry
}

// Claim takes the entry's lock without waiting: ErrClaimed when another
// process or goroutine holds it. Once held, the entry is read afresh: a
// listing taken before the claim may be stale (another process sent it,
// and removed it, meanwhile), and only what is read under the lock is
// acted on.
func (b *Box) Claim(id string) (*Claim, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(b.outbox, id+entryLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("outbox: claiming entry %s: %w", id, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("outbox: entry %s: %w", id, ErrClaimed)
		}
		return nil, fmt.Errorf("outbox: claiming entry %s: %w", id, err)
	}
	c := &Claim{b: b, lock: f}
	e, err := b.readEntry(id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			c.dropLock()
		} else if errors.Is(err, ErrDamaged) {
			err = b.setAside(id, err).Err
		}
		c.Release()
		return nil, err
	}
	c.entry = e
	return c, nil
}

// Entry is the entry as last written under this claim.
func (c *Claim) Entry() Entry {
	e := c.entry
	e.Rcpt = slices.Clone(e.Rcpt)
	if e.Original != nil {
		o := *e.Original
		e.Original = &o
	}
	return e
}

// Wire is the message as it goes over SMTP.
func (c *Claim) Wire() ([]byte, error) { return c.body(entryWire) }

// Saved is the copy for the Sent folder.
func (c *Claim) Saved() ([]byte, error) { return c.body(entrySaved) }

func (c *Claim) body(ext string) ([]byte, error) {
	if c.lock == nil {
		return nil, fmt.Errorf("outbox: entry %s: the claim was released", c.entry.ID)
	}
	data, err := os.ReadFile(filepath.Join(c.b.outbox, c.entry.ID+ext))
	if err != nil {
		return nil, fmt.Errorf("outbox: entry %s%s: %w", c.entry.ID, ext, notFound(err))
	}
	return data, nil
}

// Mark is the sender's step to state, edit filling in what goes with it
// (LastError, NextTry, SentFolder...). It returns once the entry is on
// disk and fsynced: "sending" must be, before the first byte of the body
// is written. A step Step refuses changes nothing. Going back to queued
// counts an attempt.
func (c *Claim) Mark(state State, edit func(*Entry)) error {
	return c.step(state, Sender, edit)
}

// Decide is a person's step: send an unknown or failed entry again
// (→queued), or say an unknown one was sent (→done).
func (c *Claim) Decide(state State, edit func(*Entry)) error {
	return c.step(state, Person, edit)
}

func (c *Claim) step(state State, by Actor, edit func(*Entry)) error {
	if c.lock == nil {
		return fmt.Errorf("outbox: entry %s: the claim was released", c.entry.ID)
	}
	if err := Step(c.entry.State, state, by); err != nil {
		return fmt.Errorf("entry %s: %w", c.entry.ID, err)
	}
	e := c.Entry()
	if state == StateQueued && by == Sender {
		e.Attempts++
	}
	if edit != nil {
		edit(&e)
	}
	e.ID, e.Account, e.State, e.Err = c.entry.ID, c.entry.Account, state, nil
	if err := checkEntry(e); err != nil {
		return err
	}
	if state == StateSent && c.entry.State == StateSending || state == StateDone && c.entry.State == StateUnknown {
		// The server took it (or a person says it went): its recipients
		// are ones the account has written to. Recorded before the step,
		// so no crash between the two forgets them; a record that cannot
		// be written only shows them as new later, and must not hold up
		// an entry that is sent.
		_ = c.b.RecordSentTo(e.Account, e.Rcpt)
	}
	if err := c.b.writeEntry(&e); err != nil {
		return err
	}
	c.entry = e
	return nil
}

// Release lets another process claim the entry. Releasing twice is
// harmless.
func (c *Claim) Release() error {
	if c.lock == nil {
		return nil
	}
	f := c.lock
	c.lock = nil
	uerr := unix.Flock(int(f.Fd()), unix.LOCK_UN)
	if err := errors.Join(uerr, f.Close()); err != nil {
		return fmt.Errorf("outbox: releasing entry %s: %w", c.entry.ID, err)
	}
	return nil
}

// dropLock unlinks the lock file of an entry that is gone, while the lock
// is held. Safe because ids are never reused: whoever locks the unlinked
// file, or a new one by that name, reads the entry afresh and finds it
// gone.
func (c *Claim) dropLock() {
	os.Remove(c.lock.Name())
}
