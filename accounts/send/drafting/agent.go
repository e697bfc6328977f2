package drafting

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/conn"
	"unibox/model"
	"unibox/model/compose"
)

// Filer is what an agent draft needs of an account (accounts.Account):
// building it, filing it in Drafts, taking it back out, and its history.
type Filer interface {
	Composer
	Name() string
	Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error)
	DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
	FindMessageID(ctx context.Context, folder, special, messageID string) (model.MessageID, bool, error)
	DraftEvent(actor, verb, what string)
}

// Writer writes and discards agent drafts over one outbox root; any
// number of Writers, in any number of processes, may share a root.
type Writer struct {
	box  *outbox.Box
	root string
	max  int
	// Now is the clock (tests set it to count the hourly cap).
	Now func() time.Time
}

// NewWriter writes agent drafts into box, at most maxPerHour per account
// per hour (negative: DefaultMaxPerHour; 0: agents may not draft).
func NewWriter(box *outbox.Box, maxPerHour int) *Writer {
	if maxPerHour < 0 {
		maxPerHour = DefaultMaxPerHour
	}
	return &Writer{box: box, root: box.Root(), max: maxPerHour, Now: time.Now}
}

// Box is the outbox the Writer writes into.
func (w *Writer) Box() *outbox.Box { return w.box }

// Made is an agent draft as filed.
type Made struct {
	Draft     outbox.Draft
	MessageID string // of the copy in Drafts
	Subject   string
	To, Cc    []model.Address
	SavedTo   model.MessageID // the copy in Drafts (UID 0: the server did not say)
}

// Reply drafts an answer to orig from an agent: body above the quoted
// original (quote false: no quote), to its sender, or with all to
// everyone the TUI's reply all would answer. The agent's body is checked
// before anything is built, the whole draft before anything is written.
func (w *Writer) Reply(ctx context.Context, acct Filer, orig model.Body, body string, all, quote bool, timeout time.Duration) (Made, error) {
	if err := CheckBody("body", body); err != nil {
		return Made{}, err
	}
	kind := compose.KindReply
	if all {
		kind = compose.KindReplyAll
	}
	d, ref, sig, err := build(ctx, acct.Name(), acct, kind, &orig, timeout)
	if err != nil {
		return Made{}, err
	}
	if quote { // compose drops the original's hidden characters from the quote
		d.Body = compose.Signed(Normalize(body)+"\n", compose.Quoted(Original(orig)), sig)
	} else {
		d.Body = compose.Signed(Normalize(body), "", sig)
	}
	return w.file(ctx, acct, d, ref, timeout)
}

// New drafts a new message from an agent.
func (w *Writer) New(ctx context.Context, acct Filer, to, cc []string, subject, body string, timeout time.Duration) (Made, error) {
	if err := model.CheckCount("to and cc", len(to)+len(cc), MaxRecipients, "addresses"); err != nil {
		return Made{}, err
	}
	toA, err := ParseAddresses("to", to)
	if err != nil {
		return Made{}, err
	}
	ccA, err := ParseAddresses("cc", cc)
	if err != nil {
		return Made{}, err
	}
	if err := CheckSubject("subject", subject); err != nil {
		return Made{}, err
	}
	if err := CheckBody("body", body); err != nil {
		return Made{}, err
	}
	d, _, sig, err := build(ctx, acct.Name(), acct, compose.KindNew, nil, timeout)
	if err != nil {
		return Made{}, err
	}
	d.To, d.Cc, d.Subject, d.Body = toA, ccA, subject, compose.Signed(Normalize(body), "", sig)
	return w.file(ctx, acct, d, nil, timeout)
}

// file checks d whole, counts it against the hourly cap, writes the local
// draft and its ledger record, then files the copy in Drafts and notes
// it on the local draft (so the TUI lists it once, and sending deletes
// the copy). A copy that cannot be filed undoes the local draft: the
// agent is told it failed, and nothing half-made is left for a person.
func (w *Writer) file(ctx context.Context, acct Filer, d compose.Draft, ref *outbox.Ref, timeout time.Duration) (Made, error) {
	if err := CheckDraft(d); err != nil {
		return Made{}, err
	}
	now := w.Now()
	p, err := d.Prepare(now)
	if err != nil {
		return Made{}, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	if err := w.take(acct.Name(), now); err != nil {
		return Made{}, err
	}
	dr, err := Save(w.box, acct.Name(), d, ref)
	if err != nil {
		return Made{}, err
	}
	text := []byte(d.Editable())
	if err := w.remember(record{DraftID: dr.ID, Account: acct.Name(), MessageID: p.MessageID, SHA256: hashText(text), Created: now.UTC()}); err != nil {
		return Made{}, errors.Join(err, w.box.DiscardDraft(dr.ID))
	}
	id, err := fileCopy(ctx, acct, p.Saved, p.MessageID, now, timeout)
	switch {
	case errors.Is(err, errMaybeFiled):
		return Made{}, fmt.Errorf("%s: %w; the draft is kept locally as draft_id %s", acct.Name(), err, dr.ID)
	case err != nil:
		return Made{}, errors.Join(fmt.Errorf("%s: not drafted: the Drafts folder did not take it: %w", acct.Name(), err),
			w.box.DiscardDraft(dr.ID), w.forget(dr.ID))
	}
	dr.ServerDraft = &outbox.Ref{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID, MessageID: p.MessageID}
	dr.ServerUID = id.UID
	if err := w.box.SaveDraft(dr, nil); err != nil {
		return Made{}, err
	}
	acct.DraftEvent(Agent, "created", summary(d))
	return Made{Draft: dr, MessageID: p.MessageID, Subject: d.Subject, To: d.To, Cc: d.Cc, SavedTo: id}, nil
}

// errMaybeFiled: the copy's APPEND may have been stored, and looking for
// it failed too.
var errMaybeFiled = errors.New("the copy in Drafts may or may not have been stored (the server did not answer, and could not be asked)")

// fileCopy APPENDs the copy to Drafts, never twice: when the outcome is
// unknown (the server may have stored it, then the link dropped), its
// Message-ID is looked for instead (issue 26's rule for every APPEND).
func fileCopy(ctx context.Context, acct Filing, raw []byte, messageID string, now time.Time, timeout time.Duration) (model.MessageID, error) {
	cctx, cancel := context.WithTimeout(ctx, AppendBound(timeout, len(raw)))
	defer cancel()
	id, err := acct.Append(cctx, "", model.SpecialDrafts, raw, []string{`\Draft`, `\Seen`}, now)
	var ce *conn.Error
	if err == nil || !errors.As(err, &ce) || !ce.MaybeDone {
		return id, err
	}
	lctx, lcancel := context.WithTimeout(ctx, timeout)
	defer lcancel()
	id, found, ferr := acct.FindMessageID(lctx, "", model.SpecialDrafts, messageID)
	switch {
	case ferr != nil:
		return model.MessageID{}, fmt.Errorf("%w: %v; %v", errMaybeFiled, err, ferr)
	case !found:
		return model.MessageID{}, err
	}
	return id, nil
}

// summary is what the history says of a draft: its subject and whom it
// is to, addresses only (names are a stranger's text). DraftEvent makes
// it one clean line.
func summary(d compose.Draft) string {
	var to []string
	for _, a := range append(append([]model.Address{}, d.To...), d.Cc...) {
		to = append(to, a.Address)
	}
	return fmt.Sprintf("%q to %s", d.Subject, strings.Join(to, ", "))
}

// Errors Discard tells apart.
var (
	// ErrNotAgents: the draft is a person's, or a person edited it.
	ErrNotAgents = errors.New("this draft was written or edited by a person: an agent cannot discard it")
	// ErrQueued: a person has already sent it to the outbox.
	ErrQueued = errors.New("this draft is in the outbox, being sent by a person: an agent cannot discard it")
)

// Discard removes an agent's draft: the copy in Drafts, then the local
// draft and its record, through the one discard a person's x uses too
// (Drop). Only a draft the ledger says is the agent's, with its text
// unchanged since, and not queued to send; a copy in Drafts that cannot
// be deleted keeps the local draft (nothing is lost).
// find resolves the draft's account.
func (w *Writer) Discard(ctx context.Context, id string, find func(account string) Filer, timeout time.Duration) (outbox.Draft, error) {
	dr, text, err := w.box.Draft(id)
	if err != nil {
		return outbox.Draft{}, err
	}
	if w.Author(id, text) != Agent {
		return dr, fmt.Errorf("draft %s: %w", id, ErrNotAgents)
	}
	es, err := w.box.Entries()
	if err != nil {
		return dr, err
	}
	for _, e := range es {
		if e.DraftID == id {
			return dr, fmt.Errorf("draft %s: %w", id, ErrQueued)
		}
	}
	acct := find(dr.Account)
	if acct == nil {
		return dr, fmt.Errorf("draft %s: its account %s is not configured", id, model.Quote(dr.Account))
	}
	if _, _, err := w.Drop(ctx, acct, id, timeout); err != nil {
		return dr, fmt.Errorf("draft %s: %w", id, err)
	}
	acct.DraftEvent(Agent, "discarded", subjectOf(text))
	return dr, w.forget(id)
}

// subjectOf is the Subject line of a draft's editable text ("" when it
// has none).
func subjectOf(text []byte) string {
	head, _, _ := strings.Cut(string(text), "\n\n")
	for _, l := range strings.Split(head, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "subject") {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
