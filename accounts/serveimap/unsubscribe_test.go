package serveimap

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/imapprovider"
	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/unsubscribe"
	"unibox/accounts/unsubscribe/unsubtest"
	"unibox/conn"
)

// childLookupTXT is the test child's DKIM key lookup: the records the
// test wrote into dir/dkim-txt ("name<TAB>record" lines), nothing else.
func childLookupTXT(dir string) func(string) ([]string, error) {
	return func(name string) ([]string, error) {
		f, err := os.Open(filepath.Join(dir, "dkim-txt"))
		if err != nil {
			return nil, fmt.Errorf("no TXT record for %s", name)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if n, rec, ok := strings.Cut(sc.Text(), "\t"); ok && strings.EqualFold(n, strings.TrimSuffix(name, ".")) {
				return []string{rec}, nil
			}
		}
		return nil, fmt.Errorf("no TXT record for %s", name)
	}
}

// unsubscribe_info reads the raw message where it is, checks the DKIM
// signature with the injected key lookup, and leaves the message unread.
func TestUnsubscribeInfo(t *testing.T) {
	key := unsubtest.NewKey("news.example")
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{LookupTXT: unsubtest.Lookup(key)})
		signed := b.Seed(t, user, "INBOX", key.Sign(unsubtest.Mail("news@news.example", true, "https://news.example/u/1")))
		plain := b.Seed(t, user, "INBOX", unsubtest.Mail("news@news.example", true, "http://news.example/u/2", "mailto:leave@news.example"))
		var out imapwire.UnsubscribeInfoOut
		mustOK(t, "unsubscribe_info", call(t, cs, "unsubscribe_info", imapwire.UnsubscribeInfoIn{Account: "work", UID: signed}, &out))
		if out.DKIM.Result != unsubscribe.DKIMPass || out.DKIM.Domain != "news.example" || !out.OneClickHeader ||
			len(out.Options) != 1 || out.Options[0].URI != "https://news.example/u/1" || out.UIDValidity == 0 {
			t.Fatalf("signed: %s", pretty(out))
		}
		if p := unsubscribe.Decide(out.Info); p.Kind != unsubscribe.KindOneClick {
			t.Fatalf("signed: plan %+v", p)
		}
		out = imapwire.UnsubscribeInfoOut{}
		mustOK(t, "unsubscribe_info", call(t, cs, "unsubscribe_info", imapwire.UnsubscribeInfoIn{Account: "work", UID: plain}, &out))
		if out.DKIM.Result != unsubscribe.DKIMNone || len(out.Options) != 2 || out.Options[1].Scheme != "mailto" {
			t.Fatalf("unsigned: %s", pretty(out))
		}
		var list imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list))
		for _, m := range list.Messages {
			if m.Seen {
				t.Fatalf("uid %d was marked read", m.UID)
			}
		}
		res := call(t, cs, "unsubscribe_info", imapwire.UnsubscribeInfoIn{Account: "work", UID: 999}, nil)
		mustClass(t, "unsubscribe_info of no message", res, conn.ClassTool)
		res = call(t, cs, "unsubscribe_info", imapwire.UnsubscribeInfoIn{Account: "nobody", UID: 1}, nil)
		mustClass(t, "unsubscribe_info of no account", res, conn.ClassNotProvisioned)
	})
}

// The same through the real child process over its pipe: the verdict is
// made in the child, which holds the message, and crosses as JSON.
func TestUnsubscribeInfoChild(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	key := unsubtest.NewKey("news.example")
	misaligned := unsubtest.NewKey("bulk-mailer.example")
	dir := t.TempDir()
	records := key.Name() + "\t" + key.Record() + "\n" + misaligned.Name() + "\t" + misaligned.Record() + "\n"
	if err := os.WriteFile(filepath.Join(dir, "dkim-txt"), []byte(records), 0o600); err != nil {
		t.Fatal(err)
	}
	msg := unsubtest.Mail("news@news.example", true, "https://news.example/u/1")
	signed := b.Seed(t, user, "INBOX", key.Sign(msg))
	other := b.Seed(t, user, "INBOX", misaligned.Sign(msg))
	// Issue 35 item 3: the attacker's fields on top of the signed mail,
	// above a name net/textproto's MIME reader stops at.
	forged := b.Seed(t, user, "INBOX", append([]byte("From: News <news@news.example>\r\nList-Unsubscribe: <https://evil.example/x>\r\n"+
		"List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nX-Tag(1): x\r\n"), key.Sign(msg)...))
	exe, _ := os.Executable()
	a := conn.New(conn.Options{Account: "work", Dial: childDial(exe, dir),
		AfterConnect: imapprovider.Provision(accountIn(b, user, pass), nil), Classify: imapprovider.Classify,
		Dials: conn.Dials{TerminateAfter: 200 * time.Millisecond, ProbeInterval: -1}})
	defer a.Close()
	for _, tt := range []struct {
		uid    uint32
		result string
		kind   unsubscribe.Kind
		why    string
	}{{signed, unsubscribe.DKIMPass, unsubscribe.KindOneClick, ""}, {other, unsubscribe.DKIMFail, unsubscribe.KindShow, "not aligned"},
		{forged, unsubscribe.DKIMFail, unsubscribe.KindShow, "2 From fields: no sender taken; 2 List-Unsubscribe fields: none taken; 2 List-Unsubscribe-Post fields"}} {
		res, err := a.Call(t.Context(), conn.Request{Tool: "unsubscribe_info", Args: imapwire.UnsubscribeInfoIn{Account: "work", UID: tt.uid}, Idempotent: true})
		if err != nil {
			t.Fatal(err)
		}
		var out imapwire.UnsubscribeInfoOut
		if err := imapwire.Decode(res, &out); err != nil {
			t.Fatal(err)
		}
		if p := unsubscribe.Decide(out.Info); out.DKIM.Result != tt.result || p.Kind != tt.kind || !strings.Contains(p.Describe(""), tt.why) {
			t.Fatalf("uid %d: %s, plan %+v: want %s, %s, %q", tt.uid, pretty(out), p, tt.result, tt.kind, tt.why)
		}
	}
}
