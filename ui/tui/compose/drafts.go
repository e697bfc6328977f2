package compose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// DraftsBox is the drafts view (D): every draft written here and not
// sent, and every message in the outbox, newest first. A message whose
// sending was cut after its body went out waits here for a person ("may
// have been sent: check Sent"): y sends it again, x forgets it (its
// draft stays). One whose account is gone from the config is orphaned:
// never sent through another.
type DraftsBox struct {
	e        *screen.Env
	styles   screen.Styles
	keys     screen.KeyMap
	now      func() time.Time
	accts    []screen.Account // the configured accounts, by index
	accounts map[string]bool  // configured names: an entry of another is orphaned
	items    []draftItem
	cursor   int
	confirm  bool                       // discard of a draft was asked once
	local    OutboxMsg                  // the outbox and the drafts on disk, as last read
	server   map[string][]model.Message // each account's Drafts folder
	found    map[model.MessageID]bool   // of those, the ones not written here
	trouble  map[string]string          // an account whose Drafts could not be read, and why
}

// draftItem is one line: a draft here, one in a server's Drafts, or an
// outbox entry.
type draftItem struct {
	draft  *drafting.Listed
	remote *model.Message
	entry  *outbox.Entry
}

// NewDrafts opens the view over what the outbox holds.
func NewDrafts(e *screen.Env, accts []screen.Account) DraftsBox {
	b := DraftsBox{e: e, styles: e.Styles, keys: e.Keys, now: e.Opts.Now, accts: accts, accounts: map[string]bool{},
		server: map[string][]model.Message{}, found: map[model.MessageID]bool{}, trouble: map[string]string{}}
	for _, a := range accts {
		b.accounts[a.Name()] = true
	}
	return b
}

// filled lists the outbox's entries, the drafts no entry was queued
// from, and the servers' drafts that no local draft was opened from,
// newest first.
func (b DraftsBox) filled() DraftsBox {
	queued, opened := map[string]bool{}, map[uint32]string{}
	var items []draftItem
	for _, e := range b.local.entries {
		queued[e.DraftID] = true
		if e.ServerDraft != nil {
			opened[e.ServerDraft.UID] = e.ServerDraft.Account
		}
		items = append(items, draftItem{entry: &e})
	}
	for _, d := range b.local.drafts {
		if d.ServerDraft != nil {
			opened[d.ServerDraft.UID] = d.ServerDraft.Account
		}
		if !queued[d.ID] {
			items = append(items, draftItem{draft: &d})
		}
	}
	for _, msgs := range b.server {
		for _, m := range msgs {
			if opened[m.ID.UID] != m.ID.Account {
				if b.found[m.ID] {
					m.Date = drafting.FoundDate(m, b.now()) // its sender's date, never ahead of now
				}
				items = append(items, draftItem{remote: &m})
			}
		}
	}
	sortNewest(items)
	b.items = items
	b.cursor = min(b.cursor, max(len(items)-1, 0))
	return b
}

func (it draftItem) when() time.Time {
	switch {
	case it.entry != nil:
		return it.entry.Updated
	case it.remote != nil:
		return it.remote.Date
	}
	return it.draft.Updated
}

func sortNewest(items []draftItem) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].when().After(items[j-1].when()); j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// selected is the line under the cursor.
func (b DraftsBox) selected() (draftItem, bool) {
	if b.cursor < 0 || b.cursor >= len(b.items) {
		return draftItem{}, false
	}
	return b.items[b.cursor], true
}

