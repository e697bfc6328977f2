package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"strconv"
	"time"

	"modernc.org/sqlite"

	"unibox/model"
	"unibox/model/contact"
	"unibox/model/review"
)

// The contacts index's part of the store (issue 38, schema 9): who wrote
// to whom, aggregated as rows are written, so that completing a
// recipient reads a row per address, never the mail.
//
// A row of correspondent is one address of one account seen one way:
//
//   - writer '': the address is the From of messages outside the
//     account's Sent folder (it wrote to the person, or so its mail
//     says);
//   - writer set: the address is a recipient (To or Cc) of messages in
//     the account's Sent folder whose From is writer. Only the faces know
//     the account's own addresses (its config): a row whose writer is one
//     of them is the person's writing; any other (a forged message filed
//     in Sent) counts for nothing.
//
// Each keeps how many messages (a message filed in several folders
// once: firstCopy, onlyCopy), the newest one's date, the sum of their
// weights (contact.Weight, in log2) and the newest address and name
// written. Triggers keep the rows in the transaction that writes the
// messages, deletes included (an expunge, a move, a folder's cascade);
// which folder is Sent is the sync's to say (SetSent), and a change of
// it counts the account again. bulk_address holds the addresses a
// stored body's list headers (an opened message's, or the list fields
// the background fetch reads with the text) showed to be a list's or a
// bulk sender's (contact.BulkAddresses). The counter 'contacts' moves with
// every change, so a face's index in memory knows when to read again.

// The correspondent keys and values message rows give, src being a
// table or a subquery with message's columns (as m), where a condition
// on m (and account a, the row's account) holds: one per message for its
// From (outside Sent), one per distinct recipient, To and Cc (inside:
// recipientKeys).
// The triggers put the condition in their WHEN, so a message outside
// Sent costs one plain upsert.

func fromsOf(src, where string) string {
	return `SELECT m.account_id, unibox_addr_key(m.from_addr) AS addr, '' AS writer, m.date, m.from_addr AS address, m.from_name AS name
		FROM ` + src + ` m JOIN account a ON a.id = m.account_id WHERE m.from_addr <> '' AND ` + where
}

func recipientsOf(src, where string) string {
	return `SELECT m.account_id, j.value ->> 'k' AS addr, unibox_addr_key(m.from_addr) AS writer, m.date,
			j.value ->> 'a' AS address, j.value ->> 'n' AS name
		FROM ` + src + ` m JOIN account a ON a.id = m.account_id, json_each(unibox_recipients(m.recipients, m.cc)) j
		WHERE ` + where
}

// inSent and outsideSent are the conditions on a row and its account.
const (
	inSent      = `m.folder = a.sent`
	outsideSent = `m.folder IS NOT a.sent`
)

// countIn adds the contributions (a query of fromsOf or recipientsOf)
// to the rows.
func countIn(contributions string) string {
	return `INSERT INTO correspondent (account_id, addr, writer, n, last, score, address, name, name_at)
		SELECT account_id, addr, writer, 1, date, unibox_contact_weight(date), address, name, CASE WHEN name = '' THEN 0 ELSE date END
		FROM (` + contributions + `) WHERE true ` + countedIn
}

// countedIn is the upsert's end: one more message for a row.
const countedIn = `ON CONFLICT (account_id, addr, writer) DO UPDATE SET n = n + 1, last = max(last, excluded.last),
		score = unibox_logadd(score, excluded.score),
		address = CASE WHEN excluded.last >= last THEN excluded.address ELSE address END,
		name = CASE WHEN excluded.name <> '' AND excluded.name_at >= name_at THEN excluded.name ELSE name END,
		name_at = CASE WHEN excluded.name <> '' AND excluded.name_at >= name_at THEN excluded.name_at ELSE name_at END;`

// countInFrom and countInRecipients add a trigger's row (new): what
// countIn of fromsOf and recipientsOf add, said without a subquery or a
// join. Every statement that may fire a trigger compiles it anew (a
// triage's UPDATE too, to know which columns it reads), so the triggers
// are kept small; TestContactsAgreeWithACountFromScratch holds the two
// forms together.
func countInFrom(row string) string {
	return `INSERT INTO correspondent (account_id, addr, writer, n, last, score, address, name, name_at)
		SELECT ` + row + `.account_id, unibox_addr_key(` + row + `.from_addr), '', 1, ` + row + `.date, unibox_contact_weight(` + row + `.date),
			` + row + `.from_addr, ` + row + `.from_name, CASE WHEN ` + row + `.from_name = '' THEN 0 ELSE ` + row + `.date END
		WHERE ` + row + `.from_addr <> '' ` + countedIn
}

