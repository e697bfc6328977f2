package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"unibox/model"
)

// Key names an account's mailbox by what identifies it: a renamed account,
// or one pointed at another server or user, is another mailbox.
type Key struct {
	Name string
	Host string // the IMAP host, or the MCP server's command line
	User string
}

// Folder is what the store knows of one folder.
type Folder struct {
	Name        string
	UIDValidity uint32
	UIDNext     uint32
	Total       uint32
	More        bool      // older messages exist than those stored
	SyncedAt    time.Time // of the last listing that touched it
}

// Snapshot is a page of stored rows of one folder.
type Snapshot struct {
	Folder
	Messages []model.Message // newest (highest uid) first
	// AccountSyncedAt is when the account last had a listing or sync
	// stored (any folder).
	AccountSyncedAt time.Time
}

// Listing is one page a server gave: the newest page of a folder
// (BeforeUID 0), or the page below BeforeUID.
type Listing struct {
	Folder      string
	UIDValidity uint32
	UIDNext     uint32 // 0 when the provider does not say
	Total       uint32
	Messages    []model.Message
	More        bool // older messages exist beyond this page
	BeforeUID   uint32
	At          time.Time
	// Inbox: the listing named no folder, so Folder is the account's
	// inbox, which Newest and Older read when they are given "".
	Inbox bool
}

// ErrNotStored is a folder or account the store has nothing of.
var ErrNotStored = errors.New("not in the local store")

// Save records a listing. The page is the truth for the uid range it
// covers (from its lowest uid up to BeforeUID, or to the top; down to
// 1 when nothing is older): stored rows in that range that it does not
// hold were expunged or moved by another client and are dropped. A
// changed UIDVALIDITY drops the whole folder first, since its uids now
// name other messages.
//
// Each of l.Messages gets its ThreadID set (in the caller's slice): the
// thread the store put it in.
func (s *Store) Save(ctx context.Context, k Key, l Listing) error {
	var threaded threadedRows
	return s.writeThreaded(ctx, k, &threaded, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, true)
		if err != nil {
			return err
		}
		at := l.At.UnixMilli()
		prev, err := folderRow(tx, acct, l.Folder)
		switch {
		case errors.Is(err, ErrNotStored):
		case err != nil:
			return err
		case prev.UIDValidity != l.UIDValidity:
			if _, err := tx.Exec(`DELETE FROM folder WHERE account_id = ? AND name = ?`, acct, l.Folder); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(`INSERT INTO folder (account_id, name, uidvalidity, uidnext, total, synced_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, name) DO UPDATE SET uidnext = max(uidnext, excluded.uidnext), total = excluded.total, synced_at = excluded.synced_at`,
			acct, l.Folder, l.UIDValidity, l.UIDNext, l.Total, at); err != nil {
			return err
		}
		low, high := coveredRange(l)
		if err := dropMissing(tx, acct, l, low, high); err != nil {
			return err
		}
		up, err := prepareUpsert(tx) // parsed once, not once per row
		if err != nil {
			return err
		}
		defer up.Close()
		for _, m := range l.Messages {
			if err := up.exec(acct, l.Folder, m); err != nil {
				return err
			}
		}
		threaded = threadedRows{folder: l.Folder, uidValidity: l.UIDValidity, msgs: l.Messages}
		// more: the page's own answer, unless rows stored by an earlier
		// older page continue below it.
		if _, err := tx.Exec(`UPDATE folder SET more = ? WHERE account_id = ? AND name = ?
			AND NOT EXISTS (SELECT 1 FROM message WHERE account_id = ? AND folder = ? AND uid < ?)`,
			l.More, acct, l.Folder, acct, l.Folder, low); err != nil {
			return err
		}
		if l.Inbox {
			if _, err := tx.Exec(`UPDATE account SET inbox = ? WHERE id = ?`, l.Folder, acct); err != nil {
				return err
			}
		}
		_, err = tx.Exec(`UPDATE account SET synced_at = ? WHERE id = ?`, at, acct)
		return err
	})
}

// coveredRange is the uid range [low, high) a listing speaks for.
func coveredRange(l Listing) (low, high uint32) {
	high = l.BeforeUID
	if high == 0 {
		high = ^uint32(0)
	}
	low = 1
	if l.More {
		low = high
		for _, m := range l.Messages {
			low = min(low, m.ID.UID)
		}
	}
	return low, high
}

func dropMissing(tx *sql.Tx, acct int64, l Listing, low, high uint32) error {
	keep := make([]uint32, 0, len(l.Messages))
	for _, m := range l.Messages {
		keep = append(keep, m.ID.UID)
	}
	list, err := json.Marshal(keep)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`DELETE FROM message WHERE account_id = ? AND folder = ? AND uid >= ? AND uid < ?
		AND uid NOT IN (SELECT value FROM json_each(?))`, acct, l.Folder, low, high, string(list))
	return err
}

