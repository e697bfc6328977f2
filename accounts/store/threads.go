package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"sync"

	"unibox/model"
	"unibox/model/thread"
)

// Threads (issue 28). Every message row has a thread_id, computed by
// model/thread over every row of every account and folder, so it is the
// same in every process and after the file is rebuilt from scratch (the
// same set of messages gives the same ids). In-Reply-To and References
// join only rows whose subjects agree (model/thread), so every row's
// subject is read.
//
// Each process holds a Threader of every row. It is built before the
// first write (not at Open: a `unibox list` that only reads never pays for
// it; WarmThreads builds it on purpose), in a read transaction, so the
// bulk read holds no lock other processes wait on; then it is kept up to
// date inside every write transaction, under SQLite's write lock: the rows whose seq is above the last one this process read (the
// ones it writes now, and the ones other processes wrote since) are added,
// and what changed is written. A write that fails drops the Threader (it
// may hold rows the rollback took back); the next write builds it again.
//
// Writes stay bounded: a row gets its thread_id written when it is new or
// its ids changed; a merge of threads writes one alias row (old -> new)
// per retired id, never the rows of the retired thread. Aliases are kept
// resolved (new is always a live id: writing old -> new also points every
// alias to old at new), so a reader resolves a row's thread_id with one
// lookup: coalesce(thread_alias.new, thread_id) (messageColumns).
//
// The Threader has no removal: a row deleted (expunged, moved, a folder
// refilled) keeps its links in a process until it builds its Threader
// again. Only a thread whose root depended on the deleted row alone can
// then differ from a fresh build: the rare case is recorded in DESIGN
// terms as "until the next launch".

// threads is a process's Threader and how far it has read.
type threads struct {
	mu   sync.Mutex
	t    *thread.Threader // nil: not built (or dropped after a failed write)
	seen int64            // the highest seq added
	db   *sql.DB          // the database t was built from (a file set aside: another)
	// pending: rows a build found with another stored thread, written by
	// the next write; pendingFull: that write also drops the aliases of
	// every id live again (once after a build).
	pending     []storedRow
	pendingFull bool
	// bySubject is the `[ui] thread_by_subject` t was built with: the
	// file's setting (see setting), which every process adopts.
	bySubject bool
	// want is this process's configured setting, recorded into the file
	// by its first write (ThreadBySubject), then nil.
	want *bool
}

// bySubjectName is the counter row holding the file's thread_by_subject
// (1 on; absent or 0 off).
const bySubjectName = "thread_by_subject"

// ThreadBySubject is the face's `[ui] thread_by_subject`. Thread ids are
// the file's, shared by every process, so one setting holds for the
// file: this process's first write records it (rethreading every row
// once when it changes), and a process that finds the file's setting
// changed by another rebuilds its threads with it. The last launched
// face's setting wins; two faces never rewrite each other's ids on every
// write.
func (s *Store) ThreadBySubject(on bool) {
	th := &s.threads
	th.mu.Lock()
	defer th.mu.Unlock()
	th.want = &on
}

