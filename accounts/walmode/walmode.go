// Package walmode switches a SQLite file to write-ahead logging the way
// several processes opening it at once need: the store, the snooze
// schedule and every other file unibox keeps beside them.
//
// The switch upgrades a read lock to a write lock, which SQLite does not
// wait for (busy_timeout does not apply: waiting there could deadlock),
// so a process switching a new file while another one opens it gets
// SQLITE_BUSY. Enable waits and retries, as busy_timeout would, holding
// no lock meanwhile. A journal_mode pragma in the connection string has
// no such retry: the snooze schedule's failed 1 open in ~40 under load
// ("database is locked" from TestOpenANewFileAtOnce).
package walmode

import (
	"database/sql"
	"errors"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Enable puts db's file in WAL mode (a no-op once it is; the mode
// persists in the file), retrying SQLITE_BUSY for up to wait.
func Enable(db *sql.DB, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		_, err := db.Exec("PRAGMA journal_mode = WAL")
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}
