package serveimap

import (
	"context"
	"time"
)

// The first page before the watch. A folder's watcher is a second
// connection with a login of its own, and the app subscribes right after
// add_account: on a launch, the watchers' logins (and the server's
// processes behind them) took the cores from the first pages of every
// account, on a machine starting twenty children at once. So a watcher
// starts once its account's first page has been listed (sync_folder or
// list_messages, whatever its outcome), or firstPageWait after it was
// asked for (an agent face may list nothing for a while). Nothing is
// missed meanwhile: a watch pushes when it starts, since what changed
// before it was heard by no one, and the app lists again.

// firstPageWait bounds how long a watcher waits for its account's first
// page.
const firstPageWait = 2 * time.Second

// markListed says the account's first page has been asked of the server.
func (l *liveness) markListed() { l.listedOnce.Do(func() { close(l.listedCh()) }) }

// listedCh is closed once the account's first page has been listed.
func (l *liveness) listedCh() chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.listed == nil {
		l.listed = make(chan struct{})
	}
	return l.listed
}

// awaitFirstPage waits until the account's first page is listed, the
// bound passes, or ctx ends (false).
func (w *watcher) awaitFirstPage(ctx context.Context) bool {
	wait := w.srv.opts.FirstPageWait
	if wait <= 0 {
		wait = firstPageWait
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.srv.liveness(w.account).listedCh():
	case <-t.C:
	case <-ctx.Done():
		return false
	}
	return true
}
