package launch

import (
	"bytes"
	"errors"
	"io"
	"os"

	"unibox/accounts/store"
)

// A first launch has no stored rows to draw: its first screen is the
// servers' answers, and starting a provider child (its exec and start,
// then the mail server's login) is the longest wait before them. So it
// starts every account's provider as soon as the config is read, and
// opens the store meanwhile (a new file, copied from the store's empty
// template). A later launch draws the stored rows first and starts the
// providers after them (see ui/tui's restored), so that the children's
// start never delays the rows the store already has.

// firstLaunch says whether the store has never been made: the demo's
// store lives in memory and is always new.
func firstLaunch(useDemo bool) bool {
	if useDemo {
		return true
	}
	path, err := store.DefaultPath()
	if err != nil {
		return false // openStore says why
	}
	_, err = os.Stat(path)
	return errors.Is(err, os.ErrNotExist)
}

// opening is the store being opened, beside the providers' start when
// early, or already open.
type opening struct {
	early bool
	done  chan opened
	out   bytes.Buffer // openStore's warnings, said in order once joined
	now   opened
}

type opened struct {
	st       *store.Store
	off, err error
}

// openingStore opens the store: in the background when early (its
// warnings wait for wait, so that they come whole and in order).
func openingStore(useDemo bool, mode StoreMode, hold <-chan struct{}, early bool, stderr io.Writer) *opening {
	o := &opening{early: early}
	if !early {
		o.now.st, o.now.off, o.now.err = openStore(useDemo, mode, hold, stderr)
		return o
	}
	o.done = make(chan opened, 1)
	go func() {
		var r opened
		r.st, r.off, r.err = openStore(useDemo, mode, hold, &o.out)
		o.done <- r
	}()
	return o
}

// wait is the store once open, its warnings written to stderr.
func (o *opening) wait(stderr io.Writer) (*store.Store, error, error) {
	r := o.now
	if o.early {
		r = <-o.done
	}
	_, _ = o.out.WriteTo(stderr)
	return r.st, r.off, r.err
}
