// Package userdb opens the SQLite files that hold what only the user has
// (the snooze schedule, the rules' claims and log): in $XDG_DATA_HOME/unibox,
// never the cache, private (0600 in a 0700 folder, never through a
// symlink), shared by every unibox process at once (WAL, a busy timeout,
// immediate write transactions), and synchronous, since a claim or a
// settled action must survive a crash.
package userdb

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"unibox/accounts/walmode"

	_ "modernc.org/sqlite" // the driver, as accounts/store uses
)

// BusyTimeout is how long a statement waits for another process's write.
const BusyTimeout = 10 * time.Second

// Path is $XDG_DATA_HOME/unibox/name, or ~/.local/share/unibox/name (a
// relative $XDG_DATA_HOME is ignored, as the spec says).
func Path(name string) (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "unibox", name), nil
}

// Open opens (creating when missing) the file at path and runs schema
// (statements that are no-ops on a file that has them).
func Open(path, schema string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("making %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	f.Close()
	q := url.Values{}
	q.Set("_txlock", "immediate")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "synchronous(FULL)") // a claim or a settled action is never lost to a crash
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := walmode.Enable(db, BusyTimeout); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
