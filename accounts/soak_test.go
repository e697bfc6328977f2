package accounts

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

var soakFor = flag.Duration("soak", 0, "run TestSoak for this long (CI: 30s)")

// expect is the journal's view of one message: where it should be and
// with which flags, unless an outcome left it uncertain.
type expect struct {
	folder    string
	seen      bool
	flagged   bool
	uncertain bool
}

type soakAccount struct {
	acct   *Account
	srv    *memimap.Server
	faults *memimap.Faults
	proxy  *imaptest.Proxy
	user   string
	mu     sync.Mutex
	want   map[string]*expect // by Message-ID
	counts map[string]int
}

// TestSoak: three accounts under continuous reads and writes while random
// faults hit children, connections and servers. Afterwards every message
// is exactly once on its server (nothing lost, nothing doubled), in the
// folder and with the flags the intent journal says, unless its outcome
// was reported unknown; no goroutine or child leaks; memory stays flat.
func TestSoak(t *testing.T) {
	if *soakFor <= 0 {
		t.Skip("run with -soak 30s (.ci/run does)")
	}
	var accts []*soakAccount
	for i := range 3 {
		accts = append(accts, newSoakAccount(t, i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), *soakFor)
	defer cancel()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var wg sync.WaitGroup
	for _, sa := range accts {
		wg.Go(func() { sa.reader(ctx) })
		wg.Go(func() { sa.writer(ctx) })
	}
	faults := 0
	wg.Go(func() { faults = chaos(ctx, accts) })
	wg.Wait()

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	for _, sa := range accts {
		sa.verify(t)
		t.Logf("%s: %v", sa.acct.Name(), sa.counts)
	}
	t.Logf("%d faults in %s; heap in use %d KB → %d KB", faults, *soakFor, before.HeapInuse>>10, after.HeapInuse>>10)
	if after.HeapInuse > 2*before.HeapInuse+32<<20 {
		t.Errorf("memory grew from %d KB to %d KB", before.HeapInuse>>10, after.HeapInuse>>10)
	}
}

func newSoakAccount(t *testing.T, i int) *soakAccount {
	faults := &memimap.Faults{}
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive}); err != nil {
		t.Fatal(err)
	}
	sa := &soakAccount{srv: srv, faults: faults, user: "sam", want: map[string]*expect{}, counts: map[string]int{}}
	for j := range 30 {
		id := fmt.Sprintf("soak-%d-%d@unibox.test", i, j)
		raw := imaptest.Mail{From: "a@x.org", To: "sam@x.org", Subject: id, Date: time.Now().Add(-time.Duration(j) * time.Minute), MessageID: id, Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
		sa.want[id] = &expect{folder: "INBOX"}
	}
	sa.proxy = imaptest.NewProxy(t, srv.Addr())
	host, port := splitAddr(sa.proxy.Addr())
	cfg := &config.Config{Accounts: []config.Account{{Name: fmt.Sprintf("Soak%d", i), Kind: "imap", Host: host, Port: port, Security: "none", Username: "sam"}}}
	cfg.Resilience = config.Resilience{
		ProbeInterval: config.Duration{Duration: 100 * time.Millisecond}, ProbeTimeout: config.Duration{Duration: 500 * time.Millisecond},
		CallTimeout: config.Duration{Duration: 3 * time.Second}, IMAPCommandTimeout: config.Duration{Duration: 500 * time.Millisecond},
		BackoffBase: config.Duration{Duration: 50 * time.Millisecond}, BackoffCap: config.Duration{Duration: 500 * time.Millisecond},
		TerminateAfter: config.Duration{Duration: 100 * time.Millisecond},
	}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	sa.acct = set.Accounts[0]
	return sa
}

func (sa *soakAccount) count(what string) {
	sa.mu.Lock()
	sa.counts[what]++
	sa.mu.Unlock()
}

func (sa *soakAccount) reader(ctx context.Context) {
	for ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := sa.acct.List(cctx, ListOptions{Limit: 20})
		cancel()
		if err != nil {
			sa.count("read-failed")
			time.Sleep(20 * time.Millisecond)
		} else {
			sa.count("read-ok")
		}
	}
}

