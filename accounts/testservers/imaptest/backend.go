package imaptest

import (
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/memimap"
)

// Backend is a real IMAP server for a test, reached through a proxy.
type Backend interface {
	Name() string
	// Host and Port are the proxy's: every client connection can be cut.
	Host() string
	Port() int
	// NewUser returns a user with an empty INBOX and the special-use
	// folders Archive, Trash, Sent, Drafts, Junk.
	NewUser(t testing.TB) (user, password string)
	// Seed appends a raw message and returns its uid.
	Seed(t testing.TB, user, folder string, raw []byte, flags ...imap.Flag) uint32
	Proxy() *Proxy
	// Client is another client of user's mailbox (a phone, webmail),
	// logged in straight to the server, not through the proxy.
	Client(t testing.TB, user string) *imapclient.Client
}

var specialFolders = map[string]imap.MailboxAttr{
	"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash, "Sent": imap.MailboxAttrSent,
	"Drafts": imap.MailboxAttrDrafts, "Junk": imap.MailboxAttrJunk,
}

// Mem is go-imap's in-process server (imapmemserver with special-use).
type Mem struct {
	Srv   *memimap.Server
	proxy *Proxy
	n     atomic.Int32
}

// NewMem starts an in-process server for the test.
func NewMem(t testing.TB, opts memimap.Options) *Mem {
	t.Helper()
	srv, err := memimap.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &Mem{Srv: srv, proxy: NewProxy(t, srv.Addr())}
}

func (m *Mem) Name() string  { return "memimap" }
func (m *Mem) Proxy() *Proxy { return m.proxy }
func (m *Mem) Host() string  { return host(m.proxy.Addr()) }
func (m *Mem) Port() int     { return port(m.proxy.Addr()) }
func (m *Mem) NewUser(t testing.TB) (string, string) {
	name := fmt.Sprintf("user%d", m.n.Add(1))
	if err := m.Srv.AddUser(name, name+"-pw", specialFolders); err != nil {
		t.Fatal(err)
	}
	return name, name + "-pw"
}

// Client is another client of user's mailbox; it closes with the test.
func (m *Mem) Client(t testing.TB, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(m.Srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, user+"-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

func (m *Mem) Seed(t testing.TB, user, folder string, raw []byte, flags ...imap.Flag) uint32 {
	uid, err := m.Srv.Append(user, folder, raw, flags, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return uid
}

// Dovecot is the throwaway Dovecot that .ci/dovecot.sh started; its
// address comes from UNIBOX_DOVECOT_ADDR.
type Dovecot struct {
	addr  string
	proxy *Proxy
	users []string
	next  int

	// seeders are one logged-in connection per user that Seed appends
	// through: a login per message made the tests that seed hundreds
	// spend most of their time logging in (600 seeds took 44 s under
	// the race detector). They close with the test that made d.
	seedMu  sync.Mutex
	seeders map[string]*imapclient.Client
}

// dovecotUsers are .ci/dovecot.sh's users. Packages take distinct ones so
// that packages testing in parallel never share a mailbox.
var dovecotMu sync.Mutex

// NewDovecot returns the Dovecot backend, or skips the test when none runs
// (and fails it under CI, where .ci/run must have started one).
func NewDovecot(t testing.TB, users ...string) *Dovecot {
	t.Helper()
	return newDovecot(t, dovecotAddr(t), users)
}

// newDovecot is the backend on the Dovecot at addr, for t.
func newDovecot(t testing.TB, addr string, users []string) *Dovecot {
	d := &Dovecot{addr: addr, proxy: NewProxy(t, addr), users: users, seeders: map[string]*imapclient.Client{}}
	t.Cleanup(d.dropSeeders)
	return d
}

// dovecotAddr is the shared instance's address; without one the test is
// skipped, or fails under CI.
func dovecotAddr(t testing.TB) string {
	t.Helper()
	addr := os.Getenv("UNIBOX_DOVECOT_ADDR")
	if addr == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("UNIBOX_DOVECOT_ADDR is unset under CI: .ci/run must start Dovecot (.ci/dovecot.sh)")
		}
		t.Skip("no Dovecot: run `bash .ci/dovecot.sh start DIR` and export UNIBOX_DOVECOT_ADDR to run these")
	}
	return addr
}

func (d *Dovecot) Name() string  { return "dovecot" }
func (d *Dovecot) Proxy() *Proxy { return d.proxy }
func (d *Dovecot) Host() string  { return host(d.proxy.Addr()) }
func (d *Dovecot) Port() int     { return port(d.proxy.Addr()) }

// NewUser hands out the next of this package's .ci/dovecot.sh users
// (password user-pw), emptied for the test: every message expunged,
// folders beyond the standard set deleted.
func (d *Dovecot) NewUser(t testing.TB) (string, string) {
	t.Helper()
	user := d.users[d.next%len(d.users)]
	d.next++
	dovecotMu.Lock()
	defer dovecotMu.Unlock()
	c := d.direct(t, user)
	defer c.Close()
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatalf("dovecot list: %v", err)
	}
	for _, mb := range list {
		if _, std := specialFolders[mb.Mailbox]; !std && mb.Mailbox != "INBOX" {
			_ = c.Delete(mb.Mailbox).Wait()
			continue
		}
		if _, err := c.Select(mb.Mailbox, nil).Wait(); err != nil {
			continue
		}
		all := imap.SeqSet{}
		all.AddRange(1, 0)
		_ = c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
		_ = c.Expunge().Close()
	}
	for name := range specialFolders {
		_ = c.Create(name, nil).Wait() // auto-created on first login anyway
	}
	return user, user + "-pw"
}

