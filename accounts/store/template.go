package store

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A new store starts as a copy of empty.db: an empty file of the current
// schema, made by the migrations when the schema changes (and checked by
// TestEmptyStoreIsTheMigrations, which rewrites it with -update). Making
// the schema on the spot (eleven migrations: the tables, the search
// index's FTS5 tables and every trigger, each statement re-reading the
// schema) took 9 ms on an idle machine, 30 to 70 ms in a first launch
// whose account children start at the same time, and the first launch's
// screen waited for it; copying the template takes about 1 ms.
//
// The copy is written beside the store and linked into place only where
// nothing is there: two processes opening a new store at once make one
// file, and a file another process has begun to fill is never written
// over. The migrations stay: they bring older files up, and a store the
// template cannot be installed for is made by them as before.

//go:embed empty.db
var emptyStore []byte

// installEmpty puts a copy of the empty store at path if no file is
// there. Failing is no error: the migrations make the schema instead.
func installEmpty(path string) {
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) || len(emptyStore) == 0 {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".new-*")
	if err != nil {
		return
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.Write(emptyStore)
	if cerr := f.Close(); err != nil || cerr != nil {
		return
	}
	_ = os.Link(tmp, path) // fails when a file is there by now: it stays
}

// buildEmpty makes an empty store of the current schema at path by the
// migrations (rollback journal, as a file before its first open): what
// empty.db must be.
func buildEmpty(path string) error {
	db, err := sql.Open("sqlite", fileDSN(path))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if _, err := s.migrate(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	_, err = db.ExecContext(context.Background(), "VACUUM")
	return err
}
