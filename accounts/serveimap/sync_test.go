package serveimap

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// syncClient is what the app keeps of a folder: the sync state and every
// uid below UIDNext with its flags.
type syncClient struct {
	state imapwire.SyncIn
	held  map[uint32]imapwire.FlagState
	last  imapwire.SyncOut
}

// sync brings the client up to date, page by page, as the app would.
func (sc *syncClient) sync(t *testing.T, cs *mcp.ClientSession, limit int) {
	t.Helper()
	in := sc.state
	in.Account, in.Limit = "work", limit
	for page := 0; ; page++ {
		if page > 1000 {
			t.Fatal("a sync that never ends: a page brought nothing and asked for more")
		}
		var out imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", in, &out))
		if out.Reset && in.BeforeUID == 0 {
			sc.held = map[uint32]imapwire.FlagState{}
		}
		lowest := uint32(0)
		for _, m := range out.New {
			sc.held[m.UID] = imapwire.FlagState{UID: m.UID, Seen: m.Seen, Flagged: m.Flagged, Answered: m.Answered, Forwarded: m.Forwarded}
			if lowest == 0 || m.UID < lowest {
				lowest = m.UID
			}
		}
		for _, f := range out.Flags {
			if _, ok := sc.held[f.UID]; ok {
				sc.held[f.UID] = f
			}
		}
		if out.Checked {
			present := func(uid uint32) bool {
				for _, r := range out.Present {
					if uid >= r[0] && uid <= r[1] {
						return true
					}
				}
				return false
			}
			for uid := range sc.held {
				if uid < max(sc.state.UIDNext, 1) && !present(uid) {
					delete(sc.held, uid)
				}
			}
		}
		sc.last = out
		if !out.More {
			sc.state = imapwire.SyncIn{UIDValidity: out.UIDValidity, UIDNext: out.UIDNext, HighestModSeq: out.HighestModSeq, Held: uint32(len(sc.held))}
			return
		}
		if out.Reset {
			in.UIDValidity = out.UIDValidity // the next pages continue the reset
		}
		in.BeforeUID = lowest
	}
}

// truth is the folder as another client sees it.
func truth(t *testing.T, c *imapclient.Client) map[uint32]imapwire.FlagState {
	t.Helper()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	out := map[uint32]imapwire.FlagState{}
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		return out // an empty folder
	}
	for _, b := range bufs {
		f := imapwire.FlagState{UID: uint32(b.UID)}
		for _, fl := range b.Flags {
			f.Seen = f.Seen || fl == imap.FlagSeen
			f.Flagged = f.Flagged || fl == imap.FlagFlagged
			f.Answered = f.Answered || fl == imap.FlagAnswered
			f.Forwarded = f.Forwarded || fl == imap.FlagForwarded
		}
		out[f.UID] = f
	}
	return out
}

func mustMatch(t *testing.T, what string, sc *syncClient, want map[uint32]imapwire.FlagState) {
	t.Helper()
	if !maps.Equal(sc.held, want) {
		t.Fatalf("%s: the client holds %v\nthe server has %v", what, slices.Sorted(maps.Keys(sc.held)), slices.Sorted(maps.Keys(want)))
	}
}

// countingDial counts the bytes of every IMAP connection serve-imap opens.
func countingDial(n *atomic.Int64) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return recordingDial(n, nil)
}

// recordingDial counts every byte in n and keeps what the client sends in
// sent (when not nil).
func recordingDial(n *atomic.Int64, sent *sentLog) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countedConn{Conn: c, n: n, sent: sent}, nil
	}
}

// sentLog is what a client sent its server.
type sentLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *sentLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Reset()
}

func (l *sentLog) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

type countedConn struct {
	net.Conn
	n    *atomic.Int64
	sent *sentLog
}

func (c *countedConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	k, err := c.Conn.Write(p)
	c.n.Add(int64(k))
	if c.sent != nil {
		c.sent.mu.Lock()
		c.sent.buf.Write(p[:k])
		c.sent.mu.Unlock()
	}
	return k, err
}