// Client is another client of user's mailbox; it closes with the test.
func (d *Dovecot) Client(t testing.TB, user string) *imapclient.Client {
	c := d.direct(t, user)
	t.Cleanup(func() { c.Close() })
	return c
}

func (d *Dovecot) direct(t testing.TB, user string) *imapclient.Client {
	c, err := imapclient.DialInsecure(d.addr, nil)
	if err != nil {
		t.Fatalf("dovecot dial: %v", err)
	}
	if err := c.Login(user, user+"-pw").Wait(); err != nil {
		t.Fatalf("dovecot login %s: %v", user, err)
	}
	return c
}

func (d *Dovecot) Seed(t testing.TB, user, folder string, raw []byte, flags ...imap.Flag) uint32 {
	t.Helper()
	d.seedMu.Lock()
	defer d.seedMu.Unlock()
	c := d.seeders[user]
	if c == nil {
		c = d.direct(t, user)
		d.seeders[user] = c
	}
	cmd := c.Append(folder, int64(len(raw)), &imap.AppendOptions{Flags: flags, Time: time.Now()})
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatalf("dovecot append: %v", err)
	}
	return uint32(data.UID)
}

// dropSeeders logs Seed's connections out: the next Seed logs in again.
func (d *Dovecot) dropSeeders() {
	d.seedMu.Lock()
	defer d.seedMu.Unlock()
	for user, c := range d.seeders {
		c.Close()
		delete(d.seeders, user)
	}
}

func host(addr string) string { h, _, _ := net.SplitHostPort(addr); return h }
func port(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(p)
	return n
}

// DovecotTLS is the Dovecot backend with its TLS port and CA, for tests of
// implicit TLS and STARTTLS (no proxy: certificates name 127.0.0.1).
type DovecotTLS struct {
	*Dovecot
	TLSPort int
	CAs     *x509.CertPool
}

// NewDovecotTLS needs UNIBOX_DOVECOT_TLS_ADDR and UNIBOX_DOVECOT_CERT too.
func NewDovecotTLS(t testing.TB) *DovecotTLS {
	t.Helper()
	d := NewDovecot(t, "carol")
	pem, err := os.ReadFile(os.Getenv("UNIBOX_DOVECOT_CERT"))
	if err != nil {
		t.Fatalf("dovecot cert: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("dovecot cert: no certificate in PEM")
	}
	return &DovecotTLS{Dovecot: d, TLSPort: port(os.Getenv("UNIBOX_DOVECOT_TLS_ADDR")), CAs: pool}
}

// Port of the plain (STARTTLS-capable) listener, without the proxy.
func (d *DovecotTLS) Port() int { return port(d.addr) }

// DirectAddr is the shared instance's own address, not its proxy's: for
// a benchmark whose timings must not include the proxy's relay.
func (d *Dovecot) DirectAddr() string { return d.addr }
