package accounts

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/send/drafting"
	"unibox/model"
)

// The account bounds what it asks of its server by the limits its kind's
// Spec gives (provider.Limits), not by one kind's wire: an IMAP account
// opened from config carries serve-imap's, and a smaller limit in the
// spec is the one an Append or a sent_to batch obeys.
func TestSendingLimitsComeFromTheSpec(t *testing.T) {
	a, srv := sentAccount(t, nil)
	want := provider.Limits{AppendBytes: imapwire.MaxAppendBytes, PartBytes: imapwire.MaxPartBytes, SentToAddresses: imapwire.MaxSentToAddresses}
	if a.sending.limits != want {
		t.Fatalf("an IMAP account's limits: %+v, want serve-imap's %+v", a.sending.limits, want)
	}
	// A forward's or a reopened draft's parts are given the transfer time
	// of the spec's largest part: the sending handle states it to
	// drafting, which reads no wire of its own.
	var r drafting.PartReader = a.Sending()
	if s, ok := r.(drafting.PartSizer); !ok || s.PartBytes() != want.PartBytes {
		t.Fatalf("the sending handle as drafting's PartSizer: %v, want %d bytes", ok, want.PartBytes)
	}
	sentMail(t, srv)
	a.sending.limits = provider.Limits{AppendBytes: 1000, PartBytes: 4096, SentToAddresses: 2}
	if got := a.Sending().PartBytes(); got != 4096 {
		t.Errorf("the sending handle's part limit under a spec limit of 4096: %d", got)
	}
	for _, tc := range []struct {
		size  int
		wantN int // the limit the refusal names
	}{{1001, 1000}, {imapwire.MaxAppendBytes + 1, 1000}} {
		_, err := a.Append(t.Context(), "", "sent", make([]byte, tc.size), nil, time.Time{})
		var le *model.LimitError
		if !errors.As(err, &le) || le.Limit != tc.wantN || le.Got != tc.size {
			t.Errorf("append %d bytes under a spec limit of 1000: %v, want a refusal naming %d", tc.size, err, tc.wantN)
		}
	}
	// Five addresses in batches of two, the known one in the last batch;
	// own addresses are capped at two as well (the from comes first).
	var ask []string
	for i := range 4 {
		ask = append(ask, fmt.Sprintf("n%d@example.org", i))
	}
	known, err := a.KnownRecipients(t.Context(), append(ask, "dave@example.org"))
	if err != nil || len(known) != 1 || !known["dave@example.org"] {
		t.Fatalf("5 addresses in batches of 2: %v, %v", known, err)
	}
	a.sending.aliases = []string{"x1@example.org", "x2@example.org", "x3@example.org"}
	if own := a.ownAddresses(); len(own) != 2 || own[0] != "sam@example.org" {
		t.Fatalf("own addresses under a spec limit of 2: %v", own)
	}
}