func countInRecipients(row string) string {
	return `INSERT INTO correspondent (account_id, addr, writer, n, last, score, address, name, name_at)
		SELECT ` + row + `.account_id, j.value ->> 'k', unibox_addr_key(` + row + `.from_addr), 1, ` + row + `.date, unibox_contact_weight(` + row + `.date),
			j.value ->> 'a', j.value ->> 'n', CASE WHEN j.value ->> 'n' = '' THEN 0 ELSE ` + row + `.date END
		FROM json_each(unibox_recipients(` + row + `.recipients, ` + row + `.cc)) j WHERE true ` + countedIn
}

// countOutFrom and countOutRecipients take a trigger's row (old) out
// (the newest date and name stay: what was written was written), each
// row updated by its key. A row whose count reaches zero stays, read as
// none (n > 0 is what Contacts reads): deleting it would cost every
// expunge a second pass.
func countOutFrom(row string) string {
	return `UPDATE correspondent SET n = n - 1, score = unibox_logsub(score, unibox_contact_weight(` + row + `.date))
		WHERE account_id = ` + row + `.account_id AND addr = unibox_addr_key(` + row + `.from_addr) AND writer = '' AND ` + row + `.from_addr <> '';`
}

func countOutRecipients(row string) string {
	return `UPDATE correspondent SET n = n - 1, score = unibox_logsub(score, unibox_contact_weight(` + row + `.date))
		WHERE account_id = ` + row + `.account_id AND writer = unibox_addr_key(` + row + `.from_addr)
			AND addr IN (SELECT j.value ->> 'k' FROM json_each(unibox_recipients(` + row + `.recipients, ` + row + `.cc)) j);`
}

// countAll counts the rows of src (message rows) in: outside Sent, one
// row of each message (firstCopy).
func countAll(src string) string {
	return countIn(fromsOf(src, outsideSent+` AND `+firstCopy)) + countIn(recipientsOf(src, inSent))
}

// A message filed in several folders outside Sent (Gmail's labels and
// its All Mail, a copy kept in two folders) wrote to the person once:
// its From is counted for one of its rows. Rows are the same message
// when they share a Message-ID; a row without one is a message of its
// own. The triggers count a row when it is the only one of its message
// and take it out when it was the last (onlyCopy: a move, which stores
// the new row before it drops the old, changes nothing); a count from
// scratch takes the first row of each (firstCopy). A message's rows
// carry one envelope, so which row is counted does not matter.

// firstCopy is the condition that row m (of account a) is the first of
// its message's rows outside Sent, by folder and uid.
const firstCopy = `(m.message_id = '' OR NOT EXISTS (SELECT 1 FROM message o WHERE o.account_id = m.account_id
	AND o.message_id = m.message_id AND o.message_id <> '' AND o.folder IS NOT a.sent
	AND (o.folder < m.folder OR o.folder = m.folder AND o.uid < m.uid)))`

// onlyCopy is the condition that a trigger's row (new, inserted; old,
// deleted) is the only row of its message outside Sent.
func onlyCopy(row string) string {
	return `(` + row + `.message_id = '' OR NOT EXISTS (SELECT 1 FROM message o WHERE o.account_id = ` + row + `.account_id
		AND o.message_id = ` + row + `.message_id AND o.message_id <> '' AND (o.folder IS NOT ` + row + `.folder OR o.uid IS NOT ` + row + `.uid)
		AND ` + sentIs("o", "IS NOT") + `))`
}

