package model

import (
	"slices"
	"strings"
)

// Row is one message in the unified list.
type Row struct {
	Message
	// Stale: its account is not connected, or the row comes from the
	// local store and no listing has confirmed it yet: it may be out of
	// date.
	// Rows of a degraded account stay visible, marked, instead of vanishing.
	Stale bool
	// Fresh: arrived unread on a refresh after the first load.
	Fresh bool
	// unconfirmed: found in the local store (a filter beyond the loaded
	// pages), not yet seen in a listing this session: shown stale.
	unconfirmed bool
	// found: a search's hit beyond the listed pages (another folder, an
	// older message): a listing keeps it while the search lasts, and
	// DropFound takes it away with the search.
	found bool
	// Thread is set on the rows of the thread view (ThreadRows): on a
	// conversation's row, and with Member on each of its messages when
	// the conversation is expanded.
	Thread *Conversation
	Member bool
}

// Inbox is the unified inbox: each account's rows, merged newest first.
// It is plain data with no I/O; the UI feeds it results and renders it.
type Inbox struct {
	order    []string // account names, as configured
	accounts map[string]*accountRows
	merged   []Row // cache, rebuilt when something changes
	dirty    bool
	// screened: the screener's waiting rows are listed too (KeepScreened).
	screened bool
}

type accountRows struct {
	rows   []Row // newest first
	stale  bool
	cached bool   // restored from the local store: no newest page has come yet
	loaded bool   // a first page has arrived (from the server or the store)
	more   bool   // older messages exist beyond the loaded ones
	floor  uint32 // lowest uid loaded by listing: where the next older page starts
}

// NewInbox makes an empty inbox over the given accounts.
func NewInbox(accounts []string) *Inbox {
	in := &Inbox{order: slices.Clone(accounts), accounts: map[string]*accountRows{}}
	for _, a := range accounts {
		in.accounts[a] = &accountRows{}
	}
	return in
}

// KeepScreened lists the rows that wait in the screener too, each marked
// (Message.Screened): the scripts' and the agents' listings show what the
// person's inbox leaves out, and say so.
func (in *Inbox) KeepScreened() *Inbox {
	in.screened, in.dirty = true, true
	return in
}

func (in *Inbox) acct(name string) *accountRows {
	a := in.accounts[name]
	if a == nil {
		a = &accountRows{}
		in.accounts[name] = a
		in.order = append(in.order, name)
	}
	return a
}

// folderKey is one folder of one UIDVALIDITY, whose uids compare.
type folderKey struct {
	folder      string
	uidValidity uint32
}

// newestLoaded is, per folder of the page, the highest uid among the rows
// loaded before (0 where none was, so that every unknown row is new).
func newestLoaded(rows []Row, page []Message) map[folderKey]uint32 {
	out := map[folderKey]uint32{}
	for _, m := range page {
		out[folderKey{m.ID.Folder, m.ID.UIDValidity}] = 0
	}
	for _, r := range rows {
		k := folderKey{r.ID.Folder, r.ID.UIDValidity}
		if top, ok := out[k]; ok && r.ID.UID > top {
			out[k] = r.ID.UID
		}
	}
	return out
}

