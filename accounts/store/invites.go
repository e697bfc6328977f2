package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"unibox/model"
	"unibox/model/invite"
)

// The events of invitations (issue 41). Every invitation the store sees
// keeps its calendar part and what identifies its event (UID, the one
// instance it is about, SEQUENCE, the method, who sent it), whether or
// not its body is stored: a sync brings the part with the envelope
// (sync_folder), an opened message's body brings it too. An update is
// then told against the version before it, and the person's own answer
// is found in Sent, even offline. Like every row here it is a cache: the
// servers hold every part again.

// invitesSchema is migration 14.
const invitesSchema = `CREATE TABLE invite (
		account_id INTEGER NOT NULL,
		folder     TEXT NOT NULL,
		uid        INTEGER NOT NULL,
		event_uid  TEXT NOT NULL,    -- the iCalendar UID
		instance   INTEGER NOT NULL, -- RECURRENCE-ID, unix ms; 0: the series
		sequence   INTEGER NOT NULL,
		method     TEXT NOT NULL,
		sender     TEXT NOT NULL,    -- the message's From address
		date       INTEGER NOT NULL, -- the message's, unix ms
		calendar   TEXT NOT NULL,    -- the part, at most 1 MB
		UNIQUE (account_id, folder, uid),
		FOREIGN KEY (account_id, folder, uid) REFERENCES message (account_id, folder, uid) ON DELETE CASCADE
	);
	CREATE INDEX invite_event ON invite (account_id, event_uid);`

// writeInvites keeps the events of msgs whose calendar part cals holds
// (by uid). A part that does not parse is not kept: the message view
// says why when the message is opened.
func writeInvites(tx *sql.Tx, acct int64, folder string, msgs []model.Message, cals map[uint32]string) error {
	if len(cals) == 0 {
		return nil
	}
	for _, m := range msgs {
		cal, ok := cals[m.ID.UID]
		if !ok || cal == "" {
			continue
		}
		if err := writeInvite(tx, acct, folder, m.ID.UID, m.From.Address, m.Date, cal); err != nil {
			return err
		}
	}
	return nil
}

// writeInvite keeps one message's event, when its row is stored.
func writeInvite(tx *sql.Tx, acct int64, folder string, uid uint32, sender string, date time.Time, cal string) error {
	inv, err := invite.Parse([]byte(cal), time.UTC)
	if err != nil {
		return nil
	}
	e := inv.Events[0]
	var instance int64
	if !e.RecurrenceID.IsZero() {
		instance = e.RecurrenceID.Time.UnixMilli()
	}
	_, err = tx.Exec(`INSERT INTO invite (account_id, folder, uid, event_uid, instance, sequence, method, sender, date, calendar)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM message WHERE account_id = ? AND folder = ? AND uid = ?)
		ON CONFLICT (account_id, folder, uid) DO UPDATE SET event_uid = excluded.event_uid, instance = excluded.instance,
			sequence = excluded.sequence, method = excluded.method, sender = excluded.sender, date = excluded.date, calendar = excluded.calendar`,
		acct, folder, uid, strings.ToLower(e.UID), instance, e.Sequence, inv.Method, strings.ToLower(sender), unixMilli(date), cal,
		acct, folder, uid)
	return err
}

// Events are the stored messages of the event with uid (any case) in
// account k, oldest first: each as invite.Version, for invite.Recall.
func (s *Store) Events(ctx context.Context, k Key, eventUID string) ([]invite.Version, error) {
	var out []invite.Version
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT i.folder, i.uid, f.uidvalidity, i.sender, i.date, i.calendar FROM invite i
			JOIN folder f ON f.account_id = i.account_id AND f.name = i.folder
			WHERE i.account_id = ? AND i.event_uid = ? ORDER BY i.date, i.uid LIMIT ?`, acct, strings.ToLower(eventUID), maxVersions)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v invite.Version
			var date int64
			if err := rows.Scan(&v.Folder, &v.UID, &v.UIDValidity, &v.Sender, &date, &v.Calendar); err != nil {
				return err
			}
			if date != 0 {
				v.At = time.UnixMilli(date).UTC()
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	return out, err
}

// maxVersions bounds what one event's history reads: an event of a
// thousand updates is a hostile one.
const maxVersions = 200
