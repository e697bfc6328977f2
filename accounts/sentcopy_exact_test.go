package accounts

import (
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/testservers/imaptest"
)

// With save_sent auto the outbox looks for the server's own copy in Sent
// before filing one. A stranger's message in Sent whose Message-ID
// contains the reply's (<x-ID.evil>) was taken for that copy: ours was
// never filed, and the entry pointed at the stranger's mail.
func TestSentCopyIsLookedForExactly(t *testing.T) {
	srv, smtp, orig := sendServers(t, nil) // a server that files no copy of its own
	a := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentAuto)
	box := newBox(t)
	e := queueReply(t, box, a, orig, time.Now())
	decoy := imaptest.Mail{From: "x@example.com.evil", Subject: "theirs", Date: time.Now(), MessageID: "x-" + e.MessageID + ".evil", Body: "x"}.Bytes()
	if _, err := srv.Append("sam", "Sent", decoy, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{LookAfter: 100 * time.Millisecond}).Deliver(t.Context(), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("%+v, %v", rep, err)
	}
	sent := subjects(t, a, "Sent")
	if len(sent) != 2 || sent["Re: lunch?"] == 0 || rep.Entry.SentFolder != "Sent" || rep.Entry.SentUID != sent["Re: lunch?"] {
		t.Fatalf("Sent holds %v; the entry says its copy is %s uid %d", sent, rep.Entry.SentFolder, rep.Entry.SentUID)
	}
}
