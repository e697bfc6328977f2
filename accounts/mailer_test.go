package accounts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/config"
	"unibox/accounts/imapwire"
	"unibox/accounts/mcpprovider"
	"unibox/accounts/provider"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
	"unibox/model"
)

// sentAccount is an account "Work" of user sam, whose server has Sent
// and Drafts by special use, through a real serve-imap child.
func sentAccount(t *testing.T, faults *memimap.Faults, dials ...func(*config.Resilience)) (*Account, *memimap.Server) {
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts}); err != nil {
		t.Fatal(err)
	}
	// From: sent_to counts only Sent mail from the account's own address.
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Address: "sam@example.org"}}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	for _, d := range dials {
		d(&cfg.Resilience)
	}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0], srv
}

// serverFlags is uid → flags of sam's folder, as another client sees it.
func serverFlags(t *testing.T, srv *memimap.Server, folder string) map[uint32][]imap.Flag {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("sam", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32][]imap.Flag{}
	for _, b := range bufs {
		out[uint32(b.UID)] = b.Flags
	}
	return out
}

// What a reply does to the mail server, through a real serve-imap child:
// the copy into Sent (found by special use) with \Seen, found there by its
// Message-ID; \Answered on the original, seen in a listing; a forward's
// attachment byte for byte; the draft deleted once sent.
func TestAccountSendingNeeds(t *testing.T) {
	ctx := context.Background()
	a, srv := sentAccount(t, nil)
	bin := bytes.Repeat([]byte{0, 1, 2, 250, 255, '\r', '\n'}, 1000)
	orig := imaptest.Mail{From: "Ann <ann@example.org>", To: "sam@example.org", Subject: "plans", Date: time.Now(), MessageID: "plans.2@example.org",
		Headers: map[string]string{"Reply-To": "team@example.org", "Cc": "bo@example.org", "In-Reply-To": "<plans.1@example.org>", "References": "<plans.1@example.org>"},
		Body:    "see attached", Attach: map[string][]byte{"plan.bin": bin}}.Bytes()
	if _, err := srv.Append("sam", "INBOX", orig, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	inbox := count(t, a, "INBOX")
	body, err := a.Get(ctx, inbox[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(body.ReplyTo) != 1 || body.ReplyTo[0].Address != "team@example.org" || len(body.Cc) != 1 || body.Cc[0].Address != "bo@example.org" ||
		body.InReplyTo != "plans.1@example.org" || !slices.Equal(body.References, []string{"plans.1@example.org"}) || body.MessageID != "plans.2@example.org" {
		t.Fatalf("answer fields: reply_to %v cc %v in_reply_to %q references %v message_id %q", body.ReplyTo, body.Cc, body.InReplyTo, body.References, body.MessageID)
	}
	part, err := a.Part(ctx, inbox[0].ID, 0)
	if err != nil || !bytes.Equal(part.Data, bin) || part.Name != "plan.bin" || part.Name != body.Attachments[0].Name {
		t.Fatalf("part 0: %v, %q, %d bytes (want %d)", err, part.Name, len(part.Data), len(bin))
	}
	if _, err := a.Part(ctx, inbox[0].ID, 1); conn.ClassOf(err) != conn.ClassTool || !strings.Contains(err.Error(), "index 1") {
		t.Fatalf("part 1 of a message with one attachment: %v", err)
	}

	draft, err := a.Append(ctx, "", "drafts", reply("<draft.1@example.org>"), []string{`\Draft`, `\Seen`}, time.Time{})
	if err != nil || draft.Folder != "Drafts" || draft.UID == 0 {
		t.Fatalf("postpone: %+v %v", draft, err)
	}
	sent, err := a.Append(ctx, "", "sent", reply("<reply.1@example.org>"), []string{`\Seen`}, time.Time{})
	if err != nil || sent.Folder != "Sent" || sent.UID == 0 || sent.UIDValidity == 0 {
		t.Fatalf("copy to Sent: %+v %v", sent, err)
	}
	found, ok, err := a.FindMessageID(ctx, "", "sent", "reply.1@example.org")
	if err != nil || !ok || found != sent {
		t.Fatalf("find in sent: %+v %v %v, want %+v", found, ok, err, sent)
	}
	if _, ok, err := a.FindMessageID(ctx, "", "sent", "never.sent@example.org"); err != nil || ok {
		t.Fatalf("find what is not there: %v %v", ok, err)
	}
	if m := count(t, a, "Sent"); len(m) != 1 || !m[0].Seen {
		t.Fatalf("Sent: %+v", m)
	}

	if r, err := a.MarkAnswered(ctx, inbox[0].ID); err != nil || r.Kind != model.ResultDone {
		t.Fatalf("mark answered: %+v %v", r, err)
	}
	if r, err := a.MarkForwarded(ctx, inbox[0].ID); err != nil || r.Kind != model.ResultDone {
		t.Fatalf("mark forwarded: %+v %v", r, err)
	}
	if m := count(t, a, "INBOX"); !m[0].Answered {
		t.Fatalf("the original is not answered: %+v", m[0])
	}
	if flags := serverFlags(t, srv, "INBOX"); !slices.Contains(flags[inbox[0].ID.UID], imap.FlagForwarded) {
		t.Fatalf("the original's flags: %v", flags)
	}

	res, err := a.DeleteMessages(ctx, "Drafts", draft.UIDValidity, []uint32{draft.UID})
	if err != nil || len(res) != 1 || res[0].Kind != model.ResultDone {
		t.Fatalf("delete the draft: %+v %v", res, err)
	}
	if m := count(t, a, "Drafts"); len(m) != 0 {
		t.Fatalf("Drafts still holds %d", len(m))
	}
}

// The server stores the copy and hangs up before answering: Append says
// the outcome may be done (conn MaybeDone), no layer appends again, and
// FindMessageID settles it.
func TestAccountAppendUnknownIsNotRetried(t *testing.T) {
	ctx := context.Background()
	faults := &memimap.Faults{}
	a, _ := sentAccount(t, faults)
	count(t, a, "INBOX") // connected: the fault hits the APPEND, not a login
	faults.DropAfter("APPEND", 1)
	_, err := a.Append(ctx, "", "sent", reply("<once@example.org>"), []string{`\Seen`}, time.Time{})
	var ce *conn.Error
	if !errors.As(err, &ce) || !ce.MaybeDone {
		t.Fatalf("append cut after the server stored it: %v (want an error that may be done)", err)
	}
	_, found, err := a.FindMessageID(ctx, "", "sent", "once@example.org")
	if err != nil || !found {
		t.Fatalf("reconcile: found %v, %v", found, err)
	}
	if m := count(t, a, "Sent"); len(m) != 1 {
		t.Fatalf("Sent holds %d copies, want 1", len(m))
	}
}

// Bad input is refused before anything reaches the provider.
func TestAccountSendingRefusals(t *testing.T) {
	ctx := context.Background()
	a, _ := sentAccount(t, nil)
	_, err := a.Append(ctx, "", "sent", make([]byte, imapwire.MaxAppendBytes+1), nil, time.Time{})
	if !errors.Is(err, model.ErrTooLarge) || !strings.Contains(err.Error(), "message") {
		t.Fatalf("a message over the limit: %v", err)
	}
	if _, _, err := a.FindMessageID(ctx, "", "sent", "a\r\nb@x"); conn.ClassOf(err) != conn.ClassTool {
		t.Fatalf("a Message-ID with CR LF: %v", err)
	}
}

// An account whose provider cannot do these says so, for each.
func TestAccountSendingUnsupported(t *testing.T) {
	spec, err := mcpprovider.Build(config.Account{Name: "M", Kind: config.KindMCP, Command: []string{"server"}, Profile: "email-mcp"}, nil, mcpprovider.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := &Account{name: "M", kind: config.KindMCP, ops: spec.Provider}
	ctx := context.Background()
	id := model.MessageID{Account: "M", Folder: "INBOX", UID: 1}
	_, e1 := a.Append(ctx, "", "sent", []byte("x"), nil, time.Time{})
	_, e2 := a.DeleteMessages(ctx, "Drafts", 1, []uint32{1})
	_, e3 := a.Part(ctx, id, 0)
	_, _, e4 := a.FindMessageID(ctx, "", "sent", "x@y")
	_, e5 := a.MarkAnswered(ctx, id)
	_, e6 := a.MarkForwarded(ctx, id)
	for i, err := range []error{e1, e2, e3, e4, e5, e6} {
		if !errors.Is(err, provider.ErrUnsupported) || conn.ClassOf(err) != conn.ClassTool || !strings.Contains(err.Error(), "not supported by this account") {
			t.Errorf("operation %d: %v", i+1, err)
		}
	}
}

// reply is a small reply with Message-ID id.
func reply(id string) []byte {
	return []byte(fmt.Sprintf("From: sam@example.org\r\nTo: ann@example.org\r\nSubject: Re: plans\r\nMessage-ID: %s\r\nDate: %s\r\n\r\nyes\r\n", id, time.Now().Format(time.RFC1123Z)))
}
