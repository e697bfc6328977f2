package outbox

import "errors"

// Recover is what a unibox does at start, before sending anything. An
// entry found "sending" whose lock is free lost its sender mid-send: the
// body may have reached the server, and SMTP cannot be asked, so it
// becomes "unknown", never re-sent unless a person says so. An entry
// whose sender holds its lock is another unibox's, left alone. A done
// entry whose removal was cut short is removed. Temp files a crash left
// are cleared, damaged entries set aside (Entries). The answer is the
// entries that changed, as they are now.
func (b *Box) Recover() ([]Entry, error) {
	for _, d := range []string{b.drafts, b.outbox} {
		if err := cleanTemps(d); err != nil {
			return nil, err
		}
	}
	all, err := b.Entries()
	if err != nil {
		return nil, err
	}
	var changed []Entry
	var errs []error
	for _, e := range all {
		if e.Err != nil || (e.State != StateSending && e.State != StateDone) {
			continue
		}
		c, err := b.Claim(e.ID)
		if errors.Is(err, ErrClaimed) || errors.Is(err, ErrNotFound) {
			continue // another unibox's, alive; or it finished meanwhile
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch c.entry.State {
		case StateSending:
			err = c.step(StateUnknown, Recovery, func(e *Entry) {
				e.LastError = "unibox stopped while sending: the message may have been sent"
			})
		case StateDone:
			err = b.removeEntry(c, true)
		default:
			c.Release()
			continue
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			changed = append(changed, c.Entry())
		}
		c.Release()
	}
	return changed, errors.Join(errs...)
}
