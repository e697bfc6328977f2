package accounts

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
	"unibox/model"
)

// cutAt is where the proxy cuts a link (limit_data, server to client):
// past a fresh link's greeting, login, SELECT and UID SEARCH (a few KiB),
// well inside the FETCH of a page of syncPage envelopes (tens of KiB).
// Every cut is checked to have fallen inside a FETCH response.
const cutAt = 16 << 10

// A first sync of a folder of three full pages, through the real
// serve-imap child and a proxy that cuts the IMAP link in the middle of a
// page's FETCH response (toxiproxy's limit_data, armed once a page is
// stored). The sync either finishes (the child dials again by itself) or
// fails with a classified error, and the next Sync resumes below what is
// stored. Either way: every progress report is exactly what the store
// holds, the newest of the server's uids with no gap (a duplicate fails
// storedUIDs), each page is reported once, nothing of a cut page is
// stored, and at the end the store holds exactly the server's messages,
// flags and attachment marks (a page cut mid-FETCH is fetched again in
// full, not taken for a server that chokes on BODYSTRUCTURE). On the
// in-process server and on Dovecot.
func TestSyncCutMidFetch(t *testing.T) {
	// step is one Sync call. cutAfter: arm the cut once this call has
	// stored that many pages (0: no cut). once: the cut is removed as soon
	// as it has fallen, so the child's own re-dial gets through (or, were
	// it quicker than the test, is cut too: the call fails, classified,
	// and the next resumes; both are checked); without once every link is
	// cut until the call returns. listBelow: before the
	// call, list the page of older mail just below what the store holds,
	// as a face paging down does (the listing stores it too). arrive:
	// before the call, new mail arrives, above where the first sync began.
	type step struct {
		cutAfter  int
		once      bool
		listBelow bool
		arrive    bool
	}
	// Names stay short: Dovecot's sockets live under t.TempDir(), named
	// after the test, and a unix socket path has 108 bytes.
	tests := []struct {
		name  string
		steps []step
	}{
		// Cut once mid-page: the child dials again and the sync finishes.
		{"cut once", []step{{cutAfter: 1, once: true}}},
		// Cut on every dial: the sync fails, the next resumes.
		{"cut on every dial", []step{{cutAfter: 1}, {}}},
		// The resumed sync cut on a later page, then resumed again.
		{"resume cut again", []step{{cutAfter: 1}, {cutAfter: 1}, {}}},
		// The resumed sync cut once on a later page: it finishes.
		{"resume cut once", []step{{cutAfter: 1}, {cutAfter: 1, once: true}}},
		// Older mail listed between the cut and the resume.
		{"listed before resume", []step{{cutAfter: 1}, {listBelow: true}}},
		// New mail between the cut and the resume: the first sync ends at
		// the top it began at, and the next sync brings it.
		{"arrival before resume", []step{{cutAfter: 1}, {arrive: true}}},
	}
	for _, bk := range syncBackends {
		t.Run(bk.name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					t.Parallel() // a server, a child and a store of its own
					const n = 3 * syncPage
					b, user, pass := bk.start(t, n, func(i int) []byte {
						m := imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("message %03d", i),
							Date: time.Now().Add(-time.Duration(n-i) * time.Minute), Body: "x"}
						if i%7 == 0 {
							m.Attach = map[string][]byte{"notes.txt": []byte("an attachment")}
						}
						return m.Bytes()
					})
					flagEvery(t, b, user, 5)
					want := folderUIDs(t, b, user)
					if len(want) != n {
						t.Fatalf("seeded %d messages, the server has %d", n, len(want))
					}
					uids := slices.Sorted(maps.Keys(want))
					a := syncAccount(t, b, user, pass)
					p := b.Proxy()
					ctx := context.Background()

					// Every progress report is checked against the store as
					// it is made: it counts exactly the stored rows, which are
					// the server's newest with no gap, and each page comes
					// once (a floor recorded too high would fetch some again:
					// more pages; too low, a gap).
					var last uint32
					total := uint32(n) // the server's count, as progress must say
					reports, maxReports := 0, n/syncPage
					check := func(pr SyncProgress) {
						t.Helper()
						got := storedUIDs(t, a) // fails on a duplicate
						if reports++; reports > maxReports {
							t.Fatalf("progress report %d %+v: a folder of %d pages of %d (a page fetched twice?)", reports, pr, n/syncPage, syncPage)
						}
						if pr.Total != total || int(pr.Stored) != len(got) || pr.Stored <= last {
							t.Fatalf("progress %+v after %d: the store holds %d of %d", pr, last, len(got), total)
						}
						for _, u := range uids[max(n-len(got), 0):] { // the arrivals, if fetched, are above them
							if _, ok := got[u]; !ok {
								t.Fatalf("%d stored but not uid %d: a gap among the newest", len(got), u)
							}
						}
						last = pr.Stored
					}
					var err error
					for i, s := range tt.steps {
						if s.listBelow {
							got := storedUIDs(t, a)
							floor := slices.Min(slices.Collect(maps.Keys(got)))
							if _, err := a.List(ctx, ListOptions{BeforeUID: floor, Limit: 50}); err != nil {
								t.Fatalf("listing below uid %d: %v", floor, err)
							}
							if held := len(storedUIDs(t, a)); held != len(got)+50 {
								t.Fatalf("the listing stored %d rows, want 50", held-len(got))
							}
						}
						if s.arrive {
							for i := range 3 {
								b.Seed(t, user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", Subject: fmt.Sprintf("arrived %d", i), Date: time.Now(), Body: "x"}.Bytes())
							}
							total += 3
							maxReports++ // the threads' steps look at the folder first: mail that came is fetched then
						}
						var cuts []imaptest.Cut
						var armed bool
						cuts, armed, err = syncCut(t, a, p, s.cutAfter, s.once, check)
						if armed != (s.cutAfter > 0) || (len(cuts) > 0) != armed {
							t.Fatalf("step %d: armed %v, %d cuts (want a cut after page %d)", i, armed, len(cuts), s.cutAfter)
						}
						for _, c := range cuts {
							if !midFetch(c.Tail) {
								t.Fatalf("step %d: a cut fell outside a FETCH response; the last bytes through:\n%q", i, c.Tail)
							}
						}
						switch {
						case err == nil:
							if armed && !s.once {
								t.Fatalf("step %d: the sync finished though every link was cut", i)
							}
						case conn.ClassOf(err) == conn.ClassUnavailable && armed:
							// Classified as the server gone, and nothing of the
							// cut page is stored, not even part of it.
							if held := len(storedUIDs(t, a)); uint32(held) != last {
								t.Fatalf("step %d: the failed sync left %d rows, progress said %d", i, held, last)
							}
							if err := a.Refresh(ctx); err != nil {
								t.Fatalf("step %d: refresh after the cut: %v", i, err)
							}
						default:
							t.Fatalf("step %d: %v (class %s)", i, err, conn.ClassOf(err))
						}
						t.Logf("step %d: %d cuts, %d stored, err %v", i, len(cuts), last, err)
					}
					if err != nil { // the last step was cut for good: one more resumes
						if err := a.Sync(ctx, "", check); err != nil {
							t.Fatalf("the sync after the last cut: %v", err)
						}
					}
					if last < n || reports < n/syncPage {
						t.Fatalf("progress ended at %d of %d after %d reports", last, n, reports)
					}
					if got := storedUIDs(t, a); !maps.Equal(got, want) && !maps.Equal(got, folderUIDs(t, b, user)) {
						// The first n, or all with what arrived (fetched by a
						// threads' step, which looks at the folder first).
						t.Fatalf("%d stored, %d on the server (or flags differ)", len(got), len(want))
					}
					if total != n { // what arrived comes with the next sync
						if err := a.Sync(ctx, "", nil); err != nil {
							t.Fatal(err)
						}
						if got, want := storedUIDs(t, a), folderUIDs(t, b, user); !maps.Equal(got, want) {
							t.Fatalf("after the sync that follows: %d stored, %d on the server", len(got), len(want))
						}
					}
					if got, want := storedAttachments(t, a), folderAttachments(t, b, user); !maps.Equal(got, want) {
						var lost []uint32
						for u, w := range want {
							if w && !got[u] {
								lost = append(lost, u)
							}
						}
						t.Fatalf("attachment marks differ: %d messages with attachments stored without (%v)", len(lost), slices.Sorted(slices.Values(lost)))
					}
				})
			}
		})
	}
}

