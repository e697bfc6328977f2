package unsubscribe_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/unsubscribe"
	"unibox/accounts/unsubscribe/unsubtest"
)

// hit is one request the test server saw.
type hit struct {
	method, path, ctype, body, cookie string
}

// listServer is a local https server standing in for the list's host
// (its certificate names example.com), with what it saw.
type listServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	hits []hit
}

func newListServer(t *testing.T) *listServer {
	ls := &listServer{}
	mux := http.NewServeMux()
	record := func(r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ls.mu.Lock()
		ls.hits = append(ls.hits, hit{r.Method, r.URL.Path, r.Header.Get("Content-Type"), string(b), r.Header.Get("Cookie")})
		ls.mu.Unlock()
	}
	mux.HandleFunc("/u/42", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		http.SetCookie(w, &http.Cookie{Name: "track", Value: "me", Path: "/"})
		w.Write([]byte("you are unsubscribed"))
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { record(r) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Write(bytes.Repeat([]byte("x"), 1<<20))
	})
	ls.srv = httptest.NewTLSServer(mux)
	t.Cleanup(ls.srv.Close)
	return ls
}

func (ls *listServer) seen() []hit {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return append([]hit(nil), ls.hits...)
}

// url is path on the server, named as the list's host would be.
func (ls *listServer) url(path string) string {
	_, port, _ := net.SplitHostPort(ls.srv.Listener.Addr().String())
	return "https://example.com:" + port + path
}

// dnsTo resolves every name to ip (injected DNS).
func dnsTo(ip string) func(context.Context, string) ([]netip.Addr, error) {
	return func(context.Context, string) ([]netip.Addr, error) { return []netip.Addr{netip.MustParseAddr(ip)}, nil }
}

func poster(ls *listServer, o unsubscribe.PostOptions) *unsubscribe.Poster {
	pool := x509.NewCertPool()
	pool.AddCert(ls.srv.Certificate())
	o.RootCAs = pool
	if o.LookupIP == nil {
		o.LookupIP = dnsTo("127.0.0.1")
	}
	return unsubscribe.NewPoster(o)
}

