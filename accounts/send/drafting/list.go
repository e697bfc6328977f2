package drafting

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// Listed is a local draft with what a list of drafts shows: who wrote
// it, and its subject and recipients as its text says now.
type Listed struct {
	outbox.Draft
	Author  string // Agent, Person or Found
	From    model.Address
	Subject string
	To, Cc  []model.Address
	// Queued: a person sent it to the outbox (it waits there, or is
	// being sent); an agent can no longer discard it.
	Queued bool
}

// Listed is every local draft, newest first, each with its author. A
// damaged draft is listed too (Err set), as a person's (as Found when
// its record says it was opened from a found draft).
func (w *Writer) Listed() ([]Listed, error) {
	ds, err := w.box.Drafts()
	if err != nil {
		return nil, err
	}
	es, err := w.box.Entries()
	if err != nil {
		return nil, err
	}
	queued := map[string]bool{}
	for _, e := range es {
		queued[e.DraftID] = true
	}
	out := make([]Listed, 0, len(ds))
	for _, d := range ds {
		l := Listed{Draft: d, Author: Person, Queued: queued[d.ID]}
		if _, text, err := w.box.Draft(d.ID); text != nil {
			if err == nil {
				l.Author = w.Author(d.ID, text)
			}
			h := compose.Peek(string(text))
			l.From, l.Subject, l.To, l.Cc = h.From, h.Subject, h.To, h.Cc
		}
		if d.Found {
			l.Author = Found // opened from a found draft: never the person's
		}
		out = append(out, l)
	}
	w.prune(ds)
	return out, nil
}

// prune removes ledger records whose draft is gone (sent or discarded by
// a TUI that did not call Record, or removed by hand), once they are an
// hour old: a younger one may belong to a draft written after ds was
// listed.
func (w *Writer) prune(ds []outbox.Draft) {
	have := map[string]bool{}
	for _, d := range ds {
		have[d.ID] = true
	}
	dir := filepath.Join(w.root, ledgerDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || have[id] || e.Name() == rateFile {
			continue
		}
		if info, err := e.Info(); err == nil && w.Now().Sub(info.ModTime()) > time.Hour {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Answered counts, for each message, the local drafts that answer it
// (what the TUI's row mark needs).
func Answered(local []Listed) map[model.MessageID]int {
	out := map[model.MessageID]int{}
	for _, l := range local {
		if o := l.Original; o != nil {
			out[model.MessageID{Account: o.Account, Folder: o.Folder, UIDValidity: o.UIDValidity, UID: o.UID}]++
		}
	}
	return out
}

// ServerOnly is msgs (an account's Drafts folder) without the drafts a
// local draft or an outbox entry was opened from or filed as: each draft
// is listed once.
func ServerOnly(local []Listed, entries []outbox.Entry, msgs []model.Message) []model.Message {
	type key struct {
		account, folder string
		uv, uid         uint32
	}
	known := map[key]bool{}
	add := func(r *outbox.Ref) {
		if r != nil {
			known[key{r.Account, model.CanonicalFolder(r.Folder), r.UIDValidity, r.UID}] = true
		}
	}
	for _, l := range local {
		add(l.ServerDraft)
	}
	for _, e := range entries {
		add(e.ServerDraft)
	}
	var out []model.Message
	for _, m := range msgs {
		if !known[key{m.ID.Account, model.CanonicalFolder(m.ID.Folder), m.ID.UIDValidity, m.ID.UID}] {
			out = append(out, m)
		}
	}
	return out
}

// DraftsFolder is the folder marked \Drafts, else one named as most
// servers name it ("" when there is none).
func DraftsFolder(folders []model.Folder) string {
	for _, f := range folders {
		if f.SpecialUse == model.SpecialDrafts {
			return f.Name
		}
	}
	for _, want := range []string{"Drafts", "[Gmail]/Drafts", "INBOX.Drafts"} {
		for _, f := range folders {
			if f.Name == want {
				return f.Name
			}
		}
	}
	return ""
}

// Eventer is an account's history (accounts.Account.DraftEvent).
type Eventer interface {
	DraftEvent(actor, verb, what string)
}

// Record notes in acct's history that a person verb ("edited", "sent",
// "discarded") draft id, whose text is text, saying when the draft was an
// agent's (the ledger, as Author reads it), and ends the ledger's record:
// an edited draft is the person's from then on, even if edited back; a
// sent or discarded one is gone. Only the TUI calls it: only a person
// edits or sends. Editing a person's own draft is no event.
func (w *Writer) Record(acct Eventer, id string, text []byte, verb string) {
	_, known := w.lookup(id)
	if verb == "edited" && !known {
		return
	}
	what := fmt.Sprintf("%q", compose.Peek(string(text)).Subject)
	if known {
		what += " (drafted by an agent)"
	}
	acct.DraftEvent(Person, verb, what)
	_ = w.forget(id)
}
