package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"unibox/accounts/walmode"

	"unibox/accounts/private"
)

// applicationID marks a file as unibox's ("unbx"): a SQLite file of
// another program at our path is set aside, never written into.
const applicationID = 0x756e6278

// busyTimeout is how long a statement waits for another process's write
// lock before failing. Writes here are short (one listing is one
// transaction of a page of rows), so only a wedged process reaches it.
const busyTimeout = 10 * time.Second

// Store is the local store. Its methods are safe for concurrent use.
type Store struct {
	path string // "" for an in-memory store
	// Warning is set when Open had to set a file aside: say it once.
	Warning string

	mu      sync.RWMutex // db is swapped when a damaged file is set aside
	db      *sql.DB
	problem string // the last time the file was set aside while open
	verify  context.CancelFunc
	done    chan struct{}
	// stopUpgrade ends upgradeInBackground; upgraded closes when it has.
	stopUpgrade context.CancelFunc
	upgraded    chan struct{}
	// hold keeps upgradeInBackground waiting until it is closed (nil:
	// it starts at once): see OpenHeld.
	hold <-chan struct{}

	threads threads // this process's threads of every row (threads.go)
}

var memories atomic.Int64

// OpenMemory is a store that lives in memory only (the demo, tests): the
// same schema and code, no file.
func OpenMemory() (*Store, error) {
	name := fmt.Sprintf("file:unibox-mem-%d?mode=memory&cache=shared", memories.Add(1))
	s, err := open(name, "", nil)
	if err != nil {
		return nil, fmt.Errorf("open the in-memory store: %w", err)
	}
	return s, nil
}

// Open opens the store at path, creating it (folder 0700, file 0600). A
// file that is not a store of this unibox (corrupt, truncated, another
// program's, a schema we do not know) is renamed aside and a new one made,
// with Warning saying so: the store is a cache, so this loses nothing
// that the next listing cannot bring back. So is a symbolic link at path
// (see guard), and a folder or file others may read is made private.
func Open(path string) (*Store, error) { return OpenHeld(path, nil) }

// OpenHeld is Open with the work an upgraded file needs in the
// background (its contacts, threads and search index: upgrade.go) held
// until hold is closed. A face that draws a first screen holds it until
// the screen is drawn: that work's first write reads every stored row
// to build this process's threads (about 50 ms per 6,000 rows, on the
// store's one connection), and the first screen's read of the stored
// rows waited behind it.
func OpenHeld(path string, hold <-chan struct{}) (*Store, error) {
	notes, err := guard(path)
	if err != nil {
		return nil, fmt.Errorf("local store: %w", err)
	}
	s, err := openFile(path, hold)
	if err != nil {
		return nil, err
	}
	s.Warning = strings.Join(slices.DeleteFunc(append(notes, s.Warning), func(n string) bool { return n == "" }), "; ")
	return s, nil
}

// guard readies path before anything opens it. A symbolic link there is
// renamed aside, not followed: SQLite would write the mail wherever it
// points (another user's file, if the folder was ever writable to them;
// a file unibox never made), and the link's target is not ours to judge.
// The folder and the files (with -wal and -shm, which SQLite makes with
// the main file's mode) lose their group and other bits (package
// private). notes say what was done.
func guard(path string) ([]string, error) {
	var notes []string
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		aside, err := moveAside(path)
		if err != nil {
			return nil, fmt.Errorf("%s is a symbolic link (to %q) and could not be set aside: %w", path, target, err)
		}
		notes = append(notes, fmt.Sprintf("local store %s was a symbolic link (to %q), not followed: set aside as %s, starting a new one", path, target, filepath.Base(aside)))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if w := private.Tighten(filepath.Dir(path), path, path+"-wal", path+"-shm"); w != "" {
		notes = append(notes, "local store: "+w)
	}
	return notes, nil
}

// openFile is Open once path is guarded.
func openFile(path string, hold <-chan struct{}) (*Store, error) {
	installEmpty(path)
	if err := create(path); err != nil {
		return nil, &Error{Where: path, Err: err}
	}
	s, err := open(fileDSN(path), path, hold)
	if err == nil {
		return s, nil
	}
	if !setAside(err) {
		return nil, &Error{Where: path, Err: diagnose(path, err)}
	}
	aside, rerr := moveAside(path)
	if rerr != nil {
		return nil, fmt.Errorf("local store %s is unusable (%v) and could not be set aside: %w", path, err, rerr)
	}
	s, err2 := openFile(path, hold)
	if err2 != nil {
		return nil, err2
	}
	s.Warning = fmt.Sprintf("local store %s was unusable (%v): set aside as %s, starting a new one", path, err, filepath.Base(aside))
	return s, nil
}