// The whole way for a signed one-click: the message is inspected with an
// injected DKIM key lookup, the plan is one-click, and the POST reaches
// the local https server as RFC 8058 says: POST, form-encoded, the one
// body, no cookie (not even the one the server set on the previous
// POST).
func TestSignedOneClickPosts(t *testing.T) {
	ls := newListServer(t)
	key := unsubtest.NewKey("example.com")
	raw := key.Sign(unsubtest.Mail("news@example.com", true, ls.url("/u/42")))
	info, err := unsubscribe.Inspect(bytes.NewReader(raw), unsubtest.Lookup(key))
	if err != nil {
		t.Fatal(err)
	}
	plan := unsubscribe.Decide(info)
	if plan.Kind != unsubscribe.KindOneClick {
		t.Fatalf("plan %+v (info %+v)", plan, info)
	}
	p := poster(ls, unsubscribe.PostOptions{AllowLoopbackForTests: true})
	defer p.Close()
	for range 2 {
		res, err := p.Post(t.Context(), plan.URI)
		if err != nil || res.Status != 200 {
			t.Fatalf("post: %+v, %v", res, err)
		}
	}
	want := hit{"POST", "/u/42", "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", ""}
	for i, h := range ls.seen() {
		if h != want {
			t.Fatalf("request %d: %+v, want %+v", i, h, want)
		}
	}
	if n := len(ls.seen()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

func TestPostFollowsNoRedirect(t *testing.T) {
	ls := newListServer(t)
	p := poster(ls, unsubscribe.PostOptions{AllowLoopbackForTests: true})
	defer p.Close()
	res, err := p.Post(t.Context(), ls.url("/moved"))
	if !errors.Is(err, unsubscribe.ErrRedirect) || res.Location != "/elsewhere" {
		t.Fatalf("post: %+v, %v; want a redirect reported", res, err)
	}
	for _, h := range ls.seen() {
		if h.path == "/elsewhere" {
			t.Fatal("the redirect was followed")
		}
	}
}

func TestPostReadsAtMost64KB(t *testing.T) {
	ls := newListServer(t)
	p := poster(ls, unsubscribe.PostOptions{AllowLoopbackForTests: true})
	defer p.Close()
	res, err := p.Post(t.Context(), ls.url("/big"))
	if err != nil || res.BodyRead != unsubscribe.MaxReplyBody {
		t.Fatalf("post: %+v, %v; want %d bytes read", res, err, unsubscribe.MaxReplyBody)
	}
}

// No POST leaves for the user's own network: whatever the name resolves
// to, the address is checked on the socket, after DNS.
func TestPostRefusesInternalAddresses(t *testing.T) {
	ls := newListServer(t)
	for _, ip := range []string{"127.0.0.1", "::1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254",
		"fe80::1", "fd00::1", "100.64.0.1", "0.0.0.0", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
		"64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "2002:c0a8:101::1", "ff02::1", "224.0.0.1",
		// issue 35 item 11: special ranges the old filter let through
		"fec0::1", "192.0.0.8", "198.18.0.1", "240.0.0.1", "255.255.255.255", "2001::7f00:1", "::ffff:0:7f00:1", "0.1.2.3",
		"2001:db8::1", "192.0.2.1", "64:ff9b:1::8.8.8.8", "3fff::1", "100::1"} {
		t.Run(ip, func(t *testing.T) {
			p := poster(ls, unsubscribe.PostOptions{LookupIP: dnsTo(ip), Timeout: 5 * time.Second})
			defer p.Close()
			if _, err := p.Post(t.Context(), ls.url("/u/42")); !errors.Is(err, unsubscribe.ErrForbiddenAddress) {
				t.Fatalf("post via %s: %v, want ErrForbiddenAddress", ip, err)
			}
		})
	}
	t.Run("loopback allowed, private still not", func(t *testing.T) {
		p := poster(ls, unsubscribe.PostOptions{LookupIP: dnsTo("10.0.0.1"), AllowLoopbackForTests: true, Timeout: 5 * time.Second})
		defer p.Close()
		if _, err := p.Post(t.Context(), ls.url("/u/42")); !errors.Is(err, unsubscribe.ErrForbiddenAddress) {
			t.Fatalf("post: %v", err)
		}
	})
	t.Run("an IP literal in the URI", func(t *testing.T) {
		p := poster(ls, unsubscribe.PostOptions{})
		defer p.Close()
		if _, err := p.Post(t.Context(), ls.srv.URL+"/u/42"); !errors.Is(err, unsubscribe.ErrForbiddenAddress) {
			t.Fatalf("post: %v", err)
		}
	})
	if n := len(ls.seen()); n != 0 {
		t.Fatalf("the server saw %d requests", n)
	}
}

func TestPostRefusesHTTP(t *testing.T) {
	p := unsubscribe.NewPoster(unsubscribe.PostOptions{AllowLoopbackForTests: true})
	defer p.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("plain http reached") }))
	defer srv.Close()
	for _, uri := range []string{srv.URL + "/u", "ftp://example.com/u", "mailto:x@example.com", "https:///nohost"} {
		if _, err := p.Post(t.Context(), uri); !errors.Is(err, unsubscribe.ErrNotHTTPS) {
			t.Fatalf("post %s: %v", uri, err)
		}
	}
	if _, err := p.Post(t.Context(), "https://user:pw@example.com/u"); err == nil || !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("credentials: %v", err)
	}
}

// A server that never answers costs the timeout, not more.
func TestPostTimeout(t *testing.T) {
	ls := newListServer(t)
	block := make(chan struct{})
	slow := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer slow.Close()
	defer close(block)
	_ = ls
	pool := x509.NewCertPool()
	pool.AddCert(slow.Certificate())
	p := unsubscribe.NewPoster(unsubscribe.PostOptions{RootCAs: pool, LookupIP: dnsTo("127.0.0.1"), AllowLoopbackForTests: true, Timeout: 300 * time.Millisecond})
	defer p.Close()
	_, port, _ := net.SplitHostPort(slow.Listener.Addr().String())
	start := time.Now()
	_, err := p.Post(context.Background(), "https://example.com:"+port+"/")
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("post: %v after %s", err, time.Since(start))
	}
}
