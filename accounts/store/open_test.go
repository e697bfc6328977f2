package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/model"
)

// fillStore saves n messages for work into the store at path, in pages
// as a client lists them, and closes it.
func fillStore(t *testing.T, path string, n int) {
	t.Helper()
	if n == manyRows {
		// Built once a run and copied: filling it takes seconds under
		// -race, and four tests damage a copy each.
		many.once.Do(func() {
			built := filepath.Join(t.TempDir(), "many.db")
			fillStoreNow(t, built, manyRows)
			many.data, many.err = os.ReadFile(built)
		})
		if many.err != nil {
			t.Fatal(many.err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, many.data)
		return
	}
	fillStoreNow(t, path, n)
}

// many is the store of manyRows rows, as fillStore made it once.
var many struct {
	once sync.Once
	data []byte
	err  error
}

// fillStoreNow writes n messages into a new store at path, a listing
// page at a time.
func fillStoreNow(t *testing.T, path string, n int) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 500
	for top := n; top > 0; top -= page {
		var ms []model.Message
		for uid := top; uid > max(top-page, 0); uid-- {
			m := msg("Work", "INBOX", 7, uint32(uid))
			m.Subject = fmt.Sprintf("message %d about something long enough to fill a few pages of the file", uid)
			ms = append(ms, m)
		}
		l := Listing{Folder: "INBOX", UIDValidity: 7, Total: uint32(n), Messages: ms, More: top > page, At: time.Now(), Inbox: true}
		if top < n {
			l.BeforeUID = uint32(top + 1)
		}
		if err := s.Save(ctx, work, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// damageMiddlePage overwrites the 4 KiB page in the middle of path with
// noise from seed: the header and schema stay sound.
func damageMiddlePage(t *testing.T, path string, seed byte) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, 4096)
	rand.NewChaCha8([32]byte{seed}).Read(junk)
	if _, err := f.WriteAt(junk, fi.Size()/2/4096*4096); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// rawSQLite runs statements on path as any SQLite program would: not
// through Open, no application id.
func rawSQLite(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// A file at the store's path that is not a usable store of this unibox is
// renamed aside, untouched, and a new store made in its place, with one
// warning naming the renamed file; the new store works, and opening it
// again warns no more.
func TestOpenSetsAsideWhatItCannotUse(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(t *testing.T, path string)
		// lazy (by name): Open cannot see the damage without reading every
		// page; Verify (or the first statement that meets it) does.
	}{
		{"garbage", func(t *testing.T, path string) {
			junk := make([]byte, 16<<10)
			r := rand.NewChaCha8([32]byte{1})
			r.Read(junk)
			writeFile(t, path, junk)
		}},
		{"a few bytes of text", func(t *testing.T, path string) {
			writeFile(t, path, []byte("not a database\n"))
		}},
		{"truncated store", func(t *testing.T, path string) {
			fillStore(t, path, manyRows)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() < 100<<10 {
				t.Fatalf("the store is only %d bytes: not enough pages to cut", fi.Size())
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"a page of the store overwritten", func(t *testing.T, path string) {
			// The header and schema are fine: only reading the tables
			// finds the damage.
			fillStore(t, path, manyRows)
			damageMiddlePage(t, path, 2)
		}},
		{"another program's SQLite file", func(t *testing.T, path string) {
			rawSQLite(t, path, `CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)`,
				`INSERT INTO notes (text) VALUES ('keep me'), ('and me')`)
		}},
		{"a newer unibox's store", func(t *testing.T, path string) {
			fillStore(t, path, 10)
			rawSQLite(t, path, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion+1))
		}},
		{"old schema: tables, no version, no application id", func(t *testing.T, path string) {
			rawSQLite(t, path, migrations[0], `INSERT INTO account (name, host, user) VALUES ('Work', 'imap.example.org', 'ann')`)
		}},
		{"old schema: tables, no version, our application id", func(t *testing.T, path string) {
			rawSQLite(t, path, migrations[0], fmt.Sprintf("PRAGMA application_id = %d", applicationID))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "unibox")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "store.db")
			tt.make(t, path)
			original, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			s, err := Open(path)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer s.Close()
			warning := s.Warning
			if tt.name == "a page of the store overwritten" {
				if warning != "" {
					t.Fatalf("open read the whole file: %s", warning)
				}
				if err := s.Verify(ctx); err == nil {
					t.Fatal("verify found no damage")
				}
				warning = s.Problem()
			}
			aside := setAsideFiles(t, dir)
			if len(aside) != 1 {
				t.Fatalf("set aside: %v, want one file", aside)
			}
			if warning == "" || !strings.Contains(warning, aside[0]) || strings.Count(warning, "set aside") != 1 {
				t.Fatalf("warning %q, want one naming %s", warning, aside[0])
			}
			kept, err := os.ReadFile(filepath.Join(dir, aside[0]))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(kept, original) {
				t.Errorf("the file set aside is not the original as it was (%d bytes, was %d)", len(kept), len(original))
			}
			t.Log(warning)

			// A working, empty store.
			if _, err := s.Newest(ctx, work, "INBOX", 10); !errors.Is(err, ErrNotStored) {
				t.Fatalf("the new store is not empty: %v", err)
			}
			if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 2, 1), At: time.Now()}); err != nil {
				t.Fatal(err)
			}
			integrityOK(t, s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			// Opened again: no warning, nothing more set aside, rows kept.
			s2, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			if s2.Warning != "" {
				t.Fatalf("warned again: %s", s2.Warning)
			}
			if again := setAsideFiles(t, dir); !slices.Equal(again, aside) {
				t.Fatalf("set aside %v, then %v", aside, again)
			}
			snap, err := s2.Newest(ctx, work, "INBOX", 10)
			if err != nil || !slices.Equal(uidsOf(snap.Messages), []uint32{2, 1}) {
				t.Fatalf("after reopening: %v %v", uidsOf(snap.Messages), err)
			}
		})
	}
}

