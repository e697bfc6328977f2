package dispatch_test

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// After the copy in Sent, the message answered is flagged: \Answered
// for a reply, $Forwarded for a forward, on the account that holds it
// (a reply may go out through another). A message the server says is
// gone, or an account no longer configured, ends the entry without the
// flag, saying so, and without trying again.
func TestFlagTheAnsweredMessage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		flag     string
		origAcct string // the original's account: "home" is configured, "gone" not
		gone     bool   // the original was expunged meanwhile
		want     string // the flag on the original ("": none)
		errHas   string
		tries    int // flag calls on home
	}{
		{name: "reply", flag: "answered", origAcct: "home", want: `\Answered`, tries: 1},
		{name: "forward", flag: "forwarded", origAcct: "home", want: "$Forwarded", tries: 1},
		{name: "the original is gone: not flagged, not retried", flag: "answered", origAcct: "home", gone: true,
			errHas: "sent, but not flagged: no such message", tries: 1},
		{name: "its account is not configured", flag: "answered", origAcct: "gone",
			errHas: "the answered message's account is gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			work := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
			home := r.newAccount("home", smtptest.Options{}, dispatch.SentCopy{})
			uid := home.put("INBOX", []byte("Message-ID: <orig@example.org>\r\n\r\nhi\r\n"), nil)
			if tc.gone {
				home.DeleteMessages(t.Context(), "INBOX", uidValidity, []uint32{uid})
			}
			e := r.enqueue("work", func(e *outbox.Entry) {
				e.Flag = tc.flag
				e.Original = &outbox.Ref{Account: tc.origAcct, Folder: "INBOX", UIDValidity: uidValidity, UID: uid}
			})

			rep, err := dispatch.New(r.box, accts(work, home), quick()).Deliver(bounded(t), e.ID)
			if err != nil || rep.Outcome != dispatch.OutcomeSent {
				t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
			}
			if _, there := r.onDisk(e.ID); there {
				t.Error("the entry is still on disk")
			}
			if tc.errHas == "" && rep.Entry.LastError != "" || !strings.Contains(rep.Entry.LastError, tc.errHas) {
				t.Errorf("last error %q, want %q", rep.Entry.LastError, tc.errHas)
			}
			if got := flagCalls(home.log()); got != tc.tries {
				t.Errorf("%d flag calls on home, want %d: %q", got, tc.tries, home.log())
			}
			if got := flagCalls(work.log()); got != 0 {
				t.Errorf("%d flag calls on work, which holds no original: %q", got, work.log())
			}
			var flags []string
			if in := home.in("INBOX"); len(in) == 1 {
				flags = in[0].flags
			}
			if (tc.want == "") != (len(flags) == 0) || tc.want != "" && !slices.Equal(flags, []string{tc.want}) {
				t.Errorf("the original's flags %v, want %q", flags, tc.want)
			}
		})
	}
}

func flagCalls(log []string) int {
	n := 0
	for _, c := range log {
		if strings.HasPrefix(c, "flag ") {
			n++
		}
	}
	return n
}

// A flag that fails without an answer is tried three times; Deliver then
// leaves the entry, saved, for the next unibox, whose try is the last:
// the entry is done, saying the message is sent but not flagged.
func TestFlagGivesUpAfterThreeTries(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	uid := a.put("INBOX", []byte("Message-ID: <orig@example.org>\r\n\r\nhi\r\n"), nil)
	a.flagFails = 100
	e := r.enqueue("work", func(e *outbox.Entry) {
		e.Flag, e.Original = "answered", &outbox.Ref{Account: "work", Folder: "INBOX", UIDValidity: uidValidity, UID: uid}
	})
	opts := quick()
	var later atomic.Int64 // the clock moved on: the next unibox, later
	opts.Now = func() time.Time { return time.Now().Add(time.Duration(later.Load())) }
	run := dispatch.New(r.box, accts(a), opts)

	rep, err := run.Deliver(bounded(t), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
	}
	if got, there := r.onDisk(e.ID); !there || got.State != outbox.StateSaved || got.FlagTries != 3 || flagCalls(a.log()) != 3 {
		t.Fatalf("after the first Deliver: on disk %v, %s, %d flag tries, %d calls; want saved after 3", there, got.State, got.FlagTries, flagCalls(a.log()))
	}
	later.Store(int64(time.Hour))
	rep, err = run.Deliver(bounded(t), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent || !strings.Contains(rep.Entry.LastError, "sent, but not flagged") {
		t.Fatalf("second Deliver: %s, %v, last error %q", rep.Outcome, err, rep.Entry.LastError)
	}
	if _, there := r.onDisk(e.ID); there || flagCalls(a.log()) != 4 {
		t.Errorf("entry on disk %v after %d flag calls: want gone after 4", there, flagCalls(a.log()))
	}
}

// A message written from a draft in the server's Drafts takes that draft
// out of Drafts once it is sent and its copy is in Sent: never before
// (the copy is what proves it went), and Drafts never keeps a sent
// message as if it were still to write.
func TestServerDraftGoesOnceSaved(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{Append: true})
	uid := a.put("Drafts", []byte(saved), []string{`\Draft`})
	e := r.enqueue("work", func(e *outbox.Entry) {
		e.ServerDraft = &outbox.Ref{Account: "work", Folder: "Drafts", UIDValidity: uidValidity, UID: uid}
	})

	rep, err := dispatch.New(r.box, accts(a), quick()).Deliver(bounded(t), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
	}
	if got := a.in("Drafts"); len(got) != 0 {
		t.Errorf("Drafts still holds %d messages", len(got))
	}
	if want := []string{"append |sent", "delete Drafts/1"}; !slices.Equal(a.log(), want) {
		t.Errorf("calls %q, want %q", a.log(), want)
	}
}
