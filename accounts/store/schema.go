package store

// migrations are the schema's versions: migrations[i] takes the file from
// user_version i to i+1. A file whose version is newer than ours was made
// by a newer unibox: it is set aside, not downgraded.
var migrations = []string{
	// 1: accounts keyed by what identifies a mailbox, not by the name
	// alone, so a renamed or repointed account never shows another's mail.
	`CREATE TABLE account (
		id        INTEGER PRIMARY KEY,
		name      TEXT NOT NULL,
		host      TEXT NOT NULL,
		user      TEXT NOT NULL,
		synced_at INTEGER NOT NULL DEFAULT 0, -- unix ms of the last listing
		inbox     TEXT NOT NULL DEFAULT '',   -- the folder a listing without one named
		UNIQUE (name, host, user)
	);
	CREATE TABLE folder (
		account_id  INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
		name        TEXT NOT NULL,
		uidvalidity INTEGER NOT NULL,
		uidnext     INTEGER NOT NULL DEFAULT 0,
		total       INTEGER NOT NULL DEFAULT 0,
		more        INTEGER NOT NULL DEFAULT 0, -- older messages than the stored ones exist
		synced_at   INTEGER NOT NULL DEFAULT 0,
		-- Incremental sync (sync_folder): the state a sync continues from.
		highestmodseq INTEGER NOT NULL DEFAULT 0,
		complete      INTEGER NOT NULL DEFAULT 0, -- every uid below uidnext is stored
		sync_floor    INTEGER NOT NULL DEFAULT 0, -- a sync in pages under way: stored down to here
		PRIMARY KEY (account_id, name)
	) WITHOUT ROWID;
	CREATE TABLE message (
		account_id  INTEGER NOT NULL,
		folder      TEXT NOT NULL,
		uid         INTEGER NOT NULL,
		message_id  TEXT NOT NULL,
		from_name   TEXT NOT NULL,
		from_addr   TEXT NOT NULL,
		recipients  TEXT NOT NULL, -- JSON [{"name","address"}]
		subject     TEXT NOT NULL,
		date        INTEGER NOT NULL, -- unix ms; 0 when the message has none
		seen        INTEGER NOT NULL,
		flagged     INTEGER NOT NULL,
		answered    INTEGER NOT NULL,
		size        INTEGER NOT NULL,
		attachments INTEGER NOT NULL,
		PRIMARY KEY (account_id, folder, uid),
		FOREIGN KEY (account_id, folder) REFERENCES folder (account_id, name) ON DELETE CASCADE
	) WITHOUT ROWID;
	CREATE TABLE body (
		account_id INTEGER NOT NULL,
		folder     TEXT NOT NULL,
		uid        INTEGER NOT NULL,
		body       BLOB NOT NULL, -- JSON of model.Body without its envelope
		size       INTEGER NOT NULL, -- of body, for the cap
		stored_at  INTEGER NOT NULL, -- unix ms: the oldest go first
		PRIMARY KEY (account_id, folder, uid),
		FOREIGN KEY (account_id, folder, uid) REFERENCES message (account_id, folder, uid) ON DELETE CASCADE
	) WITHOUT ROWID;
	CREATE INDEX body_age ON body (stored_at);`,
	// 2: any sync that takes more than one page (a first sync, or an
	// incremental one after a long absence) keeps the top it began at in
	// its own columns, so uidnext can stay what the folder holds whole
	// below. Version 1 kept a first sync's top in uidnext (0 otherwise
	// until it was done): it moves.
	`ALTER TABLE folder ADD COLUMN sync_top INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE folder ADD COLUMN sync_top_modseq INTEGER NOT NULL DEFAULT 0;
	UPDATE folder SET sync_top = uidnext, sync_top_modseq = highestmodseq, uidnext = 0, highestmodseq = 0
		WHERE complete = 0 AND sync_floor > 0;
	-- A sync counts a folder's stored uids at every step: over the table
	-- itself (whole rows) that read 20 MB per step of a 100,000-message
	-- first sync; this index holds just the uids.
	CREATE INDEX message_uid ON message (account_id, folder, uid);`,
	// 3: when the sync last held the stored uids against the server's whole
	// uid set. It does so when the counts disagree; a gap hidden behind an
	// expunge (the counts agree) is found by a check at least once a day.
	`ALTER TABLE folder ADD COLUMN checked_at INTEGER NOT NULL DEFAULT 0;`,
	// 4: the $Forwarded keyword, shown beside \Answered (issue 26). Rows
	// stored before do not know it; a CONDSTORE sync fetches only flags
	// changed since the kept modseq, so an older forward would stay
	// unmarked for good. Forgetting every modseq makes the next sync of
	// each folder read all its stored messages' flags once (FLAGS only, a
	// few bytes a message), as a server without CONDSTORE always does.
	`ALTER TABLE message ADD COLUMN forwarded INTEGER NOT NULL DEFAULT 0;
	UPDATE folder SET highestmodseq = 0, sync_top_modseq = 0;`,
	// 5: threads (issue 28, threads.go). The raw threading ids beside the
	// display message_id (threading: whether they are known; rows stored
	// before are fetched again in the background), each row's thread_id,
	// the aliases of merged threads (old -> new, kept resolved: new is
	// always a live id), and a store-wide sequence stamped on every row
	// written, so each process catches up on what the others wrote.
	`ALTER TABLE message ADD COLUMN raw_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE message ADD COLUMN in_reply_to TEXT NOT NULL DEFAULT '';
	ALTER TABLE message ADD COLUMN refs TEXT NOT NULL DEFAULT ''; -- ids separated by spaces (an id holds none)
	ALTER TABLE message ADD COLUMN threading INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE message ADD COLUMN thread_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE message ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
	-- Covering: a process reads the threading columns of every row once
	-- (its first write) and of new rows after: this index holds them in
	-- a quarter of the table's pages (no recipients, subjects, flags).
	CREATE INDEX message_seq ON message (seq, account_id, folder, uid, threading, raw_id, message_id, in_reply_to, refs, thread_id);
	CREATE INDEX message_thread ON message (thread_id);
	CREATE INDEX message_unthreaded ON message (account_id, folder, uid) WHERE threading = 0;
	CREATE TABLE thread_alias (
		old TEXT PRIMARY KEY,
		new TEXT NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX thread_alias_new ON thread_alias (new);
	CREATE TABLE counter (
		name  TEXT PRIMARY KEY,
		value INTEGER NOT NULL
	) WITHOUT ROWID;
	INSERT INTO counter (name, value) VALUES ('seq', 0);`,
	// 6: search (issue 38, index.go). Cc and attachment names beside the
	// recipients ('' where not known: rows stored before, fetched again
	// in the background), and the full-text index: a contentless FTS5
	// table (the text is the rows' and the bodies'; the index holds only
	// its postings) whose rowid, each row's docid, is in date order, so
	// the newest hits are read off the end without a sort. Triggers keep
	// it in the transaction that writes the rows, deletes included
	// (a folder's cascade, an expunge, a body evicted); rows stored
	// before have no docid and are indexed in the background, in chunks
	// (IndexOlder).
	`ALTER TABLE message ADD COLUMN cc TEXT NOT NULL DEFAULT ''; -- JSON [{"name","address"}]
	ALTER TABLE message ADD COLUMN filenames TEXT NOT NULL DEFAULT ''; -- attachment names, one a line
	ALTER TABLE message ADD COLUMN docid INTEGER; -- its rowid in search; NULL: not indexed yet
	CREATE UNIQUE INDEX message_docid ON message (docid);
	CREATE INDEX message_unindexed ON message (account_id, folder, uid) WHERE docid IS NULL;
	CREATE VIRTUAL TABLE search USING fts5 (sender, recipient, copied, subject, body, filename,
		content = '', contentless_delete = 1, tokenize = 'ascii');
	CREATE TRIGGER message_docid AFTER INSERT ON message BEGIN
		UPDATE message SET docid = ` + nextDocid("new.date") + `
			WHERE account_id = new.account_id AND folder = new.folder AND uid = new.uid;
	END;
	CREATE TRIGGER message_redate AFTER UPDATE OF date ON message WHEN new.docid IS NOT NULL AND old.date IS NOT new.date BEGIN
		UPDATE message SET docid = ` + nextDocid("new.date") + `
			WHERE account_id = new.account_id AND folder = new.folder AND uid = new.uid;
	END;
	CREATE TRIGGER message_index AFTER UPDATE OF docid ON message WHEN new.docid IS NOT NULL BEGIN
		DELETE FROM search WHERE rowid = old.docid;
		INSERT INTO search (rowid, sender, recipient, copied, subject, body, filename) VALUES (new.docid,
			unibox_words(new.from_name || ' ' || new.from_addr), unibox_addr_words(new.recipients), unibox_addr_words(new.cc),
			unibox_words(new.subject),
			coalesce((SELECT unibox_body_words(b.body) FROM body b WHERE b.account_id = new.account_id AND b.folder = new.folder AND b.uid = new.uid), ''),
			unibox_words(new.filenames));
	END;
	CREATE TRIGGER message_reindex AFTER UPDATE OF from_name, from_addr, recipients, cc, subject, filenames ON message
		WHEN new.docid IS NOT NULL AND (old.from_name IS NOT new.from_name OR old.from_addr IS NOT new.from_addr
			OR old.recipients IS NOT new.recipients OR old.cc IS NOT new.cc OR old.subject IS NOT new.subject
			OR old.filenames IS NOT new.filenames) BEGIN
		UPDATE message SET docid = docid WHERE account_id = new.account_id AND folder = new.folder AND uid = new.uid;
	END;
	CREATE TRIGGER message_unindex AFTER DELETE ON message WHEN old.docid IS NOT NULL BEGIN
		DELETE FROM search WHERE rowid = old.docid;
	END;
	` + bodyTriggers,
	// 7: how many rows each folder holds, kept by triggers in the
	// transaction that writes them: a search says which folders the
	// store holds only part of (held against the server's total), and
	// counting the rows took ~20 ms an account of 25,000 each search.
	`ALTER TABLE folder ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
	UPDATE folder SET held = (SELECT count(*) FROM message m WHERE m.account_id = folder.account_id AND m.folder = folder.name);
	CREATE TRIGGER message_held AFTER INSERT ON message BEGIN
		UPDATE folder SET held = held + 1 WHERE account_id = new.account_id AND name = new.folder;
	END;
	CREATE TRIGGER message_unheld AFTER DELETE ON message BEGIN
		UPDATE folder SET held = held - 1 WHERE account_id = old.account_id AND name = old.folder;
	END;
	CREATE TRIGGER message_moved AFTER UPDATE OF account_id, folder ON message
		WHEN old.account_id IS NOT new.account_id OR old.folder IS NOT new.folder BEGIN
		UPDATE folder SET held = held - 1 WHERE account_id = old.account_id AND name = old.folder;
		UPDATE folder SET held = held + 1 WHERE account_id = new.account_id AND name = new.folder;
	END;`,
	// 8: bodies fetched in the background (issue 38, bodies.go). The cap
	// drops the bodies of the oldest mail first, by the message's date,
	// and reads no body to do it: the date and size sit beside the key in
	// an index (the size column itself lies past each body's overflow
	// pages). stored_at stays, unused.
	`ALTER TABLE body ADD COLUMN date INTEGER NOT NULL DEFAULT 0; -- the message's, unix ms: the oldest go first
	UPDATE body SET date = coalesce((SELECT m.date FROM message m
		WHERE m.account_id = body.account_id AND m.folder = body.folder AND m.uid = body.uid), 0);
	DROP INDEX body_age;
	CREATE INDEX body_date ON body (date, size);`,
	// 9: the contacts index (issue 38, contacts.go): who wrote to whom,
	// aggregated per address by triggers as rows are written.
	contactsSchema(),
	// 10: bodies in a rowid table. WITHOUT ROWID keeps a row's payload
	// in the key's b-tree, where no more than about 1,000 bytes of a 4 KiB
	// page stay inline: each body of a typical 1-4 KB spilled the rest
	// into overflow pages of its own, and the table took 3.6 times the
	// bytes it held (BenchmarkIndexSize: 4.5 KB a 1.25 KB body), so a
	// 500 MB cap made a file of about 1.8 GB. A rowid table keeps up to
	// about 4,000 bytes inline; the key becomes a unique index. The small
	// columns come first: the cap reads them without touching the body.
	// legacy_alter_table: the rename must not parse the message triggers,
	// which name body while it is being replaced. The table's triggers
	// (the index's, the contacts' list marks) went with the old table.
	`CREATE TABLE body_rows (
		account_id INTEGER NOT NULL,
		folder     TEXT NOT NULL,
		uid        INTEGER NOT NULL,
		size       INTEGER NOT NULL, -- of body, for the cap
		date       INTEGER NOT NULL DEFAULT 0, -- the message's, unix ms: the oldest go first
		stored_at  INTEGER NOT NULL,
		body       BLOB NOT NULL, -- JSON of model.Body without its envelope
		UNIQUE (account_id, folder, uid),
		FOREIGN KEY (account_id, folder, uid) REFERENCES message (account_id, folder, uid) ON DELETE CASCADE
	);
	INSERT INTO body_rows (account_id, folder, uid, size, date, stored_at, body)
		SELECT account_id, folder, uid, size, date, stored_at, body FROM body ORDER BY account_id, folder, uid;
	DROP TABLE body;
	PRAGMA legacy_alter_table = ON;
	ALTER TABLE body_rows RENAME TO body;
	PRAGMA legacy_alter_table = OFF;
	CREATE INDEX body_date ON body (date, size, account_id, folder, uid); -- the cap's, covering: it reads no row
	` + bodyTriggers + bodyBulkTriggers(),
	// 11: a message filed in several folders (Gmail's labels and All
	// Mail) counts once in the contacts index (contacts.go).
	contactsCopiesSchema(),
	// 12: the List-Id, fetched with the threading ids, and the header
	// fields some rule names, fetched with new mail: rules match on them
	// (issue 40), from the store in a dry run.
	`ALTER TABLE message ADD COLUMN list_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE message ADD COLUMN headers TEXT NOT NULL DEFAULT ''; -- JSON of the fields, '' none`,
	// 13: invitations (issue 41): the iTIP method of a message's calendar
	// part, read from the structure with the envelope, so a list row
	// says "[invite]" or "[cancelled]" without its body. Rows stored
	// before say nothing ('' as for mail without one) until rewritten.
	`ALTER TABLE message ADD COLUMN invitation TEXT NOT NULL DEFAULT ''; -- model.Invitation, '' none`,
	// 14: the events of invitations (issue 41, invites.go).
	invitesSchema,
}

// bodyTriggers keep the index's body column as bodies come and go: the
// message's row is indexed again (message_index reads its body).
const bodyTriggers = `CREATE TRIGGER body_index AFTER INSERT ON body BEGIN
		UPDATE message SET docid = docid WHERE account_id = new.account_id AND folder = new.folder AND uid = new.uid AND docid IS NOT NULL;
	END;
	CREATE TRIGGER body_reindex AFTER UPDATE OF body ON body BEGIN
		UPDATE message SET docid = docid WHERE account_id = new.account_id AND folder = new.folder AND uid = new.uid AND docid IS NOT NULL;
	END;
	CREATE TRIGGER body_unindex AFTER DELETE ON body BEGIN
		UPDATE message SET docid = docid WHERE account_id = old.account_id AND folder = old.folder AND uid = old.uid AND docid IS NOT NULL;
	END;`

// schemaVersion is the version this unibox writes.
var schemaVersion = len(migrations)