// create makes the folder (0700) and the file (0600) if they are missing:
// SQLite would create the file with the umask's mode, and its -wal and
// -shm files copy the main file's mode. It does not follow a link made
// since guard looked.
func create(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

func fileDSN(path string) string {
	q := url.Values{}
	q.Set("_txlock", "immediate")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	// No journal_mode(WAL) here: it would rewrite the header of a file
	// that is not ours before migrate has looked at it (see open).
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// Statement journals (each row write that runs the index's triggers
	// opens one) in memory, not in a temporary file: 40 % of indexing
	// time was their writes to disk.
	q.Add("_pragma", "temp_store(MEMORY)")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// errUnknownFile is a SQLite file that is not (or no longer) ours.
var errUnknownFile = errors.New("not a unibox store")

func open(dsn, path string, hold <-chan struct{}) (*Store, error) {
	if path == "" {
		dsn += "&_txlock=immediate&_pragma=foreign_keys(ON)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer per file anyway, and
	// statements of one process then never wait on each other's locks.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	s := &Store{db: db, path: path, hold: hold}
	_, err = s.migrate()
	if err != nil {
		db.Close()
		return nil, err
	}
	// WAL only once the file is known to be ours (it persists in the
	// file: a later connection finds it there).
	if path != "" {
		if err := walmode.Enable(db, busyTimeout); err != nil {
			db.Close()
			return nil, err
		}
	}
	// A file from before threads or the index is brought up to date in
	// the background; Open reads nothing more of a current file (damage
	// is met as it is read).
	s.upgradeInBackground()
	return s, nil
}

// migrate brings the file to schemaVersion inside one write transaction
// (another process may be doing the same: the version is read under the
// lock).
//
// It returns the version the file had (0: a new file).
func (s *Store) migrate() (int, error) {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var version, app, tables int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return version, err
	}
	if err := tx.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		return version, err
	}
	if err := tx.QueryRow("SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return version, err
	}
	switch {
	case tables > 0 && app != applicationID:
		return version, fmt.Errorf("%w: application id %#x", errUnknownFile, app)
	case version > schemaVersion:
		return version, fmt.Errorf("%w: schema version %d is newer than this unibox's %d", errUnknownFile, version, schemaVersion)
	case version == schemaVersion:
		redo, err := retokenize(tx, version)
		if err != nil || !redo {
			return version, err
		}
		return version, tx.Commit()
	case version == 0 && tables > 0:
		// migrations[0] starts from an empty file: these tables are not
		// of any version we know.
		return version, fmt.Errorf("%w: tables but no schema version", errUnknownFile)
	}
	for v := version; v < schemaVersion; v++ {
		if _, err := tx.Exec(migrations[v]); err != nil {
			return version, fmt.Errorf("schema version %d: %w", v+1, err)
		}
	}
	if _, err := retokenize(tx, version); err != nil {
		return version, err
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, schemaVersion)); err != nil {
		return version, err
	}
	return version, tx.Commit()
}

// check reads the whole file once (SQLite's quick_check).
func check(tx *sql.Tx) error {
	var problem string
	if err := tx.QueryRow("PRAGMA quick_check(1)").Scan(&problem); err != nil {
		return err
	}
	if problem != "ok" {
		return fmt.Errorf("%w: %s", errCorrupt, strings.Join(strings.Fields(problem), " "))
	}
	return nil
}

var errCorrupt = errors.New("database disk image is malformed")

// setAside reports whether err means the file is not a usable store
// (rather than, say, a full disk or a permission problem, which renaming
// would not fix).
func setAside(err error) bool {
	if errors.Is(err, errUnknownFile) || errors.Is(err, errCorrupt) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
}

// moveAside renames path (and its -wal and -shm files) to a name with the
// time, so nothing is deleted.
func moveAside(path string) (string, error) {
	aside := fmt.Sprintf("%s.broken-%s", path, time.Now().UTC().Format("20060102T150405.000"))
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, aside+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return aside, nil
}

// Close stops the verification (if one is pending) and closes the store.
func (s *Store) Close() error {
	s.stopUpgrade()
	<-s.upgraded
	if s.verify != nil {
		s.verify()
		<-s.done
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.db.Close()
	waitClosed(s.db)
	return err
}

// waitClosed waits until db's last connection has really closed. A
// transaction whose context was cancelled (the background upgrade's, as
// Close stops it; a face's call cut short) is rolled back and its
// connection discarded by database/sql in a goroutine of its own, which
// db.Close does not wait for: Close returned while SQLite was still
// closing the file (its checkpoint, the WAL's removal), and a process
// opening the file right after found it locked (1 open in ~130 under
// load). The pool counts a connection until its driver's Close returns.
func waitClosed(db *sql.DB) {
	deadline := time.Now().Add(10 * time.Second) // a bound, never reached but by a hung close
	for db.Stats().OpenConnections > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

// Path is the store's file ("" in memory).
func (s *Store) Path() string { return s.path }