// syncCut runs one Sync of a's inbox, each page reported to check; once
// cutAfter pages are in (0: never) it arms the cut: limit_data on the
// server's stream, so a link is closed cutAt bytes into what it carries
// next, mid-FETCH. once: the cut is removed as soon as it has fallen (the
// child's own dial after it gets through, unless it is quicker than this
// test's goroutine: then it is cut too); else every link is cut until the
// Sync returns. It returns the cuts that fell, whether it armed, and the
// Sync's error.
func syncCut(t *testing.T, a *Account, p *imaptest.Proxy, cutAfter int, once bool, check func(SyncProgress)) (cuts []imaptest.Cut, armed bool, err error) {
	t.Helper()
	cuts, fell := p.Cuts()
	before := len(cuts)
	var disarm func()
	// A failed check ends the test inside Sync: the cut goes all the same.
	defer func() {
		if disarm != nil {
			disarm()
		}
	}()
	pages := 0
	err = a.Sync(context.Background(), "", func(pr SyncProgress) {
		check(pr)
		if pages++; pages != cutAfter {
			return
		}
		remove := p.Toxic(t, "limit_data", "downstream", fmt.Sprintf(`{"bytes": %d}`, cutAt))
		disarm = remove
		if once {
			stop, removed := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(removed)
				select {
				case <-fell:
				case <-stop:
				}
				remove()
			}()
			disarm = func() { close(stop); <-removed }
		}
	})
	if armed = disarm != nil; armed {
		disarm()
		disarm = nil
	}
	cuts, _ = p.Cuts()
	return cuts[before:], armed, err
}