// contactsCopiesSchema is schema version 11: a message's rows in several
// folders count once, and the index is counted again without the copies
// it counted before (buildContacts, in the background).
func contactsCopiesSchema() string {
	return `CREATE INDEX message_msgid ON message (account_id, message_id) WHERE message_id <> '';
	DROP TRIGGER message_contacts;
	DROP TRIGGER message_uncontacts;
	CREATE TRIGGER message_contacts AFTER INSERT ON message WHEN ` + sentIs("new", "IS NOT") + ` AND ` + onlyCopy("new") + ` BEGIN
		` + countInFrom("new") + bumpContacts + `
	END;
	CREATE TRIGGER message_uncontacts AFTER DELETE ON message WHEN ` + sentIs("old", "IS NOT") + ` AND ` + onlyCopy("old") + ` BEGIN
		` + countOutFrom("old") + bumpContacts + `
	END;
	UPDATE counter SET value = 0 WHERE name = 'contacts_built' AND EXISTS (SELECT 1 FROM message);`
}

const bumpContacts = `UPDATE counter SET value = value + 1 WHERE name = 'contacts';`

// bulkFromBodies records the bulk addresses of the bodies src yields
// (body rows as b).
func bulkFromBodies(src string) string {
	return `INSERT OR IGNORE INTO bulk_address (addr)
		SELECT j.value FROM ` + src + ` b JOIN message m ON m.account_id = b.account_id AND m.folder = b.folder AND m.uid = b.uid,
			json_each(unibox_bulk_addrs(b.body, m.from_name, m.from_addr, m.recipients, m.cc)) j;`
}

// sentIs is the condition that row (new or old) is (op "=") or is not
// (op "IS NOT") in its account's Sent folder.
func sentIs(row, op string) string {
	return row + `.folder ` + op + ` (SELECT sent FROM account WHERE id = ` + row + `.account_id)`
}

// contactsSchema is schema version 9.
func contactsSchema() string {
	changed := `old.from_addr IS NOT new.from_addr OR old.from_name IS NOT new.from_name OR old.recipients IS NOT new.recipients
		OR old.cc IS NOT new.cc OR old.date IS NOT new.date`
	return `ALTER TABLE account ADD COLUMN sent TEXT NOT NULL DEFAULT ''; -- the Sent folder, as the sync found it ('': not known)
	CREATE TABLE correspondent (
		account_id INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
		addr    TEXT NOT NULL,    -- the address's key (review.AddressKey)
		writer  TEXT NOT NULL,    -- '': addr wrote (From outside Sent); else the From of the Sent messages addr received
		n       INTEGER NOT NULL, -- how many messages
		last    INTEGER NOT NULL, -- the newest one's date, unix ms
		score   REAL NOT NULL,    -- log2 of the sum of their weights (contact.Weight)
		address TEXT NOT NULL,    -- as the newest wrote it
		name    TEXT NOT NULL,    -- the newest display name that was not empty
		name_at INTEGER NOT NULL, -- its message's date
		PRIMARY KEY (account_id, addr, writer)
	) WITHOUT ROWID;
	CREATE TABLE bulk_address (addr TEXT PRIMARY KEY) WITHOUT ROWID;
	-- Rows stored before are counted in the background (buildContacts):
	-- the triggers count what is written meanwhile, and the build counts
	-- everything again in one write.
	INSERT INTO counter (name, value) VALUES ('contacts', 0), ('contacts_built', NOT EXISTS (SELECT 1 FROM message));
	CREATE TRIGGER message_contacts AFTER INSERT ON message WHEN ` + sentIs("new", "IS NOT") + ` BEGIN
		` + countInFrom("new") + bumpContacts + `
	END;
	CREATE TRIGGER message_contacts_sent AFTER INSERT ON message WHEN ` + sentIs("new", "=") + ` BEGIN
		` + countInRecipients("new") + bumpContacts + `
	END;
	CREATE TRIGGER message_uncontacts AFTER DELETE ON message WHEN ` + sentIs("old", "IS NOT") + ` BEGIN
		` + countOutFrom("old") + bumpContacts + `
	END;
	CREATE TRIGGER message_uncontacts_sent AFTER DELETE ON message WHEN ` + sentIs("old", "=") + ` BEGIN
		` + countOutRecipients("old") + bumpContacts + `
	END;
	-- A row's folder never changes (a move is a delete and an insert).
	CREATE TRIGGER message_recontacts AFTER UPDATE OF from_addr, from_name, date ON message
		WHEN (` + changed + `) AND ` + sentIs("new", "IS NOT") + ` BEGIN
		` + countOutFrom("old") + countInFrom("new") + bumpContacts + `
	END;
	CREATE TRIGGER message_recontacts_sent AFTER UPDATE OF from_addr, recipients, cc, date ON message
		WHEN (` + changed + `) AND ` + sentIs("new", "=") + ` BEGIN
		` + countOutRecipients("old") + countInRecipients("new") + bumpContacts + `
	END;
	` + bodyBulkTriggers()
}

