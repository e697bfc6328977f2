package drafting

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/conn"
	"unibox/model"
	"unibox/model/compose"
)

// droppedAppend is an account whose APPEND reaches the server and whose
// answer is lost with the link (the outcome unknown).
type droppedAppend struct{ *accounts.Account }

func (d droppedAppend) Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error) {
	if _, err := d.Account.Append(ctx, folder, special, raw, flags, date); err != nil {
		return model.MessageID{}, err
	}
	return model.MessageID{}, &conn.Error{Account: d.Name(), Op: "append_message", Err: errors.New("connection reset"), MaybeDone: true}
}

// Postpone, the one postpone: the copy is filed in Drafts once (an
// APPEND whose answer was lost is looked for, not filed again), is the
// person's when listed again unless the draft was found there, the
// older copy it was opened from goes by the discard's check, and the
// local draft goes only when all that is done.
func TestPostponeFilesOnceAndReplacesTheOlderCopy(t *testing.T) {
	acct := realAccount(t)
	for _, tc := range []struct {
		name        string
		older       bool // opened from a copy in Drafts
		olderOf     string
		found       bool
		via         func(*accounts.Account) Filing
		err         string
		writtenHere bool
	}{
		{name: "a new draft", writtenHere: true},
		{name: "opened from Drafts: the older copy goes", older: true, writtenHere: true},
		{name: "a found draft stays found", older: true, found: true},
		{name: "an answer lost with the link: looked for, filed once",
			via: func(a *accounts.Account) Filing { return droppedAppend{a} }, writtenHere: true},
		{name: "an older copy not this account's stays, and so does the text",
			older: true, olderOf: "Home", err: "older copy is still in Drafts", writtenHere: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			w := openWriter(t, "", -1)
			now := time.Now()
			d := compose.Draft{From: model.Address{Name: "Sam", Address: "sam@example.com"}, To: []model.Address{{Address: "bob@example.com"}},
				Subject: tc.name, Body: "later\n"}
			// A reply: reopened from Drafts it must still answer its original.
			orig := &outbox.Ref{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 7, MessageID: "<lunch@example.com>"}
			dr, err := w.box.NewDraft("Work", "reply", orig, []byte(d.Editable()))
			if err != nil {
				t.Fatal(err)
			}
			var olderID string
			if tc.older {
				old, err := d.Prepare(now.Add(-time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				id, err := acct.Append(ctx, "", "drafts", old.Saved, []string{`\Draft`}, now)
				if err != nil {
					t.Fatal(err)
				}
				olderID = old.MessageID
				dr.ServerDraft = &outbox.Ref{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID, MessageID: old.MessageID}
				if tc.olderOf != "" {
					dr.ServerDraft.Account = tc.olderOf
				}
				dr.Found = tc.found
				if err := w.box.SaveDraft(dr, nil); err != nil {
					t.Fatal(err)
				}
			}
			p, err := d.Prepare(now)
			if err != nil {
				t.Fatal(err)
			}
			var f Filing = acct
			if tc.via != nil {
				f = tc.via(acct)
			}
			err = w.Postpone(ctx, f, dr, p, now, 10*time.Second)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Postpone: %v, want %q", err, tc.err)
			}
			if n := copies(t, acct, p.MessageID); n != 1 {
				t.Errorf("%d copies in Drafts, want 1", n)
			}
			if tc.older {
				if n, want := copies(t, acct, olderID), map[bool]int{true: 1}[tc.err != ""]; n != want {
					t.Errorf("%d older copies, want %d", n, want)
				}
			}
			_, _, lerr := w.box.Draft(dr.ID)
			if kept := lerr == nil; kept != (tc.err != "") {
				t.Errorf("local draft kept %v, want %v", kept, tc.err != "")
			}
			id, _, _ := acct.FindMessageID(ctx, "", "drafts", p.MessageID)
			if got := w.WrittenHere(model.Message{ID: id, MessageID: p.MessageID}); got != tc.writtenHere {
				t.Errorf("listed again, written here %v, want %v", got, tc.writtenHere)
			}
			kind, o := w.Answers(model.Message{ID: id, MessageID: p.MessageID})
			if answers := kind == "reply" && o != nil && *o == *orig; answers != tc.writtenHere {
				t.Errorf("listed again, it answers %q %+v; want the original %v", kind, o, tc.writtenHere)
			}
		})
	}
}

// copies counts the messages in Work's Drafts with Message-ID id.
func copies(t *testing.T, acct *accounts.Account, id string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	page, err := acct.List(ctx, accounts.ListOptions{Folder: "Drafts", Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range page.Messages {
		if strings.Trim(m.MessageID, "<>") == id {
			n++
		}
	}
	return n
}