// upsertSQL writes a row. A version without threading ids (threading 0)
// keeps the ids a row has, one without Cc (cc ”: not known) keeps the
// Cc and attachment names it has; the row's seq moves (the threaders of every
// process read it again) only when what threading reads changed, so a
// listing that rewrites a page of known rows costs no threading.
const upsertSQL = `INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
		seen, flagged, answered, forwarded, size, attachments, raw_id, in_reply_to, refs, threading, seq, cc, filenames, list_id, headers,
		invitation)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (account_id, folder, uid) DO UPDATE SET message_id = excluded.message_id, from_name = excluded.from_name,
		from_addr = excluded.from_addr, recipients = excluded.recipients, subject = excluded.subject, date = excluded.date,
		seen = excluded.seen, flagged = excluded.flagged, answered = excluded.answered, forwarded = excluded.forwarded,
		size = excluded.size, attachments = excluded.attachments,
		raw_id = CASE WHEN excluded.threading THEN excluded.raw_id ELSE raw_id END,
		in_reply_to = CASE WHEN excluded.threading THEN excluded.in_reply_to ELSE in_reply_to END,
		refs = CASE WHEN excluded.threading THEN excluded.refs ELSE refs END,
		threading = max(threading, excluded.threading),
		cc = CASE WHEN excluded.cc = '' THEN cc ELSE excluded.cc END,
		filenames = CASE WHEN excluded.cc = '' THEN filenames ELSE excluded.filenames END,
		invitation = CASE WHEN excluded.cc = '' THEN invitation ELSE excluded.invitation END,
		list_id = CASE WHEN excluded.threading THEN excluded.list_id ELSE list_id END,
		headers = CASE WHEN excluded.headers = '' THEN headers ELSE excluded.headers END,
		seq = CASE WHEN excluded.threading AND (NOT threading OR excluded.raw_id IS NOT raw_id
				OR excluded.in_reply_to IS NOT in_reply_to OR excluded.refs IS NOT refs)
			OR NOT excluded.threading AND NOT threading AND excluded.message_id IS NOT message_id
			THEN excluded.seq ELSE seq END`

// messageColumns are the columns scanMessage reads, in its order, from
// messageFrom: the thread_id through the alias table (one hop: it is kept
// resolved).
var messageColumns = columnsOf("")

// columnsOf is messageColumns read from the message table under alias
// ("m.", or "" unqualified) in a statement that joins thread_alias.
func columnsOf(alias string) string {
	cols := []string{"uid", "message_id", "from_name", "from_addr", "recipients", "subject", "date", "seen", "flagged",
		"answered", "forwarded", "size", "attachments", "raw_id", "in_reply_to", "refs", "threading", "", "cc", "filenames", "list_id", "headers", "invitation"}
	for i, c := range cols {
		if c == "" {
			cols[i] = "coalesce(thread_alias.new, " + alias + "thread_id)"
		} else {
			cols[i] = alias + c
		}
	}
	return strings.Join(cols, ", ")
}

// messageFrom is the table messageColumns are read from.
const messageFrom = `message LEFT JOIN thread_alias ON thread_alias.old = message.thread_id`

// upserter writes message rows of one transaction, stamped with its
// sequence number.
type upserter struct {
	st  *sql.Stmt
	seq int64
}

// prepareUpsert takes the transaction's sequence number and prepares the
// row write.
func prepareUpsert(tx *sql.Tx) (*upserter, error) {
	seq, err := nextSeq(tx)
	if err != nil {
		return nil, err
	}
	st, err := tx.Prepare(upsertSQL)
	if err != nil {
		return nil, err
	}
	return &upserter{st: st, seq: seq}, nil
}

func (u *upserter) Close() error { return u.st.Close() }

// exec writes one message row.
func (u *upserter) exec(acct int64, folder string, m model.Message) error {
	to, err := json.Marshal(m.To)
	if err != nil {
		return err
	}
	var raw, irt, refs string
	if t := m.Threading; t != nil {
		raw, _ = model.CleanMsgID(t.MessageID)
		irt, _ = model.CleanMsgID(t.InReplyTo)
		refs = joinIDs(capIDs(t.References))
	}
	var cc, names string // '': not known (a row keeps what it has)
	if m.Cc != nil {
		b, err := json.Marshal(m.Cc)
		if err != nil {
			return err
		}
		cc, names = string(b), joinNames(m.AttachmentNames)
	}
	var headers string
	if len(m.Headers) > 0 {
		b, err := json.Marshal(m.Headers)
		if err != nil {
			return err
		}
		headers = string(b)
	}
	_, err = u.st.Exec(acct, folder, m.ID.UID, m.MessageID, m.From.Name, m.From.Address, string(to), m.Subject, unixMilli(m.Date),
		m.Seen, m.Flagged, m.Answered, m.Forwarded, m.Size, m.HasAttachments, raw, irt, refs, m.Threading != nil, u.seq, cc, names, m.ListID, headers, string(m.Invitation))
	return err
}