// Replace sets an account's newest page (one folder). Older rows loaded
// before by paging are kept when they continue the new page; rows that
// arrived unread since the last load (above the rows it had) are marked
// Fresh (and stay so while unread). It returns how many rows are newly
// fresh.
func (in *Inbox) Replace(account string, msgs []Message, more bool) int {
	a := in.acct(account)
	prev := make(map[MessageID]Row, len(a.rows))
	for _, r := range a.rows {
		prev[r.ID] = r
	}
	rows := make([]Row, 0, len(msgs))
	fresh := 0
	var minUID uint32
	newest := newestLoaded(a.rows, msgs)
	for i, m := range msgs {
		old, known := prev[m.ID]
		// New mail is mail above what was loaded: a row below it that the
		// last page lacked (a first screen's short page, then a full
		// one) was there all along.
		arrived := a.loaded && !known && m.ID.UID > newest[folderKey{m.ID.Folder, m.ID.UIDValidity}]
		r := Row{Message: m, Fresh: !m.Seen && m.Screened == ScreenNone && (old.Fresh || arrived)}
		if r.Fresh && !old.Fresh {
			fresh++
		}
		rows = append(rows, r)
		if i == 0 || m.ID.UID < minUID {
			minUID = m.ID.UID
		}
	}
	keptOlder := false
	if len(msgs) > 0 {
		page := msgs[0].ID
		for _, r := range a.rows {
			// The first listing after a restore keeps, below it, only
			// what the server has confirmed (older pages it gave).
			inPage := SameFolder(r.ID.Folder, page.Folder) && r.ID.UIDValidity == page.UIDValidity
			switch {
			case inPage && r.ID.UID < minUID && (r.found || !(a.cached && r.unconfirmed)):
				rows = append(rows, Row{Message: r.Message, Fresh: r.Fresh && !r.Seen, unconfirmed: r.unconfirmed, found: r.found})
				keptOlder = keptOlder || !r.found
			case !inPage && r.found:
				// A search's hit in another folder: the page does not
				// speak for it, and the search still shows it.
				rows = append(rows, Row{Message: r.Message, unconfirmed: r.unconfirmed, found: true})
			}
		}
	}
	sortRows(rows)
	if !keptOlder {
		a.more = more
	}
	a.floor = minUID // the lowest of the rows kept: where paging goes on
	for _, r := range rows {
		if !r.found {
			a.floor = min(a.floor, r.ID.UID)
		}
	}
	a.rows, a.loaded, a.cached = rows, true, false
	in.dirty = true
	return fresh
}

// Restore shows an account's stored rows before its server has answered.
// They are stale until the first listing replaces them, and what that
// listing brings unread counts as fresh: new since unibox last ran. A
// listing that came first wins: Restore then does nothing and says so.
func (in *Inbox) Restore(account string, msgs []Message, more bool) bool {
	a := in.acct(account)
	if a.loaded {
		return false
	}
	rows := make([]Row, 0, len(msgs))
	for _, m := range msgs {
		rows = append(rows, Row{Message: m, unconfirmed: true})
		if a.floor == 0 || m.ID.UID < a.floor {
			a.floor = m.ID.UID
		}
	}
	sortRows(rows)
	a.rows, a.more, a.loaded, a.cached = rows, more, true, true
	in.dirty = true
	return true
}

// AppendOlder adds an older page (paging down past the loaded rows), the
// server's answer for the uids below before: stored rows it confirms lose
// their stale mark, stored rows in its range it lacks are gone.
func (in *Inbox) AppendOlder(account string, msgs []Message, more bool, before uint32) {
	a := in.acct(account)
	in.confirm(a, msgs, true)
	in.dropUnlisted(a, msgs, more, before)
	in.appendOlder(a, msgs, more, false)
}

// AppendStoredOlder adds an older page read from the local store: stale
// until a listing confirms it.
func (in *Inbox) AppendStoredOlder(account string, msgs []Message, more bool) {
	in.appendOlder(in.acct(account), msgs, more, true)
}

func (in *Inbox) appendOlder(a *accountRows, msgs []Message, more, stored bool) {
	addUnseen(a, msgs, a.stale, stored, false)
	for _, m := range msgs {
		if a.floor == 0 || m.ID.UID < a.floor {
			a.floor = m.ID.UID
		}
	}
	sortRows(a.rows)
	a.more = more
	in.dirty = true
}

// dropUnlisted removes the stored, unconfirmed rows in the uid range a
// server's older page speaks for (from its lowest uid, or 1 when nothing
// is older, up to the before it was asked below) that the page does not
// hold: they were expunged or moved since the store saw them.
func (in *Inbox) dropUnlisted(a *accountRows, msgs []Message, more bool, before uint32) {
	listed := make(map[MessageID]bool, len(msgs))
	low := uint32(1)
	if more {
		low = before
	}
	for _, m := range msgs {
		listed[m.ID] = true
		if more {
			low = min(low, m.ID.UID)
		}
	}
	kept := a.rows[:0]
	for _, r := range a.rows {
		if r.unconfirmed && !listed[r.ID] && r.ID.UID >= low && r.ID.UID < before {
			in.dirty = true
			continue
		}
		kept = append(kept, r)
	}
	a.rows = kept
}

