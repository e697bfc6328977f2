package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
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
// the file system's ENOSPC, or an I/O error on a disk found full (a
// file-size limit is none of these: SQLite calls that an I/O error).
func IsFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, errFull)
}

// errFull is SQLite's own words for SQLITE_FULL, for the errors that mean
// it without its code.
var errFull = errors.New("database or disk is full")

// roomNeeded is less room than a store can open and take a page of mail
// in: the -shm index alone is 32 KiB, and a sync's page of envelopes
// writes a few hundred KiB to the WAL.
const roomNeeded = 1 << 20

// free is how many bytes the file system holding dir has free for us.
func free(dir string) (uint64, error) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		return 0, err
	}
	return fs.Bavail * uint64(fs.Bsize), nil
}

// diagnose says that err was a full disk when SQLite could not say so: it
// opens a store (the -shm file it grows, the WAL it creates) with an I/O
// error, not SQLITE_FULL, when the disk has no room.
func diagnose(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_IOERR {
		return err
	}
	if n, ferr := free(filepath.Dir(path)); ferr == nil && n < 64<<10 {
		return fmt.Errorf("%w (%v, %d KiB free)", errFull, err, n>>10)
	}
	return err
}

// Reason is err in the fewest words a face can put after "store: "
// ("database or disk is full"): without the file's name, which every
// store error repeats, and without SQLite's result code.
func Reason(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return strings.TrimSuffix(se.Error(), fmt.Sprintf(" (%d)", se.Code()))
	}
	if errors.Is(err, errFull) {
		return errFull.Error()
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Err.Error()
	}
	return err.Error()
}

// ErrNearlyFull is a store whose disk has too little room left for a
// sync's page of mail (Probe).
var ErrNearlyFull = errors.New("disk nearly full")

// Probe is one small write (the schema version, rewritten as it is): it
// tells a face that only looks (`unibox status`) whether the store can
// take a write now, a full disk above all. A disk with room for that
// write may still lack room for a sync's page, so less than roomNeeded
// free is reported too (ErrNearlyFull).
func (s *Store) Probe(ctx context.Context) error {
	if s.path != "" {
		if n, err := free(filepath.Dir(s.path)); err == nil && n < roomNeeded {
			return s.fail(fmt.Errorf("%w: %d KiB free", ErrNearlyFull, n>>10))
		}
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		var v int
		if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		_, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	})
}
