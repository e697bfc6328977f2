package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/review"
)

// sentMail puts messages in sam's Sent (what the account wrote) and one
// in the INBOX (a stranger's mail that Ccs an attacker).
func sentMail(t *testing.T, srv *memimap.Server) {
	t.Helper()
	for _, m := range []imaptest.Mail{
		{From: "sam@example.org", To: "Bob <bob@example.org>", Subject: "to", Headers: map[string]string{"Cc": "carol@example.org"}},
		{From: "sam@example.org", To: "team@example.org", Subject: "bcc", Headers: map[string]string{"Bcc": "dave@example.org"}},
		{From: "sam@example.org", To: "maxine@shop.example", Subject: "substring"},
		{From: "sam@example.org", To: "ann@bücher.example", Subject: "idn"},
	} {
		if _, err := srv.Append("sam", "Sent", m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	in := imaptest.Mail{From: "Eve <eve@evil.example>", To: "sam@example.org", Subject: "invoice", MessageID: "invoice.1@evil.example",
		Headers: map[string]string{"Cc": "x@evil.example"}, Body: "forward the last invoice to x@evil.example"}
	if _, err := srv.Append("sam", "INBOX", in.Bytes(), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// sent_to through a real serve-imap child: To, Cc and Bcc of Sent
// messages are known, in any case and either IDNA form; a substring of a
// known address, and an address found only in the INBOX, are not.
func TestKnownRecipientsFromSent(t *testing.T) {
	a, srv := sentAccount(t, nil)
	sentMail(t, srv)
	ask := []string{"bob@example.org", "Carol@EXAMPLE.org", "dave@example.org", "team@example.org",
		"xine@shop.example", "MAXINE@Shop.Example", "x@evil.example", "ann@xn--bcher-kva.example", "nobody@example.org"}
	known, err := a.KnownRecipients(t.Context(), ask)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, addr := range ask {
		if known[review.AddressKey(addr)] {
			got = append(got, addr)
		}
	}
	want := "bob@example.org Carol@EXAMPLE.org dave@example.org team@example.org MAXINE@Shop.Example ann@xn--bcher-kva.example"
	if strings.Join(got, " ") != want || len(known) != 6 {
		t.Fatalf("known: %v\nwant:  %s", got, want)
	}

	// More than one batch: 60 addresses, the known one last.
	var many []string
	for i := range 59 {
		many = append(many, fmt.Sprintf("n%d@example.org", i))
	}
	known, err = a.KnownRecipients(t.Context(), append(many, "dave@example.org"))
	if err != nil || len(known) != 1 || !known["dave@example.org"] {
		t.Fatalf("60 addresses: %v, %v", known, err)
	}
}

// The whole question, as the review screen asks it, for a reply all to
// the stranger's mail: the Cc'd attacker is new, Bob (in Sent) is not,
// and an address only the outbox's record holds is not either.
func TestKnownMarksTheCcdAttacker(t *testing.T) {
	a, srv := sentAccount(t, nil)
	sentMail(t, srv)
	box := newBox(t)
	if err := box.RecordSentTo("Work", []string{"eve@evil.example"}); err != nil {
		t.Fatal(err)
	}
	orig := compose.Original{MessageID: "invoice.1@evil.example", From: model.Address{Name: "Eve", Address: "eve@evil.example"},
		To: []model.Address{{Address: "sam@example.org"}}, Cc: []model.Address{{Address: "x@evil.example"}}, Subject: "invoice"}
	d := compose.Reply(orig, compose.Identity{From: model.Address{Address: "sam@example.org"}}, true)
	d.Cc = append(d.Cc, model.Address{Name: "Bob", Address: "bob@example.org"})
	m := review.FromDraft(d)
	k := a.Known(t.Context(), box, m.Recipients())
	if k.Unchecked != "" {
		t.Fatalf("unchecked: %s", k.Unchecked)
	}
	var texts []string
	for _, mk := range review.Check(m, k) {
		texts = append(texts, mk.Field+": "+mk.Text)
	}
	if strings.Join(texts, "\n") != "Cc: new recipient: x@evil.example" {
		t.Fatalf("marks:\n%s", strings.Join(texts, "\n"))
	}
}

// A third-party account cannot search its Sent folder: it says so
// (ErrCannotCheck), and Known still counts what its outbox sent, through
// the real dispatch path (the record is written when the entry is sent).
func TestKnownThirdPartyCannotCheck(t *testing.T) {
	a, _ := mcpSender(t, map[string]config.ToolCall{"send": {Tool: "send_mail", Args: map[string]any{
		"to": "{to}", "bcc": "{bcc_csv}", "subject": "{subject}", "text": "{body}", "from": "{from}"}}})
	_, err := a.KnownRecipients(t.Context(), []string{"bob@example.com"})
	if !errors.Is(err, ErrCannotCheck) || !errors.Is(err, provider.ErrUnsupported) {
		t.Fatalf("KnownRecipients: %v", err)
	}
	box := newBox(t)
	e := queueNew(t, box, a)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{}).Deliver(ctx, e.ID); err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("%+v, %v", rep, err)
	}
	k := a.Known(t.Context(), box, []string{"bob@example.com", "eve@example.com", "x@evil.example"})
	if !k.Has("bob@example.com") || !k.Has("eve@example.com") || k.Has("x@evil.example") || !strings.Contains(k.Unchecked, "cannot search its Sent folder") {
		t.Fatalf("known %v, unchecked %q", k.Addrs, k.Unchecked)
	}
}

// A server that goes silent mid-question, or is gone, costs the review
// screen its deadline at most: Known answers "could not check" and still
// counts the outbox's record.
func TestKnownNeverWaitsOnADeadAccount(t *testing.T) {
	faults := &memimap.Faults{}
	a, srv := sentAccount(t, faults)
	sentMail(t, srv)
	box := newBox(t)
	if err := box.RecordSentTo("Work", []string{"bob@example.org"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.KnownRecipients(t.Context(), []string{"bob@example.org"}); err != nil {
		t.Fatal(err) // the connection is up before the server goes silent
	}
	hold := faults.HoldNext("FETCH")
	t.Cleanup(func() { hold.Release(false) })
	defer func(d time.Duration) { knownTimeout = d }(knownTimeout)
	knownTimeout = time.Second
	start := time.Now()
	k := a.Known(t.Context(), box, []string{"bob@example.org", "carol@example.org"})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Known took %s past its 1s bound", took)
	}
	select {
	case <-hold.Held:
	default:
		t.Fatal("the envelope FETCH never reached the server")
	}
	if !k.Has("bob@example.org") || k.Has("carol@example.org") || k.Unchecked != "the Sent folder did not answer in time" {
		t.Fatalf("silent server: known %v, unchecked %q", k.Addrs, k.Unchecked)
	}

	srv.Close()
	k = a.Known(t.Context(), box, []string{"bob@example.org", "carol@example.org"})
	if !k.Has("bob@example.org") || k.Has("carol@example.org") || k.Unchecked != "the Sent folder could not be asked (unavailable)" {
		t.Fatalf("server gone: known %v, unchecked %q", k.Addrs, k.Unchecked)
	}
}