// setAsideFiles are the main files set aside in dir (not their -wal or
// -shm).
func setAsideFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "store.db.broken-") && !strings.HasSuffix(n, "-wal") && !strings.HasSuffix(n, "-shm") {
			out = append(out, n)
		}
	}
	return out
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A healthy store, and an empty file, open without a warning; the
// healthy one keeps its rows.
func TestOpenKeepsAHealthyStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unibox")
	path := filepath.Join(dir, "store.db")
	fillStore(t, path, manyRows)
	for range 2 {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if s.Warning != "" {
			t.Fatalf("warned: %s", s.Warning)
		}
		snap, err := s.Newest(ctx, work, "", manyRows+1)
		s.Close()
		if err != nil || len(snap.Messages) != manyRows || snap.Messages[0].ID.UID != uint32(manyRows) || snap.Messages[manyRows-1].ID.UID != 1 {
			t.Fatalf("reopened: %d rows, %v", len(snap.Messages), err)
		}
	}
	if aside := setAsideFiles(t, dir); len(aside) > 0 {
		t.Fatalf("set aside: %v", aside)
	}

	empty := filepath.Join(dir, "empty.db") // in a private folder: t.TempDir() makes 0755 ones
	writeFile(t, empty, nil)
	s, err := Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Warning != "" {
		t.Fatalf("an empty file warned: %s", s.Warning)
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// In-memory stores are each their own: what one holds the other does
// not, closing one leaves the other whole, and none leaves a file.
func TestOpenMemoryStoresAreIndependent(t *testing.T) {
	// Run where any file made would show: an empty folder.
	cwd := t.TempDir()
	t.Chdir(cwd)
	a, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Path() != "" || b.Path() != "" || a.Warning != "" || b.Warning != "" {
		t.Fatalf("paths %q %q, warnings %q %q", a.Path(), b.Path(), a.Warning, b.Warning)
	}
	if err := a.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 3, 2, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Newest(ctx, work, "INBOX", 10); !errors.Is(err, ErrNotStored) {
		t.Fatalf("b sees a's rows: %v", err)
	}
	if err := b.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 9, Messages: msgs(9, 5), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    *Store
		want []uint32
		uv   uint32
	}{{a, []uint32{3, 2, 1}, 7}, {b, []uint32{5}, 9}} {
		snap, err := c.s.Newest(ctx, work, "INBOX", 10)
		if err != nil || !slices.Equal(uidsOf(snap.Messages), c.want) || snap.UIDValidity != c.uv {
			t.Fatalf("read %v uv %d (%v), want %v uv %d", uidsOf(snap.Messages), snap.UIDValidity, err, c.want, c.uv)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Newest(ctx, work, "INBOX", 10)
	if err != nil || !slices.Equal(uidsOf(snap.Messages), []uint32{5}) {
		t.Fatalf("b after closing a: %v %v", uidsOf(snap.Messages), err)
	}
	c, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Newest(ctx, work, "INBOX", 10); !errors.Is(err, ErrNotStored) {
		t.Fatalf("a new in-memory store is not empty: %v", err)
	}
	// The same schema, foreign keys on: a refilled folder takes its
	// bodies with it.
	if err := b.SaveBody(ctx, work, body(msg("Work", "INBOX", 9, 5), "text"), 1<<20); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 10, Messages: msgs(10, 5), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Body(ctx, work, msg("Work", "INBOX", 10, 5).ID); !errors.Is(err, ErrNotStored) {
		t.Fatalf("a body outlived its folder's refill: %v", err)
	}
	if made, _ := os.ReadDir(cwd); len(made) > 0 {
		t.Fatalf("in-memory stores made files: %v", made)
	}
}

// A store damaged where Open does not read is set aside by the background
// verification, and the store goes on working on a new file.
func TestVerifyAfterSetsADamagedFileAside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unibox")
	path := filepath.Join(dir, "store.db")
	fillStore(t, path, manyRows)
	damageMiddlePage(t, path, 3)
	s, err := Open(path)
	if err != nil || s.Warning != "" {
		t.Fatalf("open: %v %q", err, s.Warning)
	}
	defer s.Close()
	s.VerifyAfter(time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for s.Problem() == "" {
		if time.Now().After(deadline) {
			t.Fatal("the background verification found nothing")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if aside := setAsideFiles(t, dir); len(aside) != 1 || !strings.Contains(s.Problem(), aside[0]) {
		t.Fatalf("set aside %v; problem %q", aside, s.Problem())
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 1), At: time.Now()}); err != nil {
		t.Fatalf("after setting aside: %v", err)
	}
	integrityOK(t, s)
}

// manyRows fill a store past 100 KB with pages to damage; half as many
// under -race, where each indexed row costs ~25x (the file still passes
// 100 KB: the index makes each row bigger).
var manyRows = map[bool]int{false: 3000, true: 1500}[raceEnabled]
