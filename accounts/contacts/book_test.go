package contacts

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/send/outbox"
	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/contact"
)

var (
	ctx   = context.Background()
	work  = store.Key{Name: "Work", Host: "imap.work.example", User: "sam"}
	home  = store.Key{Name: "Home", Host: "imap.home.example", User: "sam"}
	me    = model.Address{Name: "Sam", Address: "sam@work.example"}
	alias = model.Address{Name: "Sam", Address: "Sam@Home.example"}
	now   = time.Now().UTC().Truncate(time.Second)
)

// rig is a real store file, an outbox on disk, and the folders stored so
// far (each listing is a folder's whole content).
type rig struct {
	t       *testing.T
	st      *store.Store
	box     *outbox.Box
	folders map[store.Key]map[string][]model.Message
	uid     uint32
}

func newRig(t *testing.T) *rig {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "cache", "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	box, err := outbox.Open(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []store.Key{work, home} {
		if err := st.SetSent(ctx, k, "Sent"); err != nil {
			t.Fatal(err)
		}
	}
	return &rig{t: t, st: st, box: box, folders: map[store.Key]map[string][]model.Message{}}
}

// mail stores a message of folder, daysAgo old.
func (r *rig) mail(k store.Key, folder string, daysAgo int, from model.Address, to ...model.Address) {
	r.t.Helper()
	r.mailWith(k, folder, daysAgo, nil, from, to...)
}

// mailWith stores a message and, with headers, its body as opened.
func (r *rig) mailWith(k store.Key, folder string, daysAgo int, headers []model.Header, from model.Address, to ...model.Address) {
	r.t.Helper()
	r.uid++
	m := model.Message{ID: model.MessageID{Account: k.Name, Folder: folder, UIDValidity: 1, UID: r.uid},
		MessageID: fmt.Sprintf("%d@x", r.uid), From: from, To: to, Cc: []model.Address{}, Subject: "s",
		Date: now.AddDate(0, 0, -daysAgo)}
	if r.folders[k] == nil {
		r.folders[k] = map[string][]model.Message{}
	}
	r.folders[k][folder] = append(r.folders[k][folder], m)
	if err := r.st.Save(ctx, k, store.Listing{Folder: folder, UIDValidity: 1, Messages: slices.Clone(r.folders[k][folder]), At: now}); err != nil {
		r.t.Fatal(err)
	}
	if headers != nil {
		if err := r.st.SaveBody(ctx, k, model.Body{Message: m, Headers: headers, Text: "x"}, 1<<20); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *rig) book(external contact.Book) *Book {
	return New(Options{Store: r.st, Outbox: r.box, External: external, Sources: []Source{
		{Account: "Work", Key: work, Own: []string{me.Address}},
		{Account: "Home", Key: home, Own: []string{alias.Address}},
	}})
}

func lookup(t *testing.T, b *Book, q string) []contact.Contact {
	t.Helper()
	got, err := b.Lookup(ctx, q, 10)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func line(cs []contact.Contact) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s=%q s%d r%d", c.Address, c.Name, c.Sent, c.Received))
	}
	return strings.Join(out, " | ")
}

// A stranger's "Mom" <evil@…>, however often he writes, never completes
// "mom" as if he were Mom: the address the person wrote to as Mom comes
// first, his after it beside his own address; a forged From of Mom's
// address never renames her; a message in Sent from someone else's
// address vouches for nobody.
func TestMomSpoof(t *testing.T) {
	r := newRig(t)
	mom := model.Address{Name: "Mom", Address: "mother@family.example"}
	r.mail(work, "Sent", 200, me, mom)
	for i := range 30 {
		r.mail(work, "INBOX", i, model.Address{Name: "Mom", Address: "evil@attacker.example"}, me)
	}
	r.mail(work, "INBOX", 0, model.Address{Name: "Evil Corp", Address: "MOTHER@family.example"}, me)
	r.mail(work, "Sent", 0, model.Address{Name: "Mom", Address: "evil@attacker.example"}, model.Address{Name: "Victim", Address: "victim@bank.example"})
	b := r.book(nil)
	got := lookup(t, b, "mom")
	if len(got) != 2 || got[0].Address != "mother@family.example" || got[0].Name != "Mom" || got[0].Sent != 1 || got[0].Received != 1 ||
		got[1].Address != "evil@attacker.example" || got[1].Name != "Mom" || got[1].Sent != 0 || got[1].Received != 30 {
		t.Fatalf("mom: %s", line(got))
	}
	if got := lookup(t, b, "evil corp"); len(got) != 0 {
		t.Fatalf("a received name renamed a written one: %s", line(got))
	}
	if got := lookup(t, b, "victim"); len(got) != 0 {
		t.Fatalf("a forged Sent message vouched: %s", line(got))
	}
}

