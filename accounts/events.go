package accounts

import (
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/conn"
	"unibox/model"
)

// The account's history (accounts/history): what it went through, for
// the details view, its log file and `unibox status --history`.

// History is the account's newest n events, oldest first.
func (a *Account) History(n int) []history.Event { return a.hist.Recent(n) }

// stateEvent records a connection state change.
func stateEvent(h *history.Log, st conn.Status) {
	text := st.State.String()
	switch st.State {
	case conn.StateConnected:
		text = fmt.Sprintf("connected (session %d, %d connects)", st.Generation, st.Connects)
	case conn.StateCoolingDown:
		text = fmt.Sprintf("cooling down %s: %s", Countdown(time.Until(st.CooldownUntil)), st.LastError)
	case conn.StateAuthFailed, conn.StateNoSecret, conn.StateDisconnected, conn.StateReconnecting:
		if st.LastError != "" {
			text += ": " + st.LastError
		}
	}
	class := ""
	if st.Class != conn.ClassNone {
		class = st.Class.String()
	}
	h.Add(history.KindState, st.State.String(), class, text)
}

// pushEvent records a push from the provider, naming the folder where
// the provider can read one from uri (provider.Spec.PushFolder).
func pushEvent(h *history.Log, folderOf func(uri string) (string, bool), uri string) {
	what := uri
	if folderOf != nil {
		if folder, ok := folderOf(uri); ok {
			what = folder
		}
	}
	h.Add(history.KindPush, "", "", what+" changed on the server")
}

// listingEvent records a listing or its failure (only failures and
// listings that found something new are worth a line: a refresh a minute
// would drown the rest).
func (a *Account) listingEvent(opts ListOptions, p Page, err error, took time.Duration) {
	if err != nil {
		a.hist.Add(history.KindListing, "", conn.ClassOf(err).String(), "listing failed: "+Reason(err))
		return
	}
	folder := p.Folder
	if folder == "" {
		folder = opts.Folder
	}
	seen := fmt.Sprintf("%s/%d/%d/%d", folder, opts.BeforeUID, len(p.Messages), p.Total)
	a.histMu.Lock()
	same := a.lastListing == seen
	a.lastListing = seen
	a.histMu.Unlock()
	if same {
		return
	}
	a.hist.Add(history.KindListing, "", "", fmt.Sprintf("listed %s: %d of %d messages in %s", folder, len(p.Messages), p.Total, took.Round(time.Millisecond)))
}

// triageEvent records an action's outcome.
func (a *Account) triageEvent(op model.Op, folder string, res []model.ItemResult, err error) {
	if err != nil {
		a.hist.Add(history.KindTriage, "", conn.ClassOf(err).String(), fmt.Sprintf("%s in %s: nothing sent: %s", op.Verb(), folder, Reason(err)))
		return
	}
	counts := map[model.ResultKind]int{}
	reconciled := 0
	for _, r := range res {
		counts[r.Kind]++
		if r.Reconciled {
			reconciled++
		}
	}
	a.hist.Add(history.KindTriage, "", "", fmt.Sprintf("%s in %s: %d done, %d gone, %d failed, %d unknown (%d settled by reading)",
		op.Verb(), folder, counts[model.ResultDone], counts[model.ResultGone], counts[model.ResultFailed], counts[model.ResultUnknown], reconciled))
}
