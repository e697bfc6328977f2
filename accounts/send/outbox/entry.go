package outbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Entry is a message waiting in the outbox, and how far it got.
type Entry struct {
	ID        string   `json:"id"`
	Account   string   `json:"account"`
	MessageID string   `json:"message_id"`
	DraftID   string   `json:"draft_id,omitempty"` // removed only once the entry is done
	Rcpt      []string `json:"rcpt"`
	From      string   `json:"from"`
	// SendAt: not before this (send_delay); Cancel takes it back before.
	SendAt    time.Time `json:"send_at"`
	State     State     `json:"state"`
	Attempts  int       `json:"attempts"`
	NextTry   time.Time `json:"next_try,omitzero"` // backoff after a failure that sent nothing
	LastError string    `json:"last_error,omitempty"`
	Original  *Ref      `json:"original,omitempty"`
	// Flag is what to set on Original after sending.
	Flag       string `json:"flag,omitempty"` // "answered" | "forwarded" | ""
	SentFolder string `json:"sent_folder,omitempty"`
	SentUID    uint32 `json:"sent_uid,omitempty"`
	// ServerDraft is the server's draft the message was written from:
	// deleted from Drafts once the message is sent and saved.
	ServerDraft *Ref `json:"server_draft,omitempty"`
	// SaveTries counts APPENDs to Sent begun: after one, a copy may be
	// there, so the next try looks for the Message-ID first.
	SaveTries int `json:"save_tries,omitempty"`
	// FlagTries counts failed tries at flagging Original; after a few the
	// entry is done without the flag, and LastError says so.
	FlagTries int       `json:"flag_tries,omitempty"`
	Updated   time.Time `json:"updated"`
	// Err is why a listed entry is damaged: its JSON did not parse and was
	// set aside (renamed .broken-TIME) with its bodies kept. Only ID and
	// Err are set; it is never due and never claimed, and Remove clears it.
	Err error `json:"-"`
}

const (
	entryMeta  = ".json"
	entryWire  = ".wire"  // what goes over SMTP (no Bcc)
	entrySaved = ".saved" // the copy for Sent (Bcc kept)
	entryLock  = ".lock"
	brokenMark = ".broken-"
)

// maxLastError bounds LastError: a server's error text can be long, and
// the entry is listed on every start.
const maxLastError = 1000