// syncBackends are the servers the cut is made on: each starts with an
// INBOX of n messages (mail(i) for i in [0, n)) and returns the backend,
// a user and its password.
var syncBackends = []struct {
	name  string
	start func(t *testing.T, n int, mail func(int) []byte) (imaptest.Backend, string, string)
}{
	{"memimap", func(t *testing.T, n int, mail func(int) []byte) (imaptest.Backend, string, string) {
		b := imaptest.NewMem(t, memimap.Options{})
		user, pass := b.NewUser(t)
		for i := range n {
			b.Seed(t, user, "INBOX", mail(i))
		}
		return b, user, pass
	}},
	// A private instance: the shared one's users belong to other packages.
	{"dovecot", func(t *testing.T, n int, mail func(int) []byte) (imaptest.Backend, string, string) {
		b := imaptest.StartDovecot(t)
		user, pass := b.NewUser(t)
		b.Deliver(t, user, n, mail)
		return b, user, pass
	}},
}

// syncAccount is storedAccount on any backend: user's account through
// the backend's proxy and a real serve-imap child, with a store of its
// own. Failures cool down for a minute: only Refresh dials again.
func syncAccount(t *testing.T, b imaptest.Backend, user, pass string) *Account {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: b.Host(), Port: b.Port(), Security: "none", Username: user}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Store: Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0]
}

// folderUIDs is serverUIDs on any backend: INBOX as another client sees
// it, uid → flagged.
func folderUIDs(t *testing.T, b imaptest.Backend, user string) map[uint32]bool {
	t.Helper()
	out := map[uint32]bool{}
	for _, m := range fetchAll(t, b, user, &imap.FetchOptions{UID: true, Flags: true}) {
		out[uint32(m.UID)] = slices.Contains(m.Flags, imap.FlagFlagged)
	}
	return out
}

// folderAttachments is uid → whether the server describes an attachment.
func folderAttachments(t *testing.T, b imaptest.Backend, user string) map[uint32]bool {
	t.Helper()
	out := map[uint32]bool{}
	for _, m := range fetchAll(t, b, user, &imap.FetchOptions{UID: true, BodyStructure: &imap.FetchItemBodyStructure{}}) {
		mp, ok := m.BodyStructure.(*imap.BodyStructureMultiPart)
		out[uint32(m.UID)] = ok && mp.Subtype == "mixed"
	}
	return out
}

func fetchAll(t *testing.T, b imaptest.Backend, user string, opts *imap.FetchOptions) []*imapclient.FetchMessageBuffer {
	t.Helper()
	c := b.Client(t, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	bufs, err := c.Fetch(all, opts).Collect()
	if err != nil {
		t.Fatal(err)
	}
	return bufs
}

// storedAttachments is uid → has_attachments as the store holds it.
func storedAttachments(t *testing.T, a *Account) map[uint32]bool {
	t.Helper()
	return storedBy(t, a, func(m model.Message) bool { return m.HasAttachments })
}

// flagEvery flags every k-th message of user's INBOX, as another client.
func flagEvery(t *testing.T, b imaptest.Backend, user string, k int) {
	t.Helper()
	c := b.Client(t, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var set imap.UIDSet
	for _, m := range fetchAll(t, b, user, &imap.FetchOptions{UID: true}) {
		if m.UID%imap.UID(k) == 0 {
			set.AddNum(m.UID)
		}
	}
	if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
}

// fetchLine starts a message's FETCH response; tagged is a command's
// completion (untagged ones start with "*").
var (
	fetchLine = regexp.MustCompile(`\* \d+ FETCH \(`)
	tagged    = regexp.MustCompile(`\r\n[A-Za-z0-9.]+ (OK|NO|BAD)( |\r)`)
)

// midFetch reports bytes that end inside a FETCH response: a message's
// FETCH data began, and no command completed after it.
func midFetch(tail []byte) bool {
	at := fetchLine.FindAllIndex(tail, -1)
	if len(at) == 0 {
		return false
	}
	return !tagged.Match(tail[at[len(at)-1][0]:])
}
