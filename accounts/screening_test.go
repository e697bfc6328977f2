package accounts

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/rulebook"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// The screener holds back new senders' mail and nothing else: the mail
// stored when it is turned on stays, a sender written to (Sent with the
// person's own From), a reply in a thread the person wrote in and a
// sender let in pass; a From failing DMARC at the server is held however
// known; a sender screened out leaves for screen_out now and as new mail
// comes; the decisions outlive the cache; the inbox's unread count leaves
// out what waits.
func TestScreenerHoldsNewSenders(t *testing.T) {
	t.Run("memimap", func(t *testing.T) { screenerHolds(t, imaptest.NewMem(t, memimap.Options{})) })
	t.Run("dovecot", func(t *testing.T) { screenerHolds(t, imaptest.NewDovecot(t, "frank")) })
}

func screenerHolds(t *testing.T, mem imaptest.Backend) {
	r := newRuled(t, mem)
	r.screen = true
	r.a = r.open(t, "store.db")
	ctx := t.Context()
	seed := func(m imaptest.Mail, folder string, flags ...imap.Flag) {
		t.Helper()
		if m.MessageID == "" {
			m.MessageID = strings.ReplaceAll(m.Subject, " ", ".") + "@x.org"
		}
		m.Date, m.Body = time.Now(), "x"
		if m.To == "" {
			m.To = "sam@x.org"
		}
		mem.Seed(t, r.user, folder, m.Bytes(), flags...)
	}
	seed(imaptest.Mail{From: "oldie@x.example", Subject: "old news"}, "INBOX")
	seed(imaptest.Mail{From: "stranger@old.example", Subject: "old stranger"}, "INBOX")
	seed(imaptest.Mail{From: "sam@x.org", To: "pal@x.example", Subject: "plans", MessageID: "plans@x.org"}, "Sent")
	seed(imaptest.Mail{From: "mallory@evil.example", To: "victim@x.example", Subject: "forged sent"}, "Sent") // not the person's From
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	screened := func(a *Account) map[string]model.Screen {
		t.Helper()
		page, _, err := a.Stored().Cached(ctx, "", 50)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]model.Screen{}
		for _, m := range page.Messages {
			out[m.Subject] = m.Screened
		}
		return out
	}
	if got := screened(r.a); got["old news"] != model.ScreenNone || got["old stranger"] != model.ScreenNone {
		t.Fatalf("mail stored when the screener started is held: %v", got)
	}

	seed(imaptest.Mail{From: "oldie@x.example", Subject: "more news"}, "INBOX")
	seed(imaptest.Mail{From: "stranger@y.example", Subject: "hi there"}, "INBOX")
	seed(imaptest.Mail{From: "pal@x.example", Subject: "lunch"}, "INBOX")
	seed(imaptest.Mail{From: "new@z.example", Subject: "Re: plans", Headers: map[string]string{"In-Reply-To": "<plans@x.org>", "References": "<plans@x.org>"}}, "INBOX")
	seed(imaptest.Mail{From: "new2@z.example", Subject: "Re: offer", Headers: map[string]string{"References": "<plans@x.org>"}}, "INBOX") // forged References: another subject
	seed(imaptest.Mail{From: "victim@x.example", Subject: "via forged sent"}, "INBOX")
	seed(imaptest.Mail{From: "oldie@x.example", Subject: "forged oldie", Headers: map[string]string{"Authentication-Results": "mx.x.org; dmarc=fail (p=none) header.from=x.example"}}, "INBOX")
	seed(imaptest.Mail{From: "spam@y.example", Subject: "buy now"}, "INBOX", imap.FlagSeen)
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]model.Screen{"old news": model.ScreenNone, "old stranger": model.ScreenNone, "more news": model.ScreenNone,
		"hi there": model.ScreenNew, "lunch": model.ScreenNone, "Re: plans": model.ScreenNone, "Re: offer": model.ScreenNew,
		"via forged sent": model.ScreenNew, "forged oldie": model.ScreenForged, "buy now": model.ScreenNew}
	if got := screened(r.a); !screensEqual(got, want) {
		t.Fatalf("screened %v\nwant     %v\n%s", got, want, strings.Join(ruleHistory(r.a), "\n"))
	}
	pending, err := r.a.Screener().Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := subjectsOf(pending); !slices.Equal(got, []string{"buy now", "forged oldie", "via forged sent", "Re: offer", "hi there"}) {
		t.Fatalf("pending %v", got)
	}
	count, _, err := r.a.Counting().Refresh(ctx, "")
	if err != nil || count.Unread != 5 || count.Screening != 5 { // 10 unread in INBOX, 4 of them held ("buy now" is read)
		t.Fatalf("inbox unread %+v, %v; want 5 (what waits in the screener left out), 5 waiting", count, err)
	}

	if err := r.a.Screener().LetIn(ctx, "Stranger@Y.example"); err != nil {
		t.Fatal(err)
	}
	if n, err := r.a.Screener().ScreenOut(ctx, "@y.example"); err != nil || n != 1 {
		t.Fatalf("screening out y.example moved %d, %v; want 1 (stranger was let in)", n, err)
	}
	if got := r.where(t); got["buy now"] != "Archive" || got["hi there"] != "INBOX" {
		t.Fatalf("after the decisions: %v", got)
	}
	seed(imaptest.Mail{From: "spam2@y.example", Subject: "buy again"}, "INBOX")
	seed(imaptest.Mail{From: "stranger@y.example", Subject: "hi again"}, "INBOX")
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if got := r.where(t); got["buy again"] != "Archive" || got["hi again"] != "INBOX" {
		t.Fatalf("new mail after the decisions: %v\n%s", got, strings.Join(ruleHistory(r.a), "\n"))
	}

	// The cache set aside: the decisions and the start are rules.db's.
	again := r.open(t, "store2.db")
	if err := again.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	got := screened(again)
	if got["hi there"] != model.ScreenNone || got["hi again"] != model.ScreenNone || got["old stranger"] != model.ScreenNone || got["Re: offer"] != model.ScreenNew {
		t.Fatalf("after a rebuilt cache: %v", got)
	}
	decisions, err := r.a.ruling.part.Book.Decisions(ctx, nil, false)
	if err != nil || len(decisions) != 2 || decisions[0].Who != "@y.example" || decisions[1].Who != "stranger@y.example" || decisions[0].By != rulebook.ByPerson {
		t.Fatalf("decisions %+v, %v", decisions, err)
	}
}

func screensEqual(a, b map[string]model.Screen) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func subjectsOf(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Subject)
	}
	return out
}