// Enqueue puts a message in the outbox, state queued: both bodies first,
// then the entry that names them, each written atomically, so an entry
// never exists without its bodies. saved nil means the copy for Sent is
// the wire body itself. The entry gets a fresh ID; State, Attempts and
// Updated are the outbox's to set.
func (b *Box) Enqueue(e Entry, wire, saved []byte) (Entry, error) {
	if saved == nil {
		saved = wire
	}
	e.ID, e.State, e.Attempts, e.Err = newID(), StateQueued, 0, nil
	if err := checkEntry(e); err != nil {
		return Entry{}, err
	}
	if len(wire) == 0 {
		return Entry{}, fmt.Errorf("outbox: entry: the message: %w (empty)", ErrInvalid)
	}
	if err := writeAtomic(b.outbox, e.ID+entryWire, wire); err != nil {
		return Entry{}, err
	}
	if err := writeAtomic(b.outbox, e.ID+entrySaved, saved); err != nil {
		return Entry{}, err
	}
	if err := b.writeEntry(&e); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// checkEntry refuses an entry that could not be sent as it stands, naming
// the field; the same check finds a damaged entry on disk.
func checkEntry(e Entry) error {
	bad := func(field, why string) error {
		return fmt.Errorf("outbox: entry %s: %s: %w (%s)", e.ID, field, ErrInvalid, why)
	}
	switch {
	case checkID(e.ID) != nil:
		return bad("id", "letters, digits, - and _")
	case e.Account == "":
		return bad("account", "empty")
	case len(e.Rcpt) == 0:
		return bad("rcpt", "no recipient")
	case !e.State.valid():
		return bad("state", fmt.Sprintf("%q is not a state", e.State))
	case e.Flag != "" && e.Flag != "answered" && e.Flag != "forwarded":
		return bad("flag", fmt.Sprintf("%q: answered, forwarded or empty", e.Flag))
	case e.DraftID != "" && checkID(e.DraftID) != nil:
		return bad("draft_id", "letters, digits, - and _")
	}
	return nil
}

func (b *Box) writeEntry(e *Entry) error {
	e.Updated = time.Now().UTC()
	if len(e.LastError) > maxLastError {
		e.LastError = e.LastError[:maxLastError] + "…"
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("outbox: entry %s: %w", e.ID, err)
	}
	return writeAtomic(b.outbox, e.ID+entryMeta, data)
}

// readEntry is the entry id as on disk: ErrNotFound when it is gone (sent
// and removed, perhaps by another process), ErrDamaged when it does not
// parse or does not hold together.
func (b *Box) readEntry(id string) (Entry, error) {
	data, err := os.ReadFile(filepath.Join(b.outbox, id+entryMeta))
	if err != nil {
		return Entry{}, fmt.Errorf("outbox: entry %s: %w", id, notFound(err))
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return Entry{}, fmt.Errorf("outbox: entry %s: %w: %v", id, ErrDamaged, err)
	}
	if e.ID != id {
		return Entry{}, fmt.Errorf("outbox: entry %s: %w: its JSON names id %q", id, ErrDamaged, e.ID)
	}
	if err := checkEntry(e); err != nil {
		return Entry{}, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return e, nil
}

// setAside renames a damaged entry's JSON to <id>.json.broken-TIME, so it
// is never taken for an entry again and never lost: its bodies stay, and
// Entries lists it until a person removes it.
func (b *Box) setAside(id string, why error) Entry {
	from := filepath.Join(b.outbox, id+entryMeta)
	to := from + brokenMark + time.Now().UTC().Format("20060102T150405.000000000Z")
	if err := os.Rename(from, to); err != nil {
		return Entry{ID: id, Err: fmt.Errorf("%w; setting it aside failed: %v", why, err)}
	}
	syncDir(b.outbox)
	return Entry{ID: id, Err: fmt.Errorf("%w; set aside as %s, its bodies kept", why, filepath.Base(to))}
}

// Entries is every entry in the outbox, oldest SendAt first. A damaged one is set aside and
// listed with its Err, this time and every time after, until removed.
func (b *Box) Entries() ([]Entry, error) {
	names, err := listNames(b.outbox)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, n := range names {
		if id, at, ok := strings.Cut(n, entryMeta+brokenMark); ok && checkID(id) == nil {
			out = append(out, Entry{ID: id, Err: fmt.Errorf("outbox: entry %s: %w: set aside as %s (at %s), its bodies kept", id, ErrDamaged, n, at)})
			continue
		}
		id, ok := strings.CutSuffix(n, entryMeta)
		if !ok || checkID(id) != nil {
			continue
		}
		e, err := b.readEntry(id)
		switch {
		case errors.Is(err, ErrNotFound):
			continue // removed since the listing, by another process
		case err != nil:
			out = append(out, b.setAside(id, err))
			continue
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(x, y Entry) int {
		if c := x.SendAt.Compare(y.SendAt); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out, nil
}

// Due is the queued entries whose SendAt and NextTry have passed, oldest
// SendAt first: what a sender should claim now.
func (b *Box) Due(now time.Time) ([]Entry, error) {
	all, err := b.Entries()
	if err != nil {
		return nil, err
	}
	var due []Entry
	for _, e := range all {
		if e.Err == nil && e.State == StateQueued && !e.SendAt.After(now) && !e.NextTry.After(now) {
			due = append(due, e)
		}
	}
	return due, nil // in Entries' order: oldest SendAt first
}

// Orphans is the entries whose account is not among accounts (removed
// from the config, or renamed). The caller shows them and never sends
// them: never through another account, whatever its address.
func (b *Box) Orphans(accounts []string) ([]Entry, error) {
	all, err := b.Entries()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range all {
		if e.Err == nil && !slices.Contains(accounts, e.Account) {
			out = append(out, e)
		}
	}
	return out, nil
}