// writer is the account's only writer, so the journal knows each
// message's expected state exactly.
func (sa *soakAccount) writer(ctx context.Context) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for ctx.Err() == nil {
		folder := "INBOX"
		if rng.IntN(3) == 0 {
			folder = "Archive"
		}
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		page, err := sa.acct.List(cctx, ListOptions{Folder: folder, Limit: 50})
		if err != nil || len(page.Messages) == 0 {
			cancel()
			time.Sleep(20 * time.Millisecond)
			continue
		}
		m := page.Messages[rng.IntN(len(page.Messages))]
		var op model.Op
		switch k := rng.IntN(4); {
		case k == 0:
			op = model.Op{Action: model.ActSetSeen, Value: !m.Seen}
		case k == 1:
			op = model.Op{Action: model.ActSetFlagged, Value: !m.Flagged}
		case folder == "INBOX":
			op = model.Op{Action: model.ActArchive}
		default:
			op = model.Op{Action: model.ActMove, To: "INBOX"}
		}
		res, err := sa.acct.Apply(cctx, op, folder, page.UIDValidity, []model.Message{m})
		cancel()
		sa.record(m, op, res, err)
	}
}

func (sa *soakAccount) record(m model.Message, op model.Op, res []model.ItemResult, err error) {
	sa.mu.Lock()
	defer sa.mu.Unlock()
	w := sa.want[m.MessageID]
	if w == nil {
		sa.counts["unknown-message"]++
		return
	}
	if err != nil {
		sa.counts["write-refused"]++ // nothing was sent
		return
	}
	r := res[0]
	switch r.Kind {
	case model.ResultDone:
		sa.counts["write-done"]++
		if r.Reconciled {
			sa.counts["write-reconciled"]++
		}
		switch op.Action {
		case model.ActSetSeen:
			w.seen = op.Value
		case model.ActSetFlagged:
			w.flagged = op.Value
		case model.ActArchive:
			w.folder = "Archive"
		case model.ActMove:
			w.folder = op.To
		}
		if r.Err != "" { // done, but with a caveat (a copy left behind)
			w.uncertain = true
		}
	case model.ResultFailed:
		sa.counts["write-failed"]++
	default:
		sa.counts["write-unknown"]++
		w.uncertain = true
	}
}

// chaos hits a random account with a random fault, a few times a second.
func chaos(ctx context.Context, accts []*soakAccount) int {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n
		case <-time.After(time.Duration(150+rng.IntN(350)) * time.Millisecond):
		}
		sa := accts[rng.IntN(len(accts))]
		n++
		switch rng.IntN(5) {
		case 0:
			for _, pid := range imaptest.ChildPIDs() {
				if rng.IntN(3) == 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		case 1:
			sa.proxy.Drop()
		case 2:
			up := sa.proxy.Down()
			time.Sleep(time.Duration(100+rng.IntN(400)) * time.Millisecond)
			up()
		case 3:
			sa.faults.DropAfter([]string{"MOVE", "STORE"}[rng.IntN(2)], 1)
		case 4:
			restore := sa.proxy.Silence()
			time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
			restore()
		}
	}
}

// verify reads the server directly and checks it against the journal.
func (sa *soakAccount) verify(t *testing.T) {
	t.Helper()
	c, err := imapclient.DialInsecure(sa.srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(sa.user, "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, folder := range []string{"INBOX", "Archive"} {
		sel, err := c.Select(folder, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if sel.NumMessages == 0 {
			continue
		}
		set := imap.SeqSet{}
		set.AddRange(1, sel.NumMessages)
		msgs, err := c.Fetch(set, &imap.FetchOptions{Envelope: true, Flags: true}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			id := m.Envelope.MessageID
			seen[id]++
			w := sa.want[id]
			if w == nil {
				t.Errorf("%s: unexpected message %s in %s", sa.acct.Name(), id, folder)
				continue
			}
			if w.uncertain {
				continue
			}
			hasSeen, hasFlag := false, false
			for _, f := range m.Flags {
				hasSeen = hasSeen || f == imap.FlagSeen
				hasFlag = hasFlag || f == imap.FlagFlagged
			}
			if folder != w.folder || hasSeen != w.seen || hasFlag != w.flagged {
				t.Errorf("%s: %s is in %s seen=%v flagged=%v; the journal says %s seen=%v flagged=%v",
					sa.acct.Name(), id, folder, hasSeen, hasFlag, w.folder, w.seen, w.flagged)
			}
		}
	}
	for id := range sa.want {
		if seen[id] != 1 {
			t.Errorf("%s: %s is on the server %d times: lost or doubled", sa.acct.Name(), id, seen[id])
		}
	}
}

func splitAddr(addr string) (string, int) {
	var host string
	var port int
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			host = addr[:i]
			fmt.Sscanf(addr[i+1:], "%d", &port)
			break
		}
	}
	return host, port
}