// setting is the file's thread_by_subject; with write, this process's
// wanted setting is recorded first if it differs.
func (th *threads) setting(tx *sql.Tx, write bool) (bool, error) {
	var v int64
	err := tx.QueryRow(`SELECT value FROM counter WHERE name = ?`, bySubjectName).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	stored := v != 0
	if write && th.want != nil {
		if *th.want != stored {
			if _, err := tx.Exec(`INSERT INTO counter (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
				bySubjectName, oneIf(*th.want)); err != nil {
				return false, err
			}
			stored = *th.want
		}
		th.want = nil
	}
	return stored, nil
}

func oneIf(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// nextSeq is the next value of the store-wide sequence, taken inside a
// write transaction (so it is in commit order, and rolled back with it).
func nextSeq(tx *sql.Tx) (int64, error) {
	var v int64
	err := tx.QueryRow(`UPDATE counter SET value = value + 1 WHERE name = 'seq' RETURNING value`).Scan(&v)
	return v, err
}

// capIDs are the ids of refs that are ids (model.CleanMsgID), at most the
// first and the last model.MaxReferences-1: what threading reads, however
// long a hostile header was, and nothing that could hold a space.
func capIDs(refs []string) []string {
	var out []string
	for i, r := range refs {
		if id, ok := model.CleanMsgID(r); ok {
			out = append(out, id)
			tail := refs[i+1:]
			var last []string
			for j := len(tail) - 1; j >= 0 && len(last) < model.MaxReferences-1; j-- {
				if id, ok := model.CleanMsgID(tail[j]); ok {
					last = append(last, id)
				}
			}
			slices.Reverse(last)
			return append(out, last...)
		}
	}
	return out
}

// joinIDs and splitIDs store References in one column: an id holds no
// space (model.CleanMsgID).
func joinIDs(ids []string) string { return strings.Join(ids, " ") }

func splitIDs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

// threadedRows are the messages a write stored, whose ThreadID it sets.
type threadedRows struct {
	folder      string
	uidValidity uint32
	msgs        []model.Message
}

// writeThreaded is write, and then sets the ThreadID of each of rows.msgs
// (the caller's slice) as the transaction threaded them.
func (s *Store) writeThreaded(ctx context.Context, k Key, rows *threadedRows, f func(*sql.Tx) error) error {
	return s.writeWith(ctx, f, func(t *thread.Threader) {
		for i := range rows.msgs {
			key := model.MessageID{Account: k.Name, Folder: rows.folder, UIDValidity: rows.uidValidity, UID: rows.msgs[i].ID.UID}
			rows.msgs[i].ThreadID, _ = t.ThreadOf(key)
		}
	})
}

// build makes the process's Threader from every row, in a read
// transaction (WAL: no lock that keeps other processes' writers waiting),
// before a write takes the write lock: the write then only catches up on
// the rows committed since. Rows whose stored thread differs (none, but
// after a crash mid-upgrade) wait in th.pending for that write.
//
// The connection comes before th.mu, as in writeWith: a write holds its
// transaction (the one connection) and then takes th.mu, so a build that
// held th.mu while it waited for the connection wedged both for good (a
// failed write leaves th.t nil; the next write built while another held
// its transaction: TestBuildAfterAFailedWriteDoesNotWedge).
func (s *Store) build(ctx context.Context) error {
	th := &s.threads
	return s.fail(s.use(func(db *sql.DB) error {
		th.mu.Lock()
		built := th.t != nil && th.db == db
		th.mu.Unlock()
		if built {
			return nil
		}
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		th.mu.Lock()
		defer th.mu.Unlock()
		if th.t != nil && th.db == db {
			return nil // built while this waited for the connection
		}
		th.t = nil
		if err := th.catchUp(tx, db, false); err != nil {
			th.t = nil
			return err
		}
		return nil
	}))
}

// catchUp adds to the process's Threader every row above its last seq
// (all of them the first time) and, when write is set (a write
// transaction), writes what changed. It runs with th.mu held.
func (th *threads) catchUp(tx *sql.Tx, db *sql.DB, write bool) error {
	bySubject, err := th.setting(tx, write)
	if err != nil {
		return err
	}
	if !write && th.want != nil {
		bySubject = *th.want // the write that follows this build records it
	}
	full := th.t == nil || th.db != db || th.bySubject != bySubject
	if full {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM message`).Scan(&n); err != nil {
			return err
		}
		th.t, th.seen, th.db, th.pending, th.pendingFull = thread.New(thread.Options{BySubject: bySubject}), -1, db, nil, true
		th.bySubject = bySubject
		th.t.Grow(n)
	}
	batch, err := th.read(tx)
	if err != nil {
		return err
	}
	retired := map[string]bool{}
	for _, r := range batch {
		ch := th.t.Add(r.msg)
		if !full {
			for _, a := range ch.Aliases {
				retired[a.Old] = true
			}
		}
		th.seen = max(th.seen, r.seq)
	}
	if full {
		// Only the rows whose stored thread differs need a write.
		for _, r := range batch {
			if tid, _ := th.t.ThreadOf(r.msg.Key); tid != r.stored {
				th.pending = append(th.pending, r)
			}
		}
		batch = nil
	}
	if !write || len(batch) == 0 && len(retired) == 0 && len(th.pending) == 0 && !th.pendingFull {
		return nil
	}
	// Rows a build found to differ are written a chunk per write: after an
	// upgrade that is every row, and one transaction of 100,000 updates
	// held the file (and this process's one connection) for seconds.
	n := min(len(th.pending), pendingChunk)
	last := n == len(th.pending)
	err = th.write(tx, append(batch, th.pending[:n]...), retired, th.pendingFull && last)
	if err == nil {
		th.pending = th.pending[n:]
		if last {
			th.pending, th.pendingFull = nil, false
		}
	}
	return err
}

// pendingChunk is how many of a build's differing rows one write updates
// (a variable for tests).
var pendingChunk = 5000

// unwritten says whether rows a build found to differ still wait.
func (th *threads) unwritten() bool {
	th.mu.Lock()
	defer th.mu.Unlock()
	return len(th.pending) > 0 || th.pendingFull
}

// storedRow is a row as catchUp reads it.
type storedRow struct {
	msg    thread.Message
	acct   int64
	stored string // its thread_id, resolved through the aliases
	seq    int64
}

// read is every row above th.seen. The few accounts and folders are read
// first and looked up in Go: joined per row, they cost a build a third
// of its time.
func (th *threads) read(tx *sql.Tx) ([]storedRow, error) {
	places := map[[2]any]place{}
	frows, err := tx.Query(`SELECT f.account_id, f.name, a.name, f.uidvalidity FROM folder f JOIN account a ON a.id = f.account_id`)
	if err != nil {
		return nil, err
	}
	for frows.Next() {
		var acct int64
		var folder string
		var p place
		if err := frows.Scan(&acct, &folder, &p.account, &p.uidValidity); err != nil {
			frows.Close()
			return nil, err
		}
		places[[2]any{acct, folder}] = p
	}
	frows.Close()
	if err := frows.Err(); err != nil {
		return nil, err
	}
	// Every column read is in the message_seq index: a build reads it,
	// not the table.
	if th.seen >= 0 {
		return th.readNew(tx, places)
	}
	// A build reads the aliases once (few: one per merge), not joined.
	aliases := map[string]string{}
	arows, err := tx.Query(`SELECT old, new FROM thread_alias`)
	if err != nil {
		return nil, err
	}
	for arows.Next() {
		var old, now string
		if err := arows.Scan(&old, &now); err != nil {
			arows.Close()
			return nil, err
		}
		aliases[old] = now
	}
	arows.Close()
	if err := arows.Err(); err != nil {
		return nil, err
	}
	return th.scan(tx, places, aliases, `SELECT m.account_id, m.folder, m.uid, CASE WHEN m.threading THEN m.raw_id ELSE m.message_id END,
			m.in_reply_to, m.refs, m.thread_id, m.seq, `+th.subjectColumn()+`
		FROM message m WHERE m.seq > ?`)
}

// readNew is the rows above th.seen, their thread ids resolved in SQL.
func (th *threads) readNew(tx *sql.Tx, places map[[2]any]place) ([]storedRow, error) {
	return th.scan(tx, places, nil, `SELECT m.account_id, m.folder, m.uid, CASE WHEN m.threading THEN m.raw_id ELSE m.message_id END,
			m.in_reply_to, m.refs, coalesce(al.new, m.thread_id), m.seq, `+th.subjectColumn()+`
		FROM message m LEFT JOIN thread_alias al ON al.old = m.thread_id WHERE m.seq > ?`)
}

// subjectColumn is the subject, which threading always reads: In-Reply-To
// and References join two messages only when their subjects agree (issue
// 35: a forged References header must not pull a stranger into a
// conversation). It is not in the message_seq index, so a build reads
// the table.
func (th *threads) subjectColumn() string { return "m.subject" }

// scan runs query (the rows above th.seen, in the columns read has).
func (th *threads) scan(tx *sql.Tx, places map[[2]any]place, aliases map[string]string, query string) ([]storedRow, error) {
	rows, err := tx.Query(query, th.seen)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storedRow
	for rows.Next() {
		var r storedRow
		var refs string
		k := &r.msg.Key
		// Rows stored before threads (threading 0) have their display
		// Message-ID here (an id unless it was odd) and no other id.
		if err := rows.Scan(&r.acct, &k.Folder, &k.UID, &r.msg.MessageID, &r.msg.InReplyTo, &refs, &r.stored, &r.seq, &r.msg.Subject); err != nil {
			return nil, err
		}
		p, ok := places[[2]any{r.acct, k.Folder}]
		if !ok {
			continue // the folder row is gone: so are its messages (a cascade)
		}
		k.Account, k.UIDValidity = p.account, p.uidValidity
		if now, ok := aliases[r.stored]; ok {
			r.stored = now
		}
		r.msg.References = splitIDs(refs)
		out = append(out, r)
	}
	return out, rows.Err()
}

// place is what a row's key needs of its folder's row.
type place struct {
	account     string
	uidValidity uint32
}

// write records what adding batch changed: each row's thread_id where it
// differs (new rows, changed ids), an alias where the row's stored thread
// was retired into its thread (one write for all the rows of that thread),
// and an alias for each id retired in this catch-up that rows or aliases
// still name. Ids that are live again lose their alias.
func (th *threads) write(tx *sql.Tx, batch []storedRow, retired map[string]bool, full bool) error {
	aliases := map[string]string{}
	live := map[string]bool{}
	setRow, err := tx.Prepare(`UPDATE message SET thread_id = ? WHERE account_id = ? AND folder = ? AND uid = ?`)
	if err != nil {
		return err
	}
	defer setRow.Close()
	for _, r := range batch {
		tid, _ := th.t.ThreadOf(r.msg.Key)
		live[tid] = true
		switch {
		case r.stored == tid:
		case r.stored != "" && th.resolve(r.stored) == tid:
			aliases[r.stored] = tid
		default:
			if _, err := setRow.Exec(tid, r.acct, r.msg.Key.Folder, r.msg.Key.UID); err != nil {
				return err
			}
		}
	}
	for old := range retired {
		now := th.resolve(old)
		if now == old || aliases[old] != "" {
			continue
		}
		var named bool
		if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM message WHERE thread_id = ?) OR EXISTS (SELECT 1 FROM thread_alias WHERE new = ?)`,
			old, old).Scan(&named); err != nil {
			return err
		}
		if named {
			aliases[old] = now
		}
	}
	for old, now := range aliases {
		if _, err := tx.Exec(`INSERT INTO thread_alias (old, new) VALUES (?, ?) ON CONFLICT (old) DO UPDATE SET new = excluded.new`, old, now); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE thread_alias SET new = ? WHERE new = ?`, now, old); err != nil {
			return err
		}
	}
	// A thread renamed back to an id it had (model/thread: a root id no
	// longer shared) leaves that id's alias pointing at itself.
	if _, err := tx.Exec(`DELETE FROM thread_alias WHERE old = new`); err != nil {
		return err
	}
	return th.dropLive(tx, live, full)
}

// dropLive deletes the aliases of ids that are live again: of the batch's
// threads, or after a build of every alias (fewer reads than rows).
func (th *threads) dropLive(tx *sql.Tx, live map[string]bool, full bool) error {
	if full {
		rows, err := tx.Query(`SELECT old FROM thread_alias`)
		if err != nil {
			return err
		}
		live = map[string]bool{}
		for rows.Next() {
			var old string
			if err := rows.Scan(&old); err != nil {
				rows.Close()
				return err
			}
			if th.resolve(old) == old {
				live[old] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	for tid := range live {
		if _, err := tx.Exec(`DELETE FROM thread_alias WHERE old = ?`, tid); err != nil {
			return err
		}
	}
	return nil
}

// resolve is the live id tid is now ("" when the Threader never saw it).
func (th *threads) resolve(tid string) string {
	now, _ := th.t.Resolve(tid)
	return now
}