// bodyBulkTriggers mark the list addresses of each body as it is stored.
func bodyBulkTriggers() string {
	newBody := `(SELECT new.account_id AS account_id, new.folder AS folder, new.uid AS uid, new.body AS body)`
	return `CREATE TRIGGER body_bulk AFTER INSERT ON body BEGIN
		` + bulkFromBodies(newBody) + bumpContacts + `
	END;
	CREATE TRIGGER body_rebulk AFTER UPDATE OF body ON body BEGIN
		` + bulkFromBodies(newBody) + bumpContacts + `
	END;`
}

func init() {
	num := func(v driver.Value) float64 {
		switch v := v.(type) {
		case float64:
			return v
		case int64:
			return float64(v)
		}
		return contact.NoWeight
	}
	sqlite.MustRegisterDeterministicScalarFunction("unibox_addr_key", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return review.AddressKey(sqlText(args[0])), nil
	})
	// Not deterministic: a date in the future weighs as now (the clock
	// at the write).
	sqlite.MustRegisterScalarFunction("unibox_contact_weight", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		at, _ := args[0].(int64)
		return contact.Weight(at, time.Now().UnixMilli()), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_logadd", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return finite(contact.LogAdd(num(args[0]), num(args[1]))), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_logsub", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return finite(contact.LogSub(num(args[0]), num(args[1]))), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_recipients", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return recipientKeys(sqlText(args[0]), sqlText(args[1])), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_bulk_addrs", 5, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return bulkAddrs(sqlText(args[0]), model.Address{Name: sqlText(args[1]), Address: sqlText(args[2])}, sqlText(args[3]), sqlText(args[4])), nil
	})
}

// noScore is NoWeight as a column holds it (a REAL column takes no
// infinity back from Go's driver as one).
const noScore = -1e300

func finite(f float64) float64 { return max(f, noScore) }

// recipientKeys are a message's recipients (To, then Cc: stored JSON
// lists) each once by its key, as a JSON array of {"k": key, "a":
// address, "n": name} (the first name that is not empty). A list that
// does not read (never written so: the store marshals it) counts as none
// rather than failing the write. One call a message, in Go: two
// json_each and a GROUP BY in SQL cost a Sent folder's sync a third
// more.
func recipientKeys(to, cc string) string {
	type rcpt struct {
		K string `json:"k"`
		A string `json:"a"`
		N string `json:"n"`
	}
	var out []rcpt
	at := map[string]int{}
	for _, list := range []string{to, cc} {
		var as []model.Address
		if list == "" || json.Unmarshal([]byte(list), &as) != nil {
			continue
		}
		for _, a := range as {
			k := review.AddressKey(a.Address)
			if k == "" {
				continue
			}
			if i, ok := at[k]; ok {
				if out[i].N == "" {
					out[i].N = a.Name
				}
				continue
			}
			at[k] = len(out)
			out = append(out, rcpt{K: k, A: a.Address, N: a.Name})
		}
	}
	b, err := json.Marshal(out)
	if err != nil || out == nil {
		return "[]"
	}
	return string(b)
}

// bulkAddrs is contact.BulkAddresses of a stored body's headers, as a
// JSON array ("[]" when the body or a list does not read).
func bulkAddrs(body string, from model.Address, to, cc string) string {
	var b struct {
		Headers []model.Header `json:"headers"`
	}
	if json.Unmarshal([]byte(body), &b) != nil || len(b.Headers) == 0 {
		return "[]"
	}
	var toList, ccList []model.Address
	_ = json.Unmarshal([]byte(to), &toList)
	_ = json.Unmarshal([]byte(cc), &ccList)
	out, err := json.Marshal(contact.BulkAddresses(b.Headers, from, toList, ccList))
	if err != nil || string(out) == "null" {
		return "[]"
	}
	return string(out)
}

