package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Error is a read or write of the store that failed: the store's trouble
// (a full disk, a damaged file), never the mail server's. A face that
// meets one still has the server's answer, and says what the store lacks
// as a warning.
type Error struct {
	Where string // the file, or "in memory"
	Err   error
}

func (e *Error) Error() string { return fmt.Sprintf("local store (%s): %v", e.Where, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// IsFull reports whether err is a write that found no room: SQLITE_FULL,
// or the file system's ENOSPC (a file-size limit is neither: SQLite calls
// that an I/O error).
func IsFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// Reason is err in the fewest words a face can put after "store: "
// ("database or disk is full"): without the file's name, which every
// store error repeats, and without SQLite's result code.
func Reason(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return strings.TrimSuffix(se.Error(), fmt.Sprintf(" (%d)", se.Code()))
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Err.Error()
	}
	return err.Error()
}

// Probe is one small write (the schema version, rewritten as it is): it
// tells a face that only looks (`unibox status`) whether the store can
// take a write now, a full disk above all. A disk with room for one page
// may still lack room for a sync's.
func (s *Store) Probe(ctx context.Context) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var v int
		if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		_, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	})
}
