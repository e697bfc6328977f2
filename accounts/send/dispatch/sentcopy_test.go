package dispatch_test

import (
	"slices"
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/testservers/smtptest"
)

// The copy in Sent after a send: the .saved text (Bcc kept, never the
// wire's), \Seen, in sent_folder or else the special-use \Sent; none
// with save_sent off; where the server may file its own (auto), looked
// for first so there is one copy, never two; and an APPEND whose answer
// was lost is looked for before it is tried again.
func TestSentCopy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		copy       dispatch.SentCopy
		serverCopy bool // the server files its own in Sent
		appendLost int
		folder     string // where the copy is ("": none anywhere)
		calls      []string
	}{
		{name: "save_sent off: no copy", calls: nil},
		{name: "appended: the saved text, Bcc kept", copy: dispatch.SentCopy{Append: true},
			folder: "Sent", calls: []string{"append |sent"}},
		{name: "sent_folder, not the special-use one", copy: dispatch.SentCopy{Append: true, Folder: "Archive/Sent"},
			folder: "Archive/Sent", calls: []string{"append Archive/Sent|"}},
		{name: "auto, the server filed its own: one copy", copy: dispatch.SentCopy{Append: true, LookFirst: true}, serverCopy: true,
			folder: "Sent", calls: []string{"find |sent"}},
		{name: "auto, none there: appended once", copy: dispatch.SentCopy{Append: true, LookFirst: true},
			folder: "Sent", calls: []string{"find |sent", "append |sent"}},
		{name: "an APPEND's answer lost: looked for, not repeated", copy: dispatch.SentCopy{Append: true}, appendLost: 1,
			folder: "Sent", calls: []string{"append |sent", "find |sent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			a := r.newAccount("work", smtptest.Options{}, tc.copy)
			a.serverFiles, a.appendLost = tc.serverCopy, tc.appendLost
			e := r.enqueue("work", nil)

			rep, err := dispatch.New(r.box, accts(a), quick()).Deliver(bounded(t), e.ID)
			if err != nil || rep.Outcome != dispatch.OutcomeSent {
				t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
			}
			if !slices.Equal(a.log(), tc.calls) {
				t.Errorf("calls %q, want %q", a.log(), tc.calls)
			}
			if rep.Entry.SentFolder != tc.folder {
				t.Errorf("the report says the copy is in %q, want %q", rep.Entry.SentFolder, tc.folder)
			}
			for _, f := range []string{"Sent", "Archive/Sent"} {
				got := a.in(f)
				if f != tc.folder {
					if len(got) != 0 {
						t.Errorf("%s holds %d messages, want none", f, len(got))
					}
					continue
				}
				if len(got) != 1 {
					t.Fatalf("%s holds %d copies, want 1", f, len(got))
				}
				if tc.serverCopy {
					continue // the server's own, as it filed it
				}
				if string(got[0].raw) != saved || !slices.Equal(got[0].flags, []string{`\Seen`}) {
					t.Errorf("the copy: flags %v, text\n%s\nwant \\Seen and the saved text (Bcc kept)", got[0].flags, got[0].raw)
				}
			}
			if _, there := r.onDisk(e.ID); there {
				t.Error("the entry is still on disk")
			}
		})
	}
}

// save_sent = "auto" gives the server LookAfter to file its own copy
// before looking for it: servers that do so do not always within the
// second the message is accepted.
func TestLookAfterWaitsForTheServersCopy(t *testing.T) {
	const lookAfter = 400 * time.Millisecond
	r := newRig(t)
	var sentAt time.Time
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{Append: true, LookFirst: true})
	e := r.enqueue("work", nil)
	opts := quick()
	opts.LookAfter = lookAfter
	opts.Now = func() time.Time {
		if sentAt.IsZero() && a.srv.Deliveries() == 1 {
			sentAt = time.Now() // the first reading of the clock after the 250
		}
		return time.Now()
	}

	if rep, err := dispatch.New(r.box, accts(a), opts).Deliver(bounded(t), e.ID); err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
	}
	got := a.in("Sent")
	if len(got) != 1 {
		t.Fatalf("Sent holds %d copies, want 1", len(got))
	}
	m := a.log()
	if len(m) == 0 || m[0] != "find |sent" {
		t.Fatalf("calls %q: want the find first", m)
	}
	if waited := a.firstCallAt().Sub(sentAt); waited < lookAfter {
		t.Errorf("looked for the server's copy %v after the send, want at least %v", waited, lookAfter)
	}
}