// View draws one line per item.
func (b DraftsBox) View(width, height int) string {
	lines := make([]string, 0, height)
	if len(b.items) == 0 {
		lines = append(lines, b.styles.Dim.Render("No drafts, nothing in the outbox."))
	}
	for _, name := range sortedKeys(b.trouble) {
		lines = append(lines, b.styles.StatusError.Render(textsafe.Fit(textsafe.Line(name+": its Drafts folder cannot be read: "+b.trouble[name]), width)))
	}
	if b.confirm {
		lines = append(lines, b.styles.StatusError.Render(textsafe.Fit(screen.Hint(b.keys.Discard)+" again discards this draft: its text is lost", width)))
	}
	for i, it := range b.items {
		if len(lines) >= height {
			break
		}
		mark := "  "
		if i == b.cursor {
			mark = "> "
		}
		line := textsafe.Fit(mark+textsafe.Line(b.describe(it)), width)
		if i == b.cursor {
			line = b.styles.RowSelected.Render(line)
		}
		lines = append(lines, line)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// serverDrafts takes one account's Drafts folder.
func (b DraftsBox) serverDrafts(account string, msg ServerDraftsMsg) DraftsBox {
	if msg.err != nil {
		b.trouble[account] = msg.err.Error()
		return b
	}
	delete(b.trouble, account)
	b.server[account] = msg.msgs
	for id, f := range msg.found {
		b.found[id] = f
	}
	return b.filled()
}

// describe is an item's line: what it is, whose, and where it stands.
func (b DraftsBox) describe(it draftItem) string {
	if m := it.remote; m != nil {
		if b.found[m.ID] {
			return fmt.Sprintf("%s · %s · from %s · to %s · %s · dated %s by its sender", foundLabel, m.ID.Account,
				orNone(addressList([]model.Address{m.From})), orNone(addressList(m.To)), orNone(m.Subject), screen.Ago(b.now(), m.Date))
		}
		return fmt.Sprintf("in Drafts · %s · to %s · %s · %s", m.ID.Account, addressList(m.To), m.Subject, screen.Ago(b.now(), m.Date))
	}
	if d := it.draft; d != nil {
		if d.Err != nil {
			return fmt.Sprintf("draft · %s · damaged: %v", d.Account, d.Err)
		}
		what := "draft"
		switch d.Author {
		case drafting.Agent:
			what = "✎ agent draft"
		case drafting.Found:
			return fmt.Sprintf("%s · %s · %s · from %s · to %s · %s · %s", foundLabel, d.Account, d.Kind, orNone(addressList([]model.Address{d.From})),
				orNone(addressList(append(d.To, d.Cc...))), orNone(d.Subject), screen.Ago(b.now(), d.Updated))
		}
		return fmt.Sprintf("%s · %s · %s · to %s · %s · %s", what, d.Account, d.Kind, orNone(addressList(append(d.To, d.Cc...))), orNone(d.Subject), screen.Ago(b.now(), d.Updated))
	}
	e := it.entry
	if e.Err != nil {
		return fmt.Sprintf("outbox · damaged, set aside: %v", e.Err)
	}
	to := strings.Join(e.Rcpt, ", ")
	if !b.accounts[e.Account] {
		return fmt.Sprintf("orphaned · %s is not configured: never sent through another account · to %s", e.Account, to)
	}
	switch e.State {
	case outbox.StateUnknown:
		return fmt.Sprintf("may have been sent: check Sent · %s · to %s · %s send again · %s forget", e.Account, to, screen.Hint(b.keys.Send), screen.Hint(b.keys.Discard))
	case outbox.StateFailed:
		return fmt.Sprintf("not sent · %s · to %s · %s · %s mends · %s send again · %s forget", e.Account, to, e.LastError, screen.Hint(b.keys.Open), screen.Hint(b.keys.Send), screen.Hint(b.keys.Discard))
	case outbox.StateQueued:
		if e.LastError != "" {
			return fmt.Sprintf("in outbox, retrying · %s · to %s · %s · %s takes it back", e.Account, to, e.LastError, screen.Hint(b.keys.Discard))
		}
		return fmt.Sprintf("in outbox · %s · to %s · %s takes it back", e.Account, to, screen.Hint(b.keys.Discard))
	}
	return fmt.Sprintf("sent, finishing (%s) · %s · to %s", e.State, e.Account, to)
}

// foundLabel names a draft found in a Drafts folder that nobody here
// wrote (drafting.Found): a stranger's mail moved there, or another
// machine's draft. Its From is shown beside it.
const foundLabel = "found in Drafts, not written here"

// orNone is s, or "(none)" for a field a draft has not filled yet.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Header names the view and its keys.
func (b DraftsBox) Header() string {
	k := b.keys
	return fmt.Sprintf("drafts and outbox · %s open · %s send again · %s discard · %s back", screen.Hint(k.Open), screen.Hint(k.Send), screen.Hint(k.Discard), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the drafts view's keys.
func (b DraftsBox) ShortHelp() []key.Binding {
	k := b.keys
	return []key.Binding{k.Open, k.Send, k.Discard, k.Down, k.Up, k.Back, k.Help}
}
func (b DraftsBox) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }
