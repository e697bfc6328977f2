package outbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"unibox/model/invite"
)

// Ref names a message on a server: the one a draft answers or forwards,
// which gets \Answered or $Forwarded once the answer is sent.
type Ref struct {
	Account     string `json:"account"`
	Folder      string `json:"folder"`
	UIDValidity uint32 `json:"uidvalidity"`
	UID         uint32 `json:"uid"`
	MessageID   string `json:"message_id,omitempty"`
}

// Draft is a message being written. Its text is in the file at Path,
// which the editor edits; the rest is in a JSON file beside it.
type Draft struct {
	ID        string    `json:"id"`
	Account   string    `json:"account"`
	Kind      string    `json:"kind"` // "new", "reply", "reply_all", "forward"
	Original  *Ref      `json:"original,omitempty"`
	Updated   time.Time `json:"updated"`
	Path      string    `json:"-"`
	ServerUID uint32    `json:"server_uid,omitempty"` // postponed to the server's Drafts (0: local only)
	// The thread it answers, kept beside the text: the editor cannot
	// change them, and a draft reopened after a restart, whose original
	// may be gone by then, still answers in its thread.
	InReplyTo  string   `json:"in_reply_to,omitempty"`
	References []string `json:"references,omitempty"`
	// ServerDraft is the copy in the server's Drafts this draft was
	// opened from: deleted only once its replacement is stored (postponed
	// again) or the message is sent.
	ServerDraft *Ref `json:"server_draft,omitempty"`
	// Found: ServerDraft was found in Drafts, not written from here (no
	// local draft or postponing stood for it): whatever it says, its
	// From above all, nobody here vouches for (drafting.Found).
	Found bool `json:"found,omitempty"`
	// RSVP is the answer an "rsvp" draft gives to an invitation (issue
	// 41), beside its text, which holds only the comment: the editor
	// cannot change what is answered, and a draft reopened after a
	// restart still answers the same event.
	RSVP *invite.ReplySpec `json:"rsvp,omitempty"`
	// Err is why a listed draft is damaged (its JSON missing or not
	// parsing): it is listed all the same, with its text at Path when
	// that survived, never dropped.
	Err error `json:"-"`
}

var kinds = []string{"new", "reply", "reply_all", "forward", "rsvp"}

const (
	draftMeta = ".json"
	draftText = ".eml" // .eml: editors colour it as mail
)

// NewDraft puts text on disk before anything else happens (the editor is
// started on d.Path only after this returns): the text first, then what
// it belongs to, each written atomically. A crash between the two leaves
// the text, listed by Drafts as damaged. The text is the editor's file:
// it is written with LF line ends (editorText), whatever it came with.
func (b *Box) NewDraft(account, kind string, orig *Ref, text []byte) (Draft, error) {
	d := Draft{ID: newID(), Account: account, Kind: kind, Original: orig}
	if err := checkDraft(d); err != nil {
		return Draft{}, err
	}
	if err := writeAtomic(b.drafts, d.ID+draftText, editorText(text)); err != nil {
		return Draft{}, err
	}
	return d, b.writeDraftMeta(&d)
}

// SaveDraft stores text (nil: the text stays as it is, e.g. after
// postponing, when only ServerUID changes; LF line ends, as NewDraft) and d's account, kind,
// original and ServerUID. It also mends a damaged draft.
func (b *Box) SaveDraft(d Draft, text []byte) error {
	if err := checkID(d.ID); err != nil {
		return err
	}
	if err := checkDraft(d); err != nil {
		return err
	}
	if text != nil {
		if err := writeAtomic(b.drafts, d.ID+draftText, editorText(text)); err != nil {
			return err
		}
	} else if _, err := os.Stat(filepath.Join(b.drafts, d.ID+draftText)); err != nil {
		return fmt.Errorf("outbox: draft %s: %w", d.ID, notFound(err))
	}
	return b.writeDraftMeta(&d)
}

// editorText is a draft's text as its file holds it: CRLF line ends
// made LF. A text can come with CRLF (the copy for Sent of a `send
// --queue` entry taken back into a draft is wire bytes); in the editor
// that showed as [dos], and CRLF is for the wire only.
func editorText(text []byte) []byte {
	return bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
}

func checkDraft(d Draft) error {
	if d.Account == "" {
		return fmt.Errorf("outbox: draft: account: %w (empty)", ErrInvalid)
	}
	if !slices.Contains(kinds, d.Kind) {
		return fmt.Errorf("outbox: draft: kind %q: %w (one of %s)", d.Kind, ErrInvalid, strings.Join(kinds, ", "))
	}
	return nil
}

func (b *Box) writeDraftMeta(d *Draft) error {
	d.Updated = time.Now().UTC()
	d.Path = filepath.Join(b.drafts, d.ID+draftText)
	d.Err = nil
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("outbox: draft %s: %w", d.ID, err)
	}
	return writeAtomic(b.drafts, d.ID+draftMeta, data)
}

// Draft is one draft and its text. A damaged draft (its JSON lost or not
// parsing) comes back with its text, d.Err set and an error wrapping
// ErrDamaged: the text is never withheld.
func (b *Box) Draft(id string) (Draft, []byte, error) {
	if err := checkID(id); err != nil {
		return Draft{}, nil, err
	}
	d := b.readDraft(id)
	text, terr := os.ReadFile(d.Path)
	switch {
	case errors.Is(terr, fs.ErrNotExist) && errors.Is(d.Err, ErrNotFound):
		return Draft{}, nil, fmt.Errorf("outbox: draft %s: %w", id, ErrNotFound)
	case terr != nil && !errors.Is(terr, fs.ErrNotExist):
		return d, nil, fmt.Errorf("outbox: draft %s: its text: %w", id, terr)
	case terr != nil || d.Err != nil:
		b.explain(&d)
		return d, text, d.Err
	}
	return d, text, nil
}

// explain words a damaged draft's Err for a person, and dates it by its
// files (its JSON, which held the date, is what is damaged).
func (b *Box) explain(d *Draft) {
	if _, err := os.Stat(d.Path); err != nil {
		d.Err = fmt.Errorf("outbox: draft %s: %w: its text is missing: %v", d.ID, ErrDamaged, err)
	} else if errors.Is(d.Err, ErrNotFound) {
		d.Err = fmt.Errorf("outbox: draft %s: %w: its account and kind are missing (the text is kept)", d.ID, ErrDamaged)
	}
	d.Updated = newestModTime(filepath.Join(b.drafts, d.ID+draftMeta), d.Path)
}

// readDraft is id's metadata, or a Draft holding only its id, path and
// why the metadata could not be had.
func (b *Box) readDraft(id string) Draft {
	d := Draft{ID: id, Path: filepath.Join(b.drafts, id+draftText)}
	data, err := os.ReadFile(filepath.Join(b.drafts, id+draftMeta))
	if err != nil {
		d.Err = fmt.Errorf("outbox: draft %s: %w", id, notFound(err))
		return d
	}
	var got Draft
	if err := json.Unmarshal(data, &got); err != nil {
		d.Err = fmt.Errorf("outbox: draft %s: %w: %v", id, ErrDamaged, err)
		return d
	}
	if got.ID != id || checkDraft(got) != nil {
		d.Err = fmt.Errorf("outbox: draft %s: %w: its JSON names id %q, account %q, kind %q", id, ErrDamaged, got.ID, got.Account, got.Kind)
		return d
	}
	got.Path = d.Path
	return got
}

// Drafts is every draft, newest first. A damaged one is listed with its
// Err (and dated by its files), never left out.
func (b *Box) Drafts() ([]Draft, error) {
	names, err := listNames(b.drafts)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, n := range names {
		id := strings.TrimSuffix(strings.TrimSuffix(n, draftMeta), draftText)
		if id != n && checkID(id) == nil && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var out []Draft
	for _, id := range ids {
		d := b.readDraft(id)
		if _, err := os.Stat(d.Path); err != nil || d.Err != nil {
			b.explain(&d)
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(x, y Draft) int { return y.Updated.Compare(x.Updated) })
	return out, nil
}

// DiscardDraft removes a draft: a person discarded it, or its message is
// sent and saved. The metadata goes first, so a crash between the two
// leaves the text (listed as damaged), never metadata naming no text;
// the copies of its attached files go last (Open clears any a crash
// left without their draft).
func (b *Box) DiscardDraft(id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	_, merr := os.Stat(filepath.Join(b.drafts, id+draftMeta))
	_, terr := os.Stat(filepath.Join(b.drafts, id+draftText))
	if errors.Is(merr, fs.ErrNotExist) && errors.Is(terr, fs.ErrNotExist) {
		return fmt.Errorf("outbox: draft %s: %w", id, ErrNotFound)
	}
	if err := removeAll(b.drafts, id+draftMeta); err != nil {
		return err
	}
	if err := removeAll(b.drafts, id+draftText); err != nil {
		return err
	}
	return b.removeFiles(id)
}

func notFound(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return err
}

func newestModTime(paths ...string) time.Time {
	var t time.Time
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(t) {
			t = st.ModTime()
		}
	}
	return t.UTC()
}