// Written to, then heard from, then lists and robots; within each, often
// and recently; across accounts (each with its own From and aliases)
// one contact per address, counts added up, the newest name written.
func TestRanking(t *testing.T) {
	r := newRig(t)
	ann := model.Address{Name: "Ann Keller", Address: "ann@example.org"}
	anton := model.Address{Name: "Anton", Address: "anton@example.org"}
	anja := model.Address{Name: "Anja", Address: "anja@example.org"}
	list := model.Address{Name: "Announce", Address: "announce@lists.example.org"}
	robot := model.Address{Name: "Anything Shop", Address: "noreply@anything.example"}
	for i := range 5 {
		r.mail(work, "Sent", 300+i, me, anton) // often, long ago
	}
	r.mail(work, "Sent", 2, me, ann) // once, lately
	r.mail(home, "Sent", 1, alias, model.Address{Name: "Ann K.", Address: "Ann@Example.org"}, list)
	for i := range 20 {
		r.mail(work, "INBOX", i, anja, me)
		r.mail(home, "INBOX", i, robot, alias)
	}
	// A post to the list, opened: its List-Id marks the list.
	r.mailWith(home, "INBOX", 0, []model.Header{{Name: "List-Id", Value: "<announce.lists.example.org>"}}, anja, list)
	r.mail(work, "INBOX", 0, model.Address{Name: "Me Elsewhere", Address: "sam@work.example"}, anja) // own: not a correspondent
	b := r.book(nil)
	got := lookup(t, b, "an")
	want := []string{"Ann@Example.org", "anton@example.org", "anja@example.org", "noreply@anything.example", "announce@lists.example.org"}
	var addrs []string
	for _, c := range got {
		addrs = append(addrs, c.Address)
	}
	if !slices.Equal(addrs, want) {
		t.Fatalf("got  %s\nwant %q", line(got), want)
	}
	if got[0].Sent != 2 || got[0].Name != "Ann K." || !got[3].List || !got[4].List || got[0].List {
		t.Fatalf("ann across accounts / lists: %s", line(got))
	}
	if got := lookup(t, b, "sam"); len(got) != 0 {
		t.Fatalf("the person's own address as a contact: %s", line(got))
	}
}

// The outbox's record vouches where the store has nothing (a wiped
// cache, save_sent = never); a send recorded, or new mail stored, shows
// at the next lookup.
func TestRecordAndChanges(t *testing.T) {
	r := newRig(t)
	if err := r.box.RecordSentTo("Work", []string{"Zoe@Example.org"}); err != nil {
		t.Fatal(err)
	}
	r.mail(work, "INBOX", 1, model.Address{Name: "Zoe Z", Address: "zoe@example.org"}, me)
	b := r.book(nil)
	if got := lookup(t, b, "zo"); len(got) != 1 || got[0].Sent != 1 || got[0].Received != 1 || got[0].Name != "Zoe Z" {
		t.Fatalf("recorded and heard: %s", line(got))
	}
	if got := lookup(t, b, "ya"); len(got) != 0 {
		t.Fatalf("ya: %s", line(got))
	}
	if err := r.box.RecordSentTo("Home", []string{"yann@example.org"}); err != nil {
		t.Fatal(err)
	}
	if got := lookup(t, b, "ya"); len(got) != 1 || got[0].Address != "yann@example.org" || got[0].Sent != 1 {
		t.Fatalf("after a send: %s", line(got))
	}
	r.mail(work, "INBOX", 0, model.Address{Name: "Yara", Address: "yara@example.org"}, me)
	if got := lookup(t, b, "ya"); len(got) != 2 || got[1].Address != "yara@example.org" {
		t.Fatalf("after new mail: %s", line(got))
	}
	// The cache wiped: the record still vouches.
	wiped := New(Options{Outbox: r.box, Sources: []Source{{Account: "Work", Key: work, Own: []string{me.Address}}}})
	if got := lookup(t, wiped, "zo"); len(got) != 1 || got[0].Sent != 1 {
		t.Fatalf("without the store: %s", line(got))
	}
}

// address_book_cmd's answer is merged (a real child): after the
// addresses written to, before those only heard from; its name replaces
// only a received one. A failing book costs its own answer, not the
// index's.
func TestExternalBook(t *testing.T) {
	r := newRig(t)
	r.mail(work, "Sent", 3, me, model.Address{Name: "Kim", Address: "kim@example.org"})
	r.mail(work, "INBOX", 1, model.Address{Name: "kimmy (as he says)", Address: "kimmo@example.org"}, me)
	ext := config.Compose{AddressBookCmd: []string{"sh", "-c", `printf 'kimmo@example.org\tKimmo Virtanen\nkira@example.org\tKira\nkim@example.org\tKim from the book\n'`, "sh", "{query}"}}.AddressBook()
	got := lookup(t, r.book(ext), "ki")
	if line(got) != `kim@example.org="Kim" s1 r0 | kimmo@example.org="Kimmo Virtanen" s0 r1 | kira@example.org="Kira" s0 r0` {
		t.Fatalf("merged: %s", line(got))
	}
	broken := config.Compose{AddressBookCmd: []string{"sh", "-c", `echo broken >&2; exit 4`, "sh", "{query}"}}.AddressBook()
	got, err := r.book(broken).Lookup(ctx, "ki", 10)
	if err == nil || !strings.Contains(err.Error(), "address_book_cmd") || len(got) != 2 {
		t.Fatalf("a broken book: %s, %v", line(got), err)
	}
}