// upsertOne writes one message row in tx.
func upsertOne(tx *sql.Tx, acct int64, folder string, m model.Message) error {
	up, err := prepareUpsert(tx)
	if err != nil {
		return err
	}
	defer up.Close()
	return up.exec(acct, folder, m)
}

// Newest is the newest limit stored rows of folder ("": the inbox).
func (s *Store) Newest(ctx context.Context, k Key, folder string, limit int) (Snapshot, error) {
	return s.page(ctx, k, folder, 0, limit)
}

// Older is the limit stored rows of folder below beforeUID.
func (s *Store) Older(ctx context.Context, k Key, folder string, beforeUID uint32, limit int) (Snapshot, error) {
	return s.page(ctx, k, folder, beforeUID, limit)
}

func (s *Store) page(ctx context.Context, k Key, folder string, before uint32, limit int) (Snapshot, error) {
	if before == 0 {
		before = ^uint32(0)
	}
	return s.query(ctx, k, folder, limit, `uid < ?`, before)
}

// query reads the newest limit rows of folder ("": the inbox) that meet
// where (a condition on the message table with one argument).
func (s *Store) query(ctx context.Context, k Key, folder string, limit int, where string, arg any) (Snapshot, error) {
	var snap Snapshot
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		var inbox string
		var synced int64
		if err := tx.QueryRow(`SELECT inbox, synced_at FROM account WHERE id = ?`, acct).Scan(&inbox, &synced); err != nil {
			return err
		}
		snap.AccountSyncedAt = fromMilli(synced)
		if folder == "" {
			folder = inbox
		}
		if snap.Folder, err = folderRow(tx, acct, folder); err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT `+messageColumns+`
			FROM `+messageFrom+` WHERE account_id = ? AND folder = ? AND `+where+` ORDER BY uid DESC LIMIT ?`, acct, folder, arg, limit+1)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanMessage(rows, k.Name, snap.Folder)
			if err != nil {
				return err
			}
			snap.Messages = append(snap.Messages, m)
		}
		return rows.Err()
	})
	if len(snap.Messages) > limit {
		snap.Messages, snap.More = snap.Messages[:limit], true
	}
	return snap, err
}

func scanMessage(rows *sql.Rows, account string, f Folder) (model.Message, error) {
	m, err := scanRow(rows)
	m.ID.Account, m.ID.Folder, m.ID.UIDValidity = account, f.Name, f.UIDValidity
	return m, err
}

// scanRow reads pre (columns selected before messageColumns), then the
// message; the caller sets its ID's account, folder and UIDVALIDITY.
func scanRow(rows *sql.Rows, pre ...any) (model.Message, error) {
	var m model.Message
	var to, raw, irt, refs, cc, names, headers, invitation string
	var date int64
	var threading bool
	dest := append(pre, &m.ID.UID, &m.MessageID, &m.From.Name, &m.From.Address, &to, &m.Subject, &date,
		&m.Seen, &m.Flagged, &m.Answered, &m.Forwarded, &m.Size, &m.HasAttachments, &raw, &irt, &refs, &threading, &m.ThreadID,
		&cc, &names, &m.ListID, &headers, &invitation)
	if err := rows.Scan(dest...); err != nil {
		return m, err
	}
	if invitation != "" {
		m.Invitation = model.InvitationOf(invitation)
	}
	if headers != "" {
		if err := json.Unmarshal([]byte(headers), &m.Headers); err != nil {
			return m, fmt.Errorf("stored headers of uid %d: %w", m.ID.UID, err)
		}
	}
	if cc != "" {
		if err := json.Unmarshal([]byte(cc), &m.Cc); err != nil {
			return m, fmt.Errorf("stored cc of uid %d: %w", m.ID.UID, err)
		}
		if m.Cc == nil {
			m.Cc = []model.Address{}
		}
		m.AttachmentNames = splitNames(names)
	}
	if threading {
		m.Threading = &model.ThreadHeaders{MessageID: raw, InReplyTo: irt, References: splitIDs(refs)}
	}
	if err := json.Unmarshal([]byte(to), &m.To); err != nil {
		return m, fmt.Errorf("stored recipients of uid %d: %w", m.ID.UID, err)
	}
	if date != 0 {
		m.Date = time.UnixMilli(date).UTC()
	}
	return m, nil
}

// joinNames and splitNames store attachment names one a line (a line
// break inside a name, which no safe name has, is a space).
func joinNames(names []string) string {
	clean := make([]string, len(names))
	for i, n := range names {
		clean[i] = strings.NewReplacer("\r", " ", "\n", " ").Replace(n)
	}
	return strings.Join(clean, "\n")
}

func splitNames(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
