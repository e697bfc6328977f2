package accounts

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/conn"
)

// auth = "oauth2": token_cmd runs in the app before every connect, the
// token reaches serve-imap over the pipe and logs in by SASL; a refused
// token is auth_failed, and the token appears in no error.
func TestOAuth2TokenCmdEndToEnd(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { return token == "tok-"+user }})
	user, _ := mem.NewUser(t)
	for _, tt := range []struct {
		name, token string
		ok          bool
	}{{"valid token", "tok-" + user, true}, {"refused token", "stale-token-5678", false}} {
		t.Run(tt.name, func(t *testing.T) {
			a := openAccount(t, config.Account{Name: "Mail", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
				Security: "none", Username: user, Auth: config.AuthOAuth2, TokenCmd: "printf '%s\\n' " + tt.token}, Options{})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := a.List(ctx, ListOptions{})
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if conn.ClassOf(err) != conn.ClassAuth || a.Health().State != StateAuthFailed {
				t.Fatalf("refused token: class %s, state %s: %v", conn.ClassOf(err), a.Health().State, err)
			}
			if strings.Contains(err.Error(), tt.token) || strings.Contains(a.Health().LastError, tt.token) || strings.Contains(a.Stderr(), tt.token) {
				t.Fatal("the token leaked into an error or the stderr tail")
			}
		})
	}
}

// A refused token fetches one fresh token and tries once more: a helper
// whose cached token expired logs in on the second; a token refused twice
// is auth_failed after exactly two runs of token_cmd, never a loop.
func TestOAuth2RefusedTokenRetriedOnce(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { return token == "fresh" }})
	user, _ := mem.NewUser(t)
	for _, tt := range []struct {
		name   string
		second string // what token_cmd prints from its second run on
		ok     bool
	}{{"expired, then fresh", "fresh", true}, {"refused twice", "stale", false}} {
		t.Run(tt.name, func(t *testing.T) {
			runs := filepath.Join(t.TempDir(), "runs")
			cmd := fmt.Sprintf(`echo run >> %[1]s; if [ "$(wc -l < %[1]s)" -gt 1 ]; then printf %[2]s; else printf stale; fi`, runs, tt.second)
			a := openAccount(t, config.Account{Name: "Mail", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
				Security: "none", Username: user, Auth: config.AuthOAuth2, TokenCmd: cmd}, Options{})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := a.List(ctx, ListOptions{})
			if tt.ok != (err == nil) {
				t.Fatalf("list: %v", err)
			}
			if !tt.ok && a.Health().State != StateAuthFailed {
				t.Fatalf("state %s, want auth_failed", a.Health().State)
			}
			b, _ := os.ReadFile(runs)
			if n := strings.Count(string(b), "run"); n != 2 {
				t.Fatalf("token_cmd ran %d times, want 2", n)
			}
		})
	}
}

// serve-imap re-dials by itself with the token it was provisioned with; an
// hour later the server refuses that token. The refusal comes back as
// class auth, the app provisions a fresh token, and the call succeeds:
// token_cmd ran once more, the account stays connected.
func TestOAuth2TokenExpiresMidSession(t *testing.T) {
	var accepted atomic.Value
	accepted.Store("t1")
	mem := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { return token == accepted.Load().(string) }})
	user, _ := mem.NewUser(t)
	dir := t.TempDir()
	tokenFile, runs := filepath.Join(dir, "token"), filepath.Join(dir, "runs")
	if err := os.WriteFile(tokenFile, []byte("t1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := openAccount(t, config.Account{Name: "Mail", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
		Security: "none", Username: user, Auth: config.AuthOAuth2, TokenCmd: fmt.Sprintf("echo run >> %s; cat %s", runs, tokenFile)}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	// The token expires, the helper has a new one, the server hangs up.
	accepted.Store("t2")
	if err := os.WriteFile(tokenFile, []byte("t2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mem.Proxy().Drop()
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatalf("after the token expired: %v", err)
	}
	if st := a.Health().State; st != StateConnected {
		t.Fatalf("state %s", st)
	}
	b, _ := os.ReadFile(runs)
	if n := strings.Count(string(b), "run"); n != 2 {
		t.Fatalf("token_cmd ran %d times, want 2", n)
	}
}

// The built-in refresh end to end: the app exchanges the refresh token at
// a local token endpoint, serve-imap logs in with the access token, and the
// account's details carry the note about a rotated refresh token.
func TestOAuth2BuiltInRefreshEndToEnd(t *testing.T) {
	var mu sync.Mutex
	issued := map[string]bool{}
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		defer mu.Unlock()
		if r.PostForm.Get("refresh_token") != "rt-1" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_grant"}`)
			return
		}
		tok := fmt.Sprintf("access-%d", len(issued)+1)
		issued[tok] = true
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}`, tok)
	}))
	defer endpoint.Close()
	mem := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { mu.Lock(); defer mu.Unlock(); return issued[token] }})
	user, _ := mem.NewUser(t)
	a := openAccount(t, config.Account{Name: "Outlook", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
		Security: "none", Username: user, Auth: config.AuthOAuth2,
		OAuth2: &config.OAuth2Refresh{TokenURL: endpoint.URL, ClientID: "unibox", RefreshTokenCmd: "printf rt-1"}}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	h := a.Health()
	if len(h.Notes) != 1 || !strings.Contains(h.Notes[0], "refresh_token_store_cmd") {
		t.Fatalf("notes %q", h.Notes)
	}
}

// openAccount opens ac alone, its serve-imap children the real binary
// (unibin) with unibox's own minimal environment, with no probe timer; o
// (optional) adds to the options.
func openAccount(t testing.TB, ac config.Account, o Options) *Account {
	t.Helper()
	cfg := &config.Config{Accounts: []config.Account{ac}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	o.Exe = unibin.Exe(t)
	set, err := Open(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0]
}