// Sync moves only what changed: a first sync pages through the folder
// newest first; an unchanged folder costs far fewer IMAP bytes than a
// listing (with CONDSTORE, no FETCH at all); new mail, flag changes, an
// expunge, and an expunge together with an arrival all end with the
// client holding exactly what the server has.
func TestSyncFolder(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		var bytes atomic.Int64
		cs, user := provisioned(t, b, Options{Dial: countingDial(&bytes)})
		for i := range 30 {
			b.Seed(t, user, "INBOX", mail(fmt.Sprintf("message %02d", i), "ann@example.org", time.Duration(30-i)*time.Hour))
		}
		other := b.Client(t, user)
		sc := &syncClient{held: map[uint32]imapwire.FlagState{}}
		sc.sync(t, cs, 10)
		mustMatch(t, "first sync", sc, truth(t, other))

		before := bytes.Load()
		sc.sync(t, cs, 10)
		syncBytes := bytes.Load() - before
		before = bytes.Load()
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Limit: 30}, nil))
		listBytes := bytes.Load() - before
		t.Logf("%s: unchanged folder of 30: sync %d bytes, listing %d bytes (%s)", b.Name(), syncBytes, listBytes, sc.last.Method)
		if len(sc.last.New) != 0 || sc.last.Checked {
			t.Fatalf("an unchanged folder sent changes: %+v", sc.last)
		}
		if sc.last.Method == "condstore" && (len(sc.last.Flags) != 0 || syncBytes*10 > listBytes) {
			t.Fatalf("CONDSTORE sync of an unchanged folder: %d flag states, %d bytes against %d", len(sc.last.Flags), syncBytes, listBytes)
		}

		uids := slices.Sorted(maps.Keys(sc.held))
		b.Seed(t, user, "INBOX", mail("new one", "bo@example.org", 0))
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		store := func(uid uint32, f imap.Flag) {
			if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{f}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
		}
		store(uids[3], imap.FlagFlagged)
		store(uids[4], imap.FlagSeen)
		store(uids[7], imap.FlagForwarded)
		store(uids[5], imap.FlagDeleted)
		if err := other.Expunge().Close(); err != nil {
			t.Fatal(err)
		}
		sc.sync(t, cs, 10)
		mustMatch(t, "after new mail, flags and an expunge", sc, truth(t, other))

		// An expunge and an arrival: the folder's count stays the same.
		store(uids[6], imap.FlagDeleted)
		if err := other.Expunge().Close(); err != nil {
			t.Fatal(err)
		}
		b.Seed(t, user, "INBOX", mail("another", "cy@example.org", 0))
		sc.sync(t, cs, 10)
		mustMatch(t, "after an expunge and an arrival", sc, truth(t, other))
	})
}

// A first sync in pages selects the folder once (pages spanning gaps in
// the uids too): the pages after the first
// go on in it (on Dovecot a SELECT rereads the folder's whole uid list,
// so a SELECT per page made a first sync quadratic). The next sync
// selects afresh: it needs the server's UIDNEXT and modseq as they are.
func TestSyncPagesSelectOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		var n atomic.Int64
		sent := &sentLog{}
		cs, user := provisioned(t, b, Options{Dial: recordingDial(&n, sent)})
		for i := range 25 {
			b.Seed(t, user, "INBOX", mail(fmt.Sprintf("message %02d", i), "ann@example.org", time.Duration(25-i)*time.Hour))
		}
		// Gaps in the uids: a page spans several ranges.
		other := b.Client(t, user)
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		for _, seq := range []uint32{20, 14, 12, 5} {
			if err := other.Store(imap.SeqSetNum(seq), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
		}
		if err := other.Expunge().Close(); err != nil {
			t.Fatal(err)
		}
		sent.reset()
		sc := &syncClient{held: map[uint32]imapwire.FlagState{}}
		sc.sync(t, cs, 10)
		mustMatch(t, "first sync", sc, truth(t, other))
		if got := sent.count(" SELECT "); got != 1 {
			t.Fatalf("a first sync of three pages sent %d SELECTs, want 1", got)
		}
		if got := sent.count(" SEARCH "); got != 0 {
			t.Fatalf("a first sync of three pages sent %d SEARCHes, want none (its pages go by sequence number)", got)
		}
		sc.sync(t, cs, 10)
		if got := sent.count(" SELECT "); got != 2 {
			t.Fatalf("the next sync: %d SELECTs in all, want 2", got)
		}
	})
}

// fill fetches only the uids a client lacks below its UIDNext: an
// expunged one or one at or above UIDNext does not come; a page of the
// highest, with More; another UIDVALIDITY is a reset, with nothing.
func TestSyncFillFetchesOnlyTheGap(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for i := range 12 {
			b.Seed(t, user, "INBOX", mail(fmt.Sprintf("message %02d", i), "ann@example.org", time.Duration(12-i)*time.Hour))
		}
		sc := &syncClient{held: map[uint32]imapwire.FlagState{}}
		sc.sync(t, cs, 50)
		uids := slices.Sorted(maps.Keys(sc.held))
		other := b.Client(t, user)
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		if err := other.Store(imap.UIDSetNum(imap.UID(uids[4])), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
		if err := other.Expunge().Close(); err != nil {
			t.Fatal(err)
		}
		b.Seed(t, user, "INBOX", mail("new", "bo@example.org", 0)) // at UIDNext: not a gap
		fill := func(uv uint32, limit int, rs ...[2]uint32) imapwire.SyncOut {
			var out imapwire.SyncOut
			in := imapwire.SyncIn{Account: "work", UIDValidity: uv, UIDNext: sc.state.UIDNext, HighestModSeq: sc.state.HighestModSeq, Held: 5, Fill: rs, Limit: limit}
			mustOK(t, "sync_folder", call(t, cs, "sync_folder", in, &out))
			return out
		}
		got := func(out imapwire.SyncOut) []uint32 {
			var us []uint32
			for _, m := range out.New {
				us = append(us, m.UID)
			}
			slices.Sort(us)
			return us
		}
		out := fill(sc.state.UIDValidity, 50, [2]uint32{uids[2], uids[5]}, [2]uint32{uids[11], sc.state.UIDNext + 5})
		if want := []uint32{uids[2], uids[3], uids[5], uids[11]}; !slices.Equal(got(out), want) || out.More || out.Checked || len(out.Flags) != 0 {
			t.Fatalf("fill: new %v (want %v), more %v, checked %v, %d flag states", got(out), want, out.More, out.Checked, len(out.Flags))
		}
		out = fill(sc.state.UIDValidity, 2, [2]uint32{uids[0], uids[3]})
		if want := []uint32{uids[2], uids[3]}; !slices.Equal(got(out), want) || !out.More {
			t.Fatalf("a page of a fill: new %v (want %v), more %v", got(out), want, out.More)
		}
		if out = fill(sc.state.UIDValidity+1, 50, [2]uint32{uids[0], uids[3]}); !out.Reset || len(out.New) != 0 {
			t.Fatalf("a fill of another UIDVALIDITY: reset %v, %d new", out.Reset, len(out.New))
		}
	})
}

