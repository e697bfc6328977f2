package store

import (
	"path/filepath"
	"testing"
)

// `[ui] thread_by_subject` is the file's, not a process's: a face that
// turns it on regroups the stored mail once (two unlinked mails with one
// subject join; a reply with References never joins by subject), a face
// already running adopts it at its next write instead of splitting them
// again, and a face launched with it off splits them at its first write.
// Each Store handle is what a process has: its own threads.
func TestThreadBySubjectIsTheFilesSetting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	handle := func(bySubject bool) *Store {
		t.Helper()
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		s.ThreadBySubject(bySubject)
		return s
	}
	invoice := tmsg("Work", "INBOX", 1, "inv1@x", "")
	invoice.Subject = "Invoice 42"
	again := tmsg("Work", "INBOX", 2, "inv2@x", "")
	again.Subject = "Re: Invoice 42"
	reply := tmsg("Work", "INBOX", 3, "r@x", "other@x", "other@x")
	reply.Subject = "Re: Invoice 42"

	joined := func(s *Store, want bool, when string) {
		t.Helper()
		ids := threadIDs(t, s, work, "INBOX")
		if got := ids["inv1@x"] == ids["inv2@x"]; got != want {
			t.Fatalf("%s: the two invoices joined = %v, want %v (%v)", when, got, want, ids)
		}
		if ids["r@x"] == ids["inv1@x"] {
			t.Fatalf("%s: a reply with References joined by its subject (%v)", when, ids)
		}
	}
	off := handle(false)
	add(t, off, work, "INBOX", invoice, again, reply)
	joined(off, false, "off")

	on := handle(true)
	if err := on.WarmThreads(ctx); err != nil {
		t.Fatal(err)
	}
	joined(on, true, "a face launched with it on, after its first write")

	// The running face writes new mail: it adopts the file's setting.
	add(t, off, work, "INBOX", tmsg("Work", "INBOX", 4, "n@x", ""))
	joined(off, true, "the running face's next write")
	if !off.threads.bySubject {
		t.Fatal("the running face did not adopt the file's setting")
	}

	late := handle(false)
	if err := late.WarmThreads(ctx); err != nil {
		t.Fatal(err)
	}
	joined(late, false, "a face launched with it off again")
	add(t, on, work, "INBOX", tmsg("Work", "INBOX", 5, "n2@x", ""))
	joined(on, false, "the face that had turned it on, after its next write")
}