// AddFound adds messages a server-side search found beyond the loaded
// rows; they show in the list but do not move where paging continues,
// and they stay through listings until DropFound.
func (in *Inbox) AddFound(account string, msgs []Message) int {
	a := in.acct(account)
	n := addUnseen(a, msgs, a.stale, false, true)
	in.confirm(a, msgs, false)
	sortRows(a.rows)
	in.dirty = true
	return n
}

// AddSearched adds a search's hits from the local store: stale until a
// listing or the server's search confirms them, kept through listings
// until DropFound.
func (in *Inbox) AddSearched(account string, msgs []Message) int {
	a := in.acct(account)
	n := addUnseen(a, msgs, false, true, true)
	if n > 0 {
		sortRows(a.rows)
		in.dirty = true
	}
	return n
}

// DropFound takes away the rows a search added that no listing has shown
// since (the search is over: its hits from other folders must not stay
// in the inbox), and says whether any went.
func (in *Inbox) DropFound() bool {
	dropped := false
	for _, a := range in.accounts {
		kept := a.rows[:0]
		for _, r := range a.rows {
			if r.found {
				dropped = true
				continue
			}
			kept = append(kept, r)
		}
		clear(a.rows[len(kept):])
		a.rows = kept
	}
	in.dirty = in.dirty || dropped
	return dropped
}

// addUnseen appends a row for each message a holds none for, and says how
// many; the caller sorts.
func addUnseen(a *accountRows, msgs []Message, stale, unconfirmed, found bool) int {
	seen := make(map[MessageID]bool, len(a.rows))
	for _, r := range a.rows {
		seen[r.ID] = true
	}
	n := 0
	for _, m := range msgs {
		if !seen[m.ID] {
			a.rows = append(a.rows, Row{Message: m, Stale: stale, unconfirmed: unconfirmed, found: found})
			n++
		}
	}
	return n
}

// confirm takes the server's word for rows found in the store that msgs
// (a listing or a server search) also holds: they are no longer stale.
// A listing's (listing) rows are the folder's own, no longer a search's.
func (in *Inbox) confirm(a *accountRows, msgs []Message, listing bool) {
	listed := make(map[MessageID]*Message, len(msgs))
	for i := range msgs {
		listed[msgs[i].ID] = &msgs[i]
	}
	for i := range a.rows {
		r := &a.rows[i]
		if listed[r.ID] == nil {
			continue
		}
		if r.unconfirmed {
			r.Message, r.unconfirmed = *listed[r.ID], false
		}
		r.found = r.found && !listing
	}
}

// AddStored adds rows a filter found in the local store beyond the loaded
// ones. No listing has confirmed them this session, so they show stale
// until one does.
func (in *Inbox) AddStored(account string, msgs []Message) int {
	a := in.acct(account)
	n := addUnseen(a, msgs, false, true, false)
	if n > 0 {
		sortRows(a.rows)
		in.dirty = true
	}
	return n
}

// SetStale marks an account's rows as possibly out of date (its connection
// is down) or fresh again.
func (in *Inbox) SetStale(account string, stale bool) {
	a := in.acct(account)
	if a.stale == stale {
		return
	}
	a.stale = stale
	in.dirty = true
}

// Loaded reports whether an account's first page has arrived.
func (in *Inbox) Loaded(account string) bool { return in.acct(account).loaded }

// More reports whether an account has older messages not loaded yet.
func (in *Inbox) More(account string) bool { return in.acct(account).more }

// PageFloor is the uid the next older page of an account starts below
// (before_uid); 0 when nothing is loaded.
func (in *Inbox) PageFloor(account string) uint32 { return in.acct(account).floor }

