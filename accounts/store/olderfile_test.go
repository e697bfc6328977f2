package store

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// olderFile is a store file as an older unibox left it: the migrations up
// to version, then stmts (its rows), 0600 in a 0700 folder. Its path.
func olderFile(t testing.TB, version int, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", fileDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	for v := range version {
		if _, err := db.Exec(migrations[v]); err != nil {
			t.Fatalf("version %d: %v", v+1, err)
		}
	}
	stmts = append([]string{fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, version)}, stmts...)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
