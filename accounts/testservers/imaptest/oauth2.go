package imaptest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Issuer is an OAuth2 authorisation server for tests, on loopback: it
// mints access tokens (GET /mint?user=U[&ttl=2s] prints one, so a
// token_cmd can be `curl -sf URL/mint?user=U`) and answers RFC 7662 introspection (POST
// /introspect token=T) the way Dovecot's oauth2 passdb asks. A test
// revokes or expires tokens, or takes the whole endpoint down.
type Issuer struct {
	srv *http.Server
	ln  net.Listener
	url string

	mu      sync.Mutex
	tokens  map[string]*issued
	minted  int
	checked int
	last    *issued
}

type issued struct {
	user    string
	dead    bool
	expires time.Time // zero: never
}

func (tk *issued) valid(now time.Time) bool {
	return !tk.dead && (tk.expires.IsZero() || now.Before(tk.expires))
}

// NewIssuer starts an issuer; it stops with the test.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	is := &Issuer{ln: ln, url: "http://" + ln.Addr().String(), tokens: map[string]*issued{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mint", is.mint)
	mux.HandleFunc("POST /introspect", is.introspect)
	is.srv = &http.Server{Handler: mux}
	go func() { _ = is.srv.Serve(ln) }()
	t.Cleanup(is.Down)
	return is
}

// URL is the issuer's base URL; IntrospectURL is the endpoint Dovecot asks.
func (is *Issuer) URL() string           { return is.url }
func (is *Issuer) IntrospectURL() string { return is.url + "/introspect" }

// MintCmd is a token_cmd that fetches a fresh token for user, valid for
// ttl (0: until ExpireAll).
func (is *Issuer) MintCmd(user string, ttl time.Duration) string {
	return fmt.Sprintf("curl -sf '%s/mint?user=%s&ttl=%s'", is.url, user, ttl)
}

// Mint issues a token for user, valid until ExpireAll.
func (is *Issuer) Mint(user string) string { return is.MintFor(user, 0) }

// MintFor issues a token for user that expires after ttl (0: never).
func (is *Issuer) MintFor(user string, ttl time.Duration) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	tok := "at-" + hex.EncodeToString(b)
	tk := &issued{user: user}
	if ttl > 0 {
		tk.expires = time.Now().Add(ttl)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.tokens[tok] = tk
	is.minted++
	is.last = tk
	return tok
}

// LastExpired is closed once the newest token minted so far has expired
// (never for one without a lifetime).
func (is *Issuer) LastExpired() <-chan time.Time {
	is.mu.Lock()
	tk := is.last
	is.mu.Unlock()
	if tk == nil || tk.expires.IsZero() {
		return nil
	}
	// The timer fires at the expiry; a token is invalid from that instant.
	return time.After(time.Until(tk.expires))
}

// ExpireAll makes every token issued so far invalid, as an hour passing
// would; tokens minted afterwards are valid.
func (is *Issuer) ExpireAll() {
	is.mu.Lock()
	defer is.mu.Unlock()
	for _, tk := range is.tokens {
		tk.dead = true
	}
}

// Minted and Checked count tokens issued and introspection requests.
func (is *Issuer) Minted() int  { is.mu.Lock(); defer is.mu.Unlock(); return is.minted }
func (is *Issuer) Checked() int { is.mu.Lock(); defer is.mu.Unlock(); return is.checked }

// Down closes the endpoint: introspection requests are refused at the
// TCP level from then on.
func (is *Issuer) Down() { _ = is.srv.Close() }

// Valid says whether token is live and was issued to user: the check an
// in-process server (smtptest, memimap) makes instead of introspecting.
func (is *Issuer) Valid(user, token string) bool {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.checked++
	tk := is.tokens[token]
	return tk != nil && tk.user == user && tk.valid(time.Now())
}

func (is *Issuer) mint(w http.ResponseWriter, r *http.Request) {
	user := r.URL.Query().Get("user")
	ttl, err := time.ParseDuration(r.URL.Query().Get("ttl"))
	if user == "" || err != nil {
		http.Error(w, "user or ttl missing", http.StatusBadRequest)
		return
	}
	_, _ = w.Write([]byte(is.MintFor(user, ttl) + "\n"))
}

func (is *Issuer) introspect(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	is.mu.Lock()
	is.checked++
	tk := is.tokens[r.PostForm.Get("token")]
	answer := map[string]any{"active": false}
	if tk != nil && tk.valid(time.Now()) {
		answer = map[string]any{"active": true, "username": tk.user}
	}
	is.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// DovecotOAuth2 is a private Dovecot whose oauth2 passdb asks an Issuer
// (UNIBOX_DOVECOT_OAUTH2_URL in .ci/dovecot.sh).
type DovecotOAuth2 struct {
	*PrivateDovecot
	Issuer *Issuer
}

// NewDovecotOAuth2 starts the issuer and the instance.
func NewDovecotOAuth2(t testing.TB) *DovecotOAuth2 {
	t.Helper()
	dovecotAddr(t)
	is := NewIssuer(t)
	return &DovecotOAuth2{PrivateDovecot: StartDovecot(t, "UNIBOX_DOVECOT_OAUTH2_URL="+is.IntrospectURL()), Issuer: is}
}