// Unread counts an account's loaded unread rows (what waits in the
// screener is not the inbox's).
func (in *Inbox) Unread(account string) int {
	n := 0
	for _, r := range in.acct(account).rows {
		if !r.Seen && r.Screened == ScreenNone {
			n++
		}
	}
	return n
}

// Len is the number of rows across all accounts.
func (in *Inbox) Len() int { return len(in.Rows()) }

// Rows is the merged list, newest first. The slice is shared: do not modify.
func (in *Inbox) Rows() []Row {
	if in.dirty || in.merged == nil {
		in.merged = in.merge()
		in.dirty = false
	}
	return in.merged
}

// merge is a k-way merge of the per-account lists (each already sorted),
// without the rows the screener holds back (kept, so that paging and
// listings go on as before).
func (in *Inbox) merge() []Row {
	total := 0
	for _, a := range in.accounts {
		total += len(a.rows)
	}
	out := make([]Row, 0, total)
	heads := make([]int, len(in.order))
	for {
		best := -1
		for i, name := range in.order {
			a := in.accounts[name]
			if heads[i] >= len(a.rows) {
				continue
			}
			if best < 0 || before(a.rows[heads[i]].Message, in.accounts[in.order[best]].rows[heads[best]].Message) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		a := in.accounts[in.order[best]]
		r := a.rows[heads[best]]
		heads[best]++
		if r.Screened != ScreenNone && !r.found && !in.screened {
			continue // it waits in the screener; a search's hit shows it
		}
		r.Stale = a.stale || r.unconfirmed
		out = append(out, r)
	}
}

// Update changes one row in place (a triage action applied or rolled back).
func (in *Inbox) Update(id MessageID, f func(*Message)) bool {
	a := in.acct(id.Account)
	for i := range a.rows {
		if a.rows[i].ID == id {
			f(&a.rows[i].Message)
			a.rows[i].Fresh = a.rows[i].Fresh && !a.rows[i].Seen
			in.dirty = true
			return true
		}
	}
	return false
}

// Remove takes a row out (archived, trashed, moved) and returns it so a
// rollback can put it back.
func (in *Inbox) Remove(id MessageID) (Message, bool) {
	a := in.acct(id.Account)
	for i := range a.rows {
		if a.rows[i].ID == id {
			m := a.rows[i].Message
			a.rows = slices.Delete(a.rows, i, i+1)
			in.dirty = true
			return m, true
		}
	}
	return Message{}, false
}

// Insert puts a message back (a rolled-back removal), in order.
func (in *Inbox) Insert(m Message) {
	a := in.acct(m.ID.Account)
	for _, r := range a.rows {
		if r.ID == m.ID {
			return
		}
	}
	a.rows = append(a.rows, Row{Message: m, Stale: a.stale})
	sortRows(a.rows)
	in.dirty = true
}

// Find returns the row with id.
func (in *Inbox) Find(id MessageID) (Row, bool) {
	for _, r := range in.acct(id.Account).rows {
		if r.ID == id {
			return r, true
		}
	}
	return Row{}, false
}

// before orders rows newest first; ties by account, then uid.
func before(a, b Message) bool {
	if !a.Date.Equal(b.Date) {
		return a.Date.After(b.Date)
	}
	if a.ID.Account != b.ID.Account {
		return a.ID.Account < b.ID.Account
	}
	return a.ID.UID > b.ID.UID
}

func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(x, y Row) int {
		switch {
		case before(x.Message, y.Message):
			return -1
		case before(y.Message, x.Message):
			return 1
		}
		return 0
	})
}

// Match reports whether a row matches a filter text (sender or subject,
// case-insensitive).
func Match(r Row, text string) bool { return MatchFields(r.Subject, r.From.Name, r.From.Address, text) }

// MatchFields is Match on the fields themselves: the local store filters
// its rows with it, so a filter finds the same rows in memory and on disk.
func MatchFields(subject, fromName, fromAddress, text string) bool {
	if text == "" {
		return true
	}
	t := strings.ToLower(text)
	return strings.Contains(strings.ToLower(subject), t) ||
		strings.Contains(strings.ToLower(fromName), t) ||
		strings.Contains(strings.ToLower(fromAddress), t)
}