// buildContacts counts every stored row once, in one write, if the
// file's rows were stored before the index (schema 6 and below) or a
// build was cut short; a no-op once built.
func (s *Store) buildContacts(ctx context.Context) error {
	var built bool
	err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT value FROM counter WHERE name = 'contacts_built'`).Scan(&built)
	})
	if err != nil || built {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRow(`SELECT value FROM counter WHERE name = 'contacts_built'`).Scan(&built); err != nil || built {
			return err // another process built it meanwhile
		}
		_, err := tx.Exec(`DELETE FROM correspondent; DELETE FROM bulk_address;` + countAll("message") + bulkFromBodies("body") + bumpContacts +
			`UPDATE counter SET value = 1 WHERE name = 'contacts_built';`)
		return err
	})
}

// SetSent records which of k's folders is its Sent folder (the sync
// finds it: special-use, or the configured sent_folder). A change counts
// the account's rows again: a recipient of a message in Sent was written
// to, a sender of one elsewhere wrote.
func (s *Store) SetSent(ctx context.Context, k Key, folder string) error {
	var have string
	err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT sent FROM account WHERE name = ? AND host = ? AND user = ?`, k.Name, k.Host, k.User).Scan(&have)
	})
	if err == nil && have == folder {
		return nil // the usual case: one read, no write
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, true)
		if err != nil {
			return err
		}
		res, err := tx.Exec(`UPDATE account SET sent = ? WHERE id = ? AND sent IS NOT ?`, folder, acct, folder)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if _, err := tx.Exec(`DELETE FROM correspondent WHERE account_id = ?`, acct); err != nil {
			return err
		}
		_, err = tx.Exec(countAll(`(SELECT * FROM message WHERE account_id = `+strconv.FormatInt(acct, 10)+`)`) + bumpContacts)
		return err
	})
}

// Correspondent is one row of the index: an address of one account seen
// one way (see the top of this file).
type Correspondent struct {
	Addr    string // review.AddressKey
	Writer  string // "": Addr wrote; else the From of the Sent messages Addr received
	N       int
	Last    time.Time
	Score   float64 // contact.NoWeight for none
	Address string  // as the newest message wrote it
	Name    string  // the newest name that was not empty
	NameAt  time.Time
}

// Contacts is what the index holds for some accounts, read at once.
type Contacts struct {
	// Version moves with every change of the index: the same version,
	// the same rows.
	Version int64
	// Rows are each account's rows, by its Key (an account the store
	// has nothing of has none).
	Rows map[Key][]Correspondent
	// Bulk are the address keys list headers showed to be a list's or a
	// bulk sender's.
	Bulk map[string]bool
}

// ContactsVersion is the index's version (Contacts.Version): one small
// read, for a face to tell whether what it holds is current.
func (s *Store) ContactsVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT value FROM counter WHERE name = 'contacts'`).Scan(&v)
	})
	return v, err
}

// Contacts reads the index's rows of keys.
func (s *Store) Contacts(ctx context.Context, keys []Key) (Contacts, error) {
	out := Contacts{Rows: map[Key][]Correspondent{}, Bulk: map[string]bool{}}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRow(`SELECT value FROM counter WHERE name = 'contacts'`).Scan(&out.Version); err != nil {
			return err
		}
		for _, k := range keys {
			rows, err := tx.Query(`SELECT c.addr, c.writer, c.n, c.last, c.score, c.address, c.name, c.name_at
				FROM correspondent c JOIN account a ON a.id = c.account_id WHERE a.name = ? AND a.host = ? AND a.user = ? AND c.n > 0`, k.Name, k.Host, k.User)
			if err != nil {
				return err
			}
			var list []Correspondent
			for rows.Next() {
				var c Correspondent
				var last, nameAt int64
				if err := rows.Scan(&c.Addr, &c.Writer, &c.N, &last, &c.Score, &c.Address, &c.Name, &nameAt); err != nil {
					rows.Close()
					return err
				}
				if c.Score <= noScore {
					c.Score = contact.NoWeight
				}
				c.Last, c.NameAt = fromMilli(last), fromMilli(nameAt)
				list = append(list, c)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			out.Rows[k] = list
		}
		rows, err := tx.Query(`SELECT addr FROM bulk_address`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				return err
			}
			out.Bulk[a] = true
		}
		return rows.Err()
	})
	return out, err
}
