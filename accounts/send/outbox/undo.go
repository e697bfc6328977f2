package outbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Cancel takes a queued entry back out of the outbox: undo during
// send_delay, or a person taking back a message still waiting for its
// account. It claims the entry first, so it is refused (ErrClaimed) while
// a sender holds it and (ErrState) once it has gone past queued. The text
// goes back to its draft, which stayed on disk all along; an entry
// without one (`unibox send --queue`) gets a new draft holding the copy
// for Sent, so the text is never lost. The answer is the entry, its
// DraftID naming that draft.
func (b *Box) Cancel(id string) (Entry, error) {
	c, err := b.Claim(id)
	if err != nil {
		return Entry{}, err
	}
	defer c.Release()
	e := c.Entry()
	if e.State != StateQueued {
		return e, fmt.Errorf("outbox: entry %s is %s, not queued: it can no longer be taken back: %w", id, e.State, ErrState)
	}
	if e, err = b.keepDraft(c, e); err != nil {
		return e, err
	}
	return e, b.removeEntry(c, false)
}

// SendNow brings a queued entry's time forward to now: a person quitting
// while it counts down chose to send it rather than leave it waiting.
// Claimed first, so an entry a sender holds is refused (ErrClaimed), as
// is one past queued (ErrState). The runner still has to be woken.
func (b *Box) SendNow(id string, now time.Time) error {
	c, err := b.Claim(id)
	if err != nil {
		return err
	}
	defer c.Release()
	e := c.Entry()
	if e.State != StateQueued {
		return fmt.Errorf("outbox: entry %s is %s, not queued: %w", id, e.State, ErrState)
	}
	if e.SendAt.After(now) {
		e.SendAt = now
	}
	if err := b.writeEntry(&e); err != nil {
		return err
	}
	c.entry = e
	return nil
}

// Reopen takes a failed entry (a server refused it: a 550) back to its
// draft for a person to mend and send again: the draft it came from, or
// a new one holding the copy for Sent when it had none, and the entry
// leaves the outbox. Claimed first, as Cancel is; any other state is
// refused (ErrState). The answer is the entry, its DraftID naming the
// draft and its LastError the server's reason.
func (b *Box) Reopen(id string) (Entry, error) {
	c, err := b.Claim(id)
	if err != nil {
		return Entry{}, err
	}
	defer c.Release()
	e := c.Entry()
	if e.State != StateFailed {
		return e, fmt.Errorf("outbox: entry %s is %s, not failed: %w", id, e.State, ErrState)
	}
	if e, err = b.keepDraft(c, e); err != nil {
		return e, err
	}
	return e, b.removeEntry(c, false)
}

// keepDraft makes sure the claimed entry's text lives on as a draft: its
// own, still on disk, or a new one from the copy for Sent.
func (b *Box) keepDraft(c *Claim, e Entry) (Entry, error) {
	if _, err := os.Stat(filepath.Join(b.drafts, e.DraftID+draftText)); e.DraftID != "" && err == nil {
		return e, nil
	}
	saved, err := c.Saved()
	if err != nil {
		return e, err
	}
	d, err := b.NewDraft(e.Account, "new", e.Original, saved)
	if err != nil {
		return e, err
	}
	e.DraftID = d.ID
	return e, nil
}

// Remove takes an entry out of the outbox for good: once it is done (its
// draft goes too: sent and saved), or when a person discards a failed or
// unknown one (its draft, if any, stays: a person discards that on its
// own), or one set aside as damaged. It claims the entry, so a sender's
// entry is never pulled from under it; a sender holding the claim uses
// Claim.Remove.
func (b *Box) Remove(id string) error {
	c, err := b.Claim(id)
	if errors.Is(err, ErrNotFound) {
		if broken := b.brokenFiles(id); len(broken) > 0 {
			return b.removeBroken(id, broken)
		}
	}
	if err != nil {
		return err
	}
	defer c.Release()
	return c.Remove()
}

// Remove is Box.Remove under a claim already held: the sender that
// marked the entry done removes it without letting go of it between.
func (c *Claim) Remove() error {
	if c.lock == nil {
		return fmt.Errorf("outbox: entry %s: the claim was released", c.entry.ID)
	}
	switch c.entry.State {
	case StateDone:
		return c.b.removeEntry(c, true)
	case StateFailed, StateUnknown:
		return c.b.removeEntry(c, false)
	}
	return fmt.Errorf("outbox: entry %s is %s: only a done, failed or unknown entry is removed: %w", c.entry.ID, c.entry.State, ErrState)
}

// removeEntry deletes a claimed entry: its draft first when withDraft
// (so a crash never leaves a draft whose message is gone), then its
// bodies, then its JSON (a crash before that leaves an entry Remove can
// be asked again for), then its lock.
func (b *Box) removeEntry(c *Claim, withDraft bool) error {
	id := c.entry.ID
	if withDraft && c.entry.DraftID != "" {
		if err := b.DiscardDraft(c.entry.DraftID); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	if err := removeAll(b.outbox, id+entryWire, id+entrySaved); err != nil {
		return err
	}
	if err := removeAll(b.outbox, id+entryMeta); err != nil {
		return err
	}
	c.dropLock()
	return nil
}

// brokenFiles is the set-aside JSON files of entry id.
func (b *Box) brokenFiles(id string) []string {
	names, _ := listNames(b.outbox)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, id+entryMeta+brokenMark) {
			out = append(out, n)
		}
	}
	return out
}

// removeBroken is a person discarding an entry that was set aside.
func (b *Box) removeBroken(id string, broken []string) error {
	return removeAll(b.outbox, append(broken, id+entryWire, id+entrySaved, id+entryLock)...)
}
