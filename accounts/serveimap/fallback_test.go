package serveimap

import (
	"context"
	"errors"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// Without MOVE the provider copies, flags and UID EXPUNGEs exactly the
// moved uids: an unrelated message marked \Deleted survives.
func TestMoveFallbackExpungesOnlyThoseUIDs(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoMove: true})
	var w imaptest.Wire
	cs, user := provisioned(t, b, Options{DebugWriter: &w})
	keep := b.Seed(t, user, "INBOX", mail("someone else's deleted message", "a@x.org", time.Hour), imap.FlagDeleted)
	move := b.Seed(t, user, "INBOX", mail("archive me", "a@x.org", time.Hour))
	var out imapwire.WriteOut
	mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{move}}, &out))
	if r := out.Results[0]; r.Status != imapwire.StatusMoved || r.DestUID == 0 {
		t.Fatalf("archive without MOVE: %s", pretty(out))
	}
	log := w.String()
	for _, want := range []string{"UID COPY", "UID STORE", "UID EXPUNGE"} {
		if !strings.Contains(log, want) {
			t.Errorf("wire has no %s:\n%s", want, log)
		}
	}
	if regexp.MustCompile(`(?m)^T\d+ (UID MOVE|MOVE|EXPUNGE)`).MatchString(log) {
		t.Errorf("wire used MOVE or a plain EXPUNGE:\n%s", log)
	}
	var list imapwire.ListMessagesOut
	call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list)
	if len(list.Messages) != 1 || list.Messages[0].UID != keep {
		t.Fatalf("the unrelated \\Deleted message did not survive: %s", pretty(list))
	}
}

// Without MOVE and UIDPLUS the only fallback would expunge other people's
// deleted messages: refused with a clear error.
func TestMoveRefusedWithoutUIDPlus(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoMove: true, NoUIDPlus: true})
	cs, user := provisioned(t, b, Options{})
	uid := b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
	res := call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, nil)
	mustClass(t, "archive", res, conn.ClassTool)
	if !strings.Contains(conn.ResultText(res), "neither MOVE nor UIDPLUS") {
		t.Fatalf("unclear refusal: %s", conn.ResultText(res))
	}
}

// Without SPECIAL-USE the archive folder is found by its conventional name.
func TestSpecialFolderFallbackNames(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoSpecialUse: true})
	cs, user := provisioned(t, b, Options{})
	uid := b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
	var out imapwire.WriteOut
	mustOK(t, "trash", call(t, cs, "trash", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, &out))
	if out.To != "Trash" {
		t.Fatalf("trash without SPECIAL-USE went to %q", out.To)
	}
}

// Plaintext to a non-loopback host is refused before any dial or lookup.
func TestPlaintextRefusedBeforeDial(t *testing.T) {
	dialled := false
	cs := session(t, Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled = true
		return nil, errors.New("dial must not happen")
	}})
	for _, host := range []string{"imap.example.com", "192.0.2.7", "10.0.0.1"} {
		res := call(t, cs, "add_account", imapwire.AddAccountIn{Account: "w", Host: host, Port: 143, Security: "none", Username: "u", Password: "p"}, nil)
		mustClass(t, "add_account", res, conn.ClassConfig)
		if !strings.Contains(conn.ResultText(res), "refusing plaintext") {
			t.Fatalf("unclear refusal: %s", conn.ResultText(res))
		}
	}
	if dialled {
		t.Fatal("a plaintext connection to a remote host was dialled")
	}
	for _, host := range []string{"127.0.0.1", "::1", "localhost", "127.8.9.10"} {
		if !isLoopback(host) {
			t.Errorf("%s is loopback", host)
		}
	}
}

// TLS verification is on by default: a self-signed server is refused
// unless its CA is trusted or tls_skip_verify is set.
func TestTLSVerifiedByDefault(t *testing.T) {
	d := imaptest.NewDovecotTLS(t)
	user, pass := d.NewUser(t)
	cs := session(t, Options{})
	in := imapwire.AddAccountIn{Account: "w", Host: "127.0.0.1", Port: d.TLSPort, Security: "tls", Username: user, Password: pass}
	res := call(t, cs, "add_account", in, nil)
	mustClass(t, "add_account", res, conn.ClassConfig)
	trusted := session(t, Options{RootCAs: d.CAs})
	mustOK(t, "add_account", call(t, trusted, "add_account", in, nil))
	in.Security, in.Port = "starttls", d.Port()
	mustOK(t, "add_account starttls", call(t, trusted, "add_account", in, nil))
}

// The server carries out a MOVE and hangs up before answering: the outcome
// is unknown to the provider, which says so and never resends it.
func TestDropAfterMoveIsUnknownNotResent(t *testing.T) {
	faults := &memimap.Faults{}
	b := imaptest.NewMem(t, memimap.Options{Faults: faults})
	cs, user := provisioned(t, b, Options{})
	uid := b.Seed(t, user, "INBOX", mail("archive me once", "a@x.org", time.Hour))
	faults.DropAfter("MOVE", 1)
	var out imapwire.WriteOut
	mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, &out))
	if r := out.Results[0]; r.Status != imapwire.StatusUnknown || r.Error == "" {
		t.Fatalf("drop after MOVE: %s", pretty(out))
	}
	var archive imapwire.ListMessagesOut
	mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Folder: "Archive"}, &archive))
	if len(archive.Messages) != 1 {
		t.Fatalf("archived %d times, want exactly once", len(archive.Messages))
	}
	// Reconciling by reading: archiving the same uid again says already_gone.
	mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, &out))
	if out.Results[0].Status != imapwire.StatusAlreadyGone {
		t.Fatalf("reconcile: %s", pretty(out))
	}
}
