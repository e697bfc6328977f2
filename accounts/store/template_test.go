package store

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var updateEmpty = flag.Bool("update", false, "rewrite empty.db from the migrations")

// TestEmptyStoreIsTheMigrations: the template a new store is copied from
// holds exactly what the migrations make of an empty file (every schema
// object, every row, the version and the application id), so a store
// made from it is the same as one made by them. -update rewrites it.
func TestEmptyStoreIsTheMigrations(t *testing.T) {
	built := filepath.Join(t.TempDir(), "empty.db")
	if err := buildEmpty(built); err != nil {
		t.Fatal(err)
	}
	if *updateEmpty {
		b, err := os.ReadFile(built)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("empty.db", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	embedded := filepath.Join(t.TempDir(), "embedded.db")
	if err := os.WriteFile(embedded, emptyStore, 0o600); err != nil {
		t.Fatal(err)
	}
	want, got := dumpFile(t, built), dumpFile(t, embedded)
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w string
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Fatalf("empty.db is not what the migrations make (go test ./accounts/store -run TestEmptyStoreIsTheMigrations -update):\n got %s\nwant %s", g, w)
			}
		}
	}
}

// A new store is the template, opened: its schema version is current and
// it takes a listing; a file that is there already (another process's,
// half made) is never written over.
func TestNewStoreStartsFromTheTemplate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Fatalf("user_version %d, %v", v, err)
	}
	add(t, s, Key{Name: "Work", Host: "h", User: "u"}, "INBOX", tmsg("Work", "INBOX", 1, "ann@x", ""))
	s.Close()
	if left, _ := filepath.Glob(filepath.Join(dir, "store.db.new-*")); len(left) != 0 {
		t.Fatalf("copies left beside the store: %v", left)
	}
	fresh := filepath.Join(dir, "fresh.db")
	installEmpty(fresh)
	if b, err := os.ReadFile(fresh); err != nil || !bytes.Equal(b, emptyStore) {
		t.Fatalf("a new path is not the template: %d bytes, %v", len(b), err)
	}
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, []byte("not ours"), 0o600); err != nil {
		t.Fatal(err)
	}
	installEmpty(other)
	if b, _ := os.ReadFile(other); string(b) != "not ours" {
		t.Fatal("a file that was there was written over")
	}
}

// dumpFile is everything a store file holds, as lines.
func dumpFile(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, p := range []string{"user_version", "application_id", "page_size", "auto_vacuum", "encoding"} {
		var v string
		if err := db.QueryRow("PRAGMA " + p).Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, p+" = "+v)
	}
	rows, err := db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, tbl, sqlText string
		if err := rows.Scan(&typ, &name, &tbl, &sqlText); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s on %s: %s", typ, name, tbl, sqlText))
		if typ == "table" && !strings.HasPrefix(name, "sqlite_") {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, tbl := range tables {
		r, err := db.Query(`SELECT * FROM "` + tbl + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := r.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var lines []string
		for r.Next() {
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%s row %v", tbl, vals))
		}
		r.Close()
		sort.Strings(lines)
		out = append(out, lines...)
	}
	return out
}