// A changed UIDVALIDITY voids the client's state: reset, and refilled.
func TestSyncFolderUIDValidityChange(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user := provisioned(t, b, Options{})
	for i := range 5 {
		b.Seed(t, user, "INBOX", mail(fmt.Sprintf("old %d", i), "ann@example.org", time.Hour))
	}
	sc := &syncClient{held: map[uint32]imapwire.FlagState{}}
	sc.sync(t, cs, 10)
	if err := b.Srv.Recreate(user, "INBOX"); err != nil {
		t.Fatal(err)
	}
	b.Seed(t, user, "INBOX", mail("after the recreate", "ann@example.org", 0))
	sc.sync(t, cs, 10)
	if !sc.last.Reset {
		t.Fatal("a changed UIDVALIDITY did not reset")
	}
	mustMatch(t, "after the recreate", sc, truth(t, b.Client(t, user)))
}

// BenchmarkSyncUnchanged: the IMAP bytes of syncing an unchanged folder
// against listing every envelope of it, on Dovecot (CONDSTORE): 10,000
// messages with UNIBOX_BENCH_FULL=1 (goal ≤ 1/50 of the bytes), 500 in
// the smoke run.
func BenchmarkSyncUnchanged(b *testing.B) {
	n := 500
	if os.Getenv("UNIBOX_BENCH_FULL") == "1" {
		n = 10000
	}
	d := imaptest.StartDovecot(b)
	user, pass := d.NewUser(b)
	d.Deliver(b, user, n, func(i int) []byte {
		return mail(fmt.Sprintf("message %05d about the quarterly plan", i), "Sender Name <sender@example.org>", time.Duration(n-i)*time.Minute)
	})
	var bytes atomic.Int64
	cs := session(b, Options{Dial: countingDial(&bytes)})
	mustOK(b, "add_account", call(b, cs, "add_account", accountIn(d, user, pass), nil))
	// The first sync, to have a state (not measured).
	var state imapwire.SyncIn
	for before := uint32(0); ; {
		var out imapwire.SyncOut
		mustOK(b, "sync_folder", call(b, cs, "sync_folder", imapwire.SyncIn{Account: "work", BeforeUID: before, UIDValidity: state.UIDValidity, Limit: 1000}, &out))
		state = imapwire.SyncIn{Account: "work", UIDValidity: out.UIDValidity, UIDNext: out.UIDNext, HighestModSeq: out.HighestModSeq, Held: uint32(n)}
		if !out.More {
			break
		}
		before = out.New[len(out.New)-1].UID
	}
	var syncBytes, listBytes int64
	var syncTime, listTime time.Duration
	for b.Loop() {
		start, was := time.Now(), bytes.Load()
		var out imapwire.SyncOut
		mustOK(b, "sync_folder", call(b, cs, "sync_folder", state, &out))
		if len(out.New) != 0 || len(out.Flags) != 0 || out.Checked || out.Method != "condstore" {
			b.Fatalf("an unchanged folder: %+v", out)
		}
		syncTime += time.Since(start)
		syncBytes += bytes.Load() - was
		start, was = time.Now(), bytes.Load()
		for before := uint32(0); ; {
			var page imapwire.ListMessagesOut
			mustOK(b, "list_messages", call(b, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Limit: 1000, BeforeUID: before}, &page))
			if len(page.Messages) < 1000 {
				break
			}
			before = page.Messages[len(page.Messages)-1].UID
		}
		listTime += time.Since(start)
		listBytes += bytes.Load() - was
	}
	b.ReportMetric(float64(syncBytes)/float64(b.N), "sync-bytes")
	b.ReportMetric(float64(listBytes)/float64(b.N), "list-bytes")
	b.ReportMetric(float64(syncTime.Microseconds())/1000/float64(b.N), "sync-ms")
	b.ReportMetric(float64(listTime.Microseconds())/1000/float64(b.N), "list-ms")
}
