package teatest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/serveimap"
	"unibox/accounts/store"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/accounts/unsubscribe"
	"unibox/accounts/unsubscribe/unsubtest"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// dkimChildMain is serve-imap as the real one runs, but with the DKIM key
// records the test wrote to path ("name<TAB>record" lines) as its only DNS.
func dkimChildMain(path string) int {
	lookup := func(name string) ([]string, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if n, rec, ok := strings.Cut(sc.Text(), "\t"); ok && strings.EqualFold(n, strings.TrimSuffix(name, ".")) {
				return []string{rec}, nil
			}
		}
		return nil, fmt.Errorf("no TXT record for %s", name)
	}
	if err := serveimap.Serve(context.Background(), serveimap.Options{LookupTXT: lookup}, os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// listHost is the list's https server on loopback (its certificate names
// example.com): the requests it saw.
type listHost struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD path content-type body cookie"
}

func newListHost(t *testing.T) *listHost {
	h := &listHost{}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.seen = append(h.seen, fmt.Sprintf("%s %s %s %s cookie=%q", r.Method, r.URL.Path, r.Header.Get("Content-Type"), b, r.Header.Get("Cookie")))
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *listHost) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

func (h *listHost) url(path string) string {
	_, port, _ := net.SplitHostPort(h.srv.Listener.Addr().String())
	return "https://example.com:" + port + path
}

// poster reaches the list host through injected DNS, loopback allowed.
func (h *listHost) poster() *unsubscribe.Poster {
	pool := x509.NewCertPool()
	pool.AddCert(h.srv.Certificate())
	return unsubscribe.NewPoster(unsubscribe.PostOptions{RootCAs: pool, AllowLoopbackForTests: true,
		LookupIP: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}})
}

