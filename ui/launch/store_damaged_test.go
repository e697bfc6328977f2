package launch_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `list --cached` on a store damaged past its first pages (which Open
// does not read): the file is set aside, and the listing says so, in
// every account's error and on stderr, and exits 1; never "idle 0" with an
// empty error.
func TestListCachedSaysTheStoreIsDamaged(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	for i := range 200 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("message %03d %s", i, strings.Repeat("s", 100)), Date: time.Now().Add(time.Duration(i-200) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	// Two accounts: the one read after the file was set aside finds a new,
	// empty store, and must say the same.
	path := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW"))+facetest.IMAP("Home", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	t.Setenv("UNIBOX_TEST_PW", "pw")
	// The new file's size is its schema's: the damage goes past it.
	db, _ := store.DefaultPath()
	fresh, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	st, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	schema := int(st.Size())
	if _, code, _ := facetest.ListJSON(t, "--config", path, "--limit", "200"); code != launch.ExitOK {
		t.Fatalf("first listing: exit %d", code)
	}
	b, err := os.ReadFile(db)
	if err != nil || len(b) < schema+32<<10 {
		t.Fatalf("store %d bytes, %v", len(b), err)
	}
	for i := schema; i < len(b); i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, code, stderr := facetest.ListJSON(t, "--cached", "--config", path)
	if code != launch.ExitNone || len(out.Accounts) != 2 || len(out.Messages) != 0 {
		t.Fatalf("exit %d, %+v\n%s", code, out, stderr)
	}
	for _, a := range out.Accounts {
		if a.ErrorClass != "store" || !strings.Contains(a.Error, "damaged") || !strings.Contains(a.Error, "set aside as store.db.broken-") {
			t.Fatalf("%s's error: %q (class %q)\n%+v\n%s", a.Name, a.Error, a.ErrorClass, out, stderr)
		}
		if !strings.Contains(stderr, a.Error) {
			t.Fatalf("stderr %q does not say %q", stderr, a.Error)
		}
	}
	t.Logf("stderr: %s", stderr)
}