// unsubWorld is two accounts (Work: sam, Home: bob) on one memimap, real
// serve-imap children that know key, SMTP into the same memimap, an
// outbox and its runner; inbox maps a user to the messages to seed, in
// the order they arrive.
func unsubWorld(t *testing.T, key *unsubtest.Key, inbox map[string][][]byte) (*memimap.Server, *smtptest.Server, *accounts.Set, *outbox.Box, *dispatch.Runner) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{"sam", "bob", "leave"} {
		if err := srv.AddUser(u, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Archive": imap.MailboxAttrArchive}); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-time.Hour)
	for _, u := range []string{"sam", "bob"} {
		for i, raw := range inbox[u] {
			if _, err := srv.Append(u, "INBOX", raw, nil, at.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}, Deliver: smtptest.IntoMemIMAP(srv)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	txt := filepath.Join(t.TempDir(), "dkim-txt")
	if err := os.WriteFile(txt, []byte(key.Name()+"\t"+key.Record()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	acct := func(name, user string) config.Account {
		return config.Account{Name: name, Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: user,
			From: &mail.Address{Name: user, Address: user + "@example.org"}, SaveSent: config.SaveSentNever,
			SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}
	}
	cfg := &config.Config{Accounts: []config.Account{acct("Work", "sam"), acct("Home", "bob")}}
	exe, _ := os.Executable()
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set, err := accounts.Open(cfg, accounts.Options{Exe: exe, ExeArgs: []string{}, ChildEnv: []string{"UNIBOX_TEST_DKIM_TXT=" + txt, "GORACE=atexit_sleep_ms=0"},
		Store: accounts.Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	runner := dispatch.New(box, []dispatch.Account{set.Accounts[0].Sending(), set.Accounts[1].Sending()}, dispatch.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = runner.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return srv, smtp, set, box, runner
}

// subject gives a list message its own subject.
func subject(raw []byte, s string) []byte {
	return []byte(strings.Replace(string(raw), "Subject: This week", "Subject: "+s, 1))
}

// dated gives a list message its own Date (the signatures here do not
// cover it), so the rows have an order.
func dated(raw []byte, hour int) []byte {
	return []byte(strings.Replace(string(raw), "10:00:00 +0000", fmt.Sprintf("%02d:00:00 +0000", hour), 1))
}

// unsubHistory is the unsubscribe lines of an account's history.
func unsubHistory(a *accounts.Account) string {
	var b strings.Builder
	for _, e := range a.History(100) {
		if e.Kind == "unsubscribe" {
			b.WriteString(e.Class + "|" + e.Text + "\n")
		}
	}
	return b.String()
}

// The whole way, through the real children: a signed one-click is shown,
// posted only on y, exactly as RFC 8058 says; then the sender's mail in
// both accounts is archived on y, and z brings it back.
func TestUnsubscribeOneClickThenArchive(t *testing.T) {
	host := newListHost(t)
	dk := unsubtest.NewKey("example.com")
	signed := dated(dk.Sign(subject(unsubtest.Mail("news@example.com", true, host.url("/u/42")), "Weekly 12")), 11)
	other := subject(unsubtest.Mail("news@example.com", false), "Weekly 11")
	// Pages of 2: sam's older issues are in the store, not on screen, and
	// the offer still counts them.
	var older [][]byte // oldest first, as they arrived
	for i := 6; i <= 8; i++ {
		older = append(older, dated(subject(unsubtest.Mail("news@example.com", false), fmt.Sprintf("Weekly %d", i)), i))
	}
	older = append(older, signed)
	srv, _, set, _, _ := unsubWorld(t, dk, map[string][][]byte{"sam": older, "bob": {other}})
	poster := host.poster()
	defer poster.Close()
	tm, _ := run(t, uiAccounts(set), 220, 30, func(o *tui.Options) { o.Now = time.Now; o.Poster = poster; o.PageSize = 2 })
	waitFor(t, tm, "Weekly 12", "Weekly 11")
	tm.Send(key("U"))
	waitFor(t, tm, "y to go, any other key cancels: unsubscribe: POST")
	tm.Send(key("n"))
	waitFor(t, tm, "unsubscribe cancelled: nothing was sent")
	tm.Send(key("U"))
	waitFor(t, tm, "y to go, any other key cancels: unsubscribe: POST \"List-Unsubscribe=One-Click\" (form-encoded, no cookies) to "+host.url("/u/42"))
	if n := len(host.requests()); n != 0 {
		t.Fatalf("%d requests before y", n)
	}
	tm.Send(key("y"))
	waitFor(t, tm, "unsubscribed (one-click POST", "y archives the 5 messages from news@example.com in every account")
	want := `POST /u/42 application/x-www-form-urlencoded List-Unsubscribe=One-Click cookie=""`
	if got := host.requests(); len(got) != 1 || got[0] != want {
		t.Fatalf("requests %q, want one %q", got, want)
	}
	tm.Send(key("y"))
	waitFor(t, tm, "archived 5")
	for u, n := range map[string]int{"sam": 4, "bob": 1} {
		if got := len(facetest.Folder(t, srv, u, "pw", "Archive")); got != n {
			t.Fatalf("%s's Archive holds %d, want %d", u, got, n)
		}
	}
	tm.Send(key("z"))
	waitFor(t, tm, "undo")
	waitInbox(t, srv, "sam", 4)
	waitInbox(t, srv, "bob", 1)
	h := unsubHistory(set.Accounts[0])
	for _, s := range []string{"one-click POST to " + host.url("/u/42"), "done: one-click POST to " + host.url("/u/42") + " answered 200"} {
		if !strings.Contains(h, s) {
			t.Errorf("history lacks %q:\n%s", s, h)
		}
	}
}

func waitInbox(t *testing.T, srv *memimap.Server, user string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(facetest.Folder(t, srv, user, "pw", "INBOX")) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%s's INBOX never held %d", user, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// An unsigned one-click, or one over http, is never posted: the link is
// shown as text, and the history says so.
func TestUnsubscribeRefusesUnsignedAndHTTP(t *testing.T) {
	host := newListHost(t)
	dk := unsubtest.NewKey("example.com")
	unsigned := subject(unsubtest.Mail("news@example.com", true, host.url("/u/1")), "Unsigned news")
	plain := dated(dk.Sign(subject(unsubtest.Mail("news@example.com", true, strings.Replace(host.url("/u/2"), "https:", "http:", 1)), "Plain news")), 9)
	_, _, set, _, _ := unsubWorld(t, dk, map[string][][]byte{"sam": {unsigned, plain}})
	poster := host.poster()
	defer poster.Close()
	tm, _ := run(t, uiAccounts(set), 220, 30, func(o *tui.Options) { o.Now = time.Now; o.Poster = poster })
	waitFor(t, tm, "Unsigned news", "Plain news")
	tm.Send(key("U"))
	waitFor(t, tm, "not opened", "no DKIM signature")
	tm.Send(key("y")) // nothing was offered: y is no answer
	tm.Send(key("j"))
	tm.Send(key("U"))
	waitFor(t, tm, "not opened", "not https")
	tm.Send(key("y"))
	if n := len(host.requests()); n != 0 {
		t.Fatalf("%d requests: a refused one-click was posted", n)
	}
	h := unsubHistory(set.Accounts[0])
	if strings.Count(h, "refused: ") != 2 {
		t.Fatalf("history:\n%s", h)
	}
}

// A mailto: goes out through the account's SMTP and outbox with the
// URI's subject and body and nothing else (U pressed in the message).
func TestUnsubscribeMailto(t *testing.T) {
	dk := unsubtest.NewKey("example.com")
	m := subject(unsubtest.Mail("news@example.com", false, "mailto:leave@example.com?subject=stop&cc=bob@example.org&bcc=sam@example.org&body=bye"), "Mailto news")
	srv, smtp, set, box, runner := unsubWorld(t, dk, map[string][][]byte{"sam": {m}})
	room := &tui.Mailroom{Box: box, Runner: runner}
	tm, _ := run(t, uiAccounts(set), 220, 30, func(o *tui.Options) { o.Now = time.Now; o.Mailroom = room })
	waitFor(t, tm, "Mailto news")
	tm.Send(key("enter")) // U in the message view, this time
	waitFor(t, tm, "Hello from the list.")
	tm.Send(key("U"))
	waitFor(t, tm, `send a message from sam@example.org to leave@example.com, subject "stop", body "bye" (left out: bcc, cc)`)
	tm.Send(key("y"))
	// "unsubscribed" only once the server took it (issue 35 item 3): by
	// the time the screen says so, the message was delivered.
	waitFor(t, tm, "unsubscribed (the message to leave@example.com was sent). y archives the 1 message from news@example.com")
	d := smtp.Delivered()
	if len(d) != 1 || len(d[0].Rcpt) != 1 || d[0].Rcpt[0] != "leave@example.com" {
		t.Fatalf("delivered %+v", d)
	}
	if n := len(facetest.Folder(t, srv, "bob", "pw", "INBOX")); n != 0 {
		t.Fatalf("the cc reached bob: %d", n)
	}
}

// A mailto: the server refuses is said on the status line as a refusal,
// never as "unsubscribed", and the history says so too (issue 35 item 3).
func TestUnsubscribeMailtoRefused(t *testing.T) {
	dk := unsubtest.NewKey("example.com")
	m := subject(unsubtest.Mail("news@example.com", false, "mailto:leave@example.com?subject=stop"), "Mailto news")
	_, smtp, set, box, runner := unsubWorld(t, dk, map[string][][]byte{"sam": {m}})
	smtp.RejectRcpt("leave@example.com", true)
	room := &tui.Mailroom{Box: box, Runner: runner}
	tm, _ := run(t, uiAccounts(set), 220, 30, func(o *tui.Options) { o.Now = time.Now; o.Mailroom = room })
	waitFor(t, tm, "Mailto news")
	tm.Send(key("U"))
	waitFor(t, tm, `send a message from sam@example.org to leave@example.com, subject "stop"`)
	tm.Send(key("y"))
	var after []byte // everything drawn from y to the refusal
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		after = b
		return bytes.Contains(b, []byte("unsubscribe failed: the server refused the message to leave@example.com: smtp rcpt: recipient leave@example.com: SMTP error 550"))
	}, teatest.WithDuration(waitBound), teatest.WithCheckInterval(5*time.Millisecond))
	if bytes.Contains(after, []byte("unsubscribed")) {
		t.Fatalf("the screen said \"unsubscribed\" for a refused message:\n%s", after)
	}
	if n := len(smtp.Delivered()); n != 0 {
		t.Fatalf("%d delivered", n)
	}
	if h := unsubHistory(set.Accounts[0]); !strings.Contains(h, "failed: a message to leave@example.com: the server refused") {
		t.Fatalf("history:\n%s", h)
	}
}

// Issue 35 item 3 through the real children: a signed list mail with the
// attacker's From, List-Unsubscribe and List-Unsubscribe-Post on top
// (above a field name net/textproto's MIME reader stops at) is refused,
// the reason on the status line, and y posts nothing.
func TestUnsubscribeRefusesForgedHeader(t *testing.T) {
	host := newListHost(t)
	dk := unsubtest.NewKey("example.com")
	signed := dk.Sign(subject(unsubtest.Mail("news@example.com", true, host.url("/u/1")), "Forged news"))
	forged := append([]byte("From: News <news@example.com>\r\nList-Unsubscribe: <"+host.url("/evil")+">\r\n"+
		"List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nX-Tag(1): x\r\n"), signed...)
	_, _, set, _, _ := unsubWorld(t, dk, map[string][][]byte{"sam": {forged}})
	poster := host.poster()
	defer poster.Close()
	tm, _ := run(t, uiAccounts(set), 220, 30, func(o *tui.Options) { o.Now = time.Now; o.Poster = poster })
	waitFor(t, tm, "Forged news")
	tm.Send(key("U"))
	waitFor(t, tm, "no one-click, no mailto: the header cannot be trusted: 2 From fields: no sender taken; 2 List-Unsubscribe fields")
	tm.Send(key("y"))
	if n := len(host.requests()); n != 0 {
		t.Fatalf("%d requests: the forged one-click was posted", n)
	}
	if h := unsubHistory(set.Accounts[0]); !strings.Contains(h, "refused: unsubscribe: nothing to do: no one-click, no mailto: the header cannot be trusted") {
		t.Fatalf("history:\n%s", h)
	}
}
