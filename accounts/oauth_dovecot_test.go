package accounts

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// The OAuth2 logins against a real Dovecot whose oauth2 passdb asks a
// token issuer on loopback: the mechanisms as Dovecot speaks them (its
// JSON error challenge, OAUTHBEARER's a=USER), a revoked token, a token
// that expires while serve-imap holds it, and an issuer that is down.

// oauthAccount is an oauth2 account on d for alice whose token_cmd counts
// its runs in the returned file.
func oauthAccount(t *testing.T, d *imaptest.DovecotOAuth2, sasl, tokenCmd string) (*Account, string) {
	t.Helper()
	runs := filepath.Join(t.TempDir(), "runs")
	ac := config.Account{Name: "Outlook", Kind: "imap", Host: d.Host(), Port: d.Port(), Security: "none",
		Username: "alice", Auth: config.AuthOAuth2, SASL: sasl, TokenCmd: fmt.Sprintf("echo run >> %s; %s", runs, tokenCmd)}
	return openAccount(t, ac, Options{}), runs
}

func tokenRuns(t *testing.T, runs string) int {
	b, err := os.ReadFile(runs)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run")
}

func listCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestDovecotOAuth2Mechanisms(t *testing.T) {
	d := imaptest.NewDovecotOAuth2(t)
	d.Seed(t, "alice", "INBOX", []byte("From: a@example.org\r\nSubject: by token\r\n\r\nhi\r\n"))
	for _, tt := range []struct{ sasl, logged string }{
		{"xoauth2", "method=XOAUTH2"},
		{"oauthbearer", "method=OAUTHBEARER"},
		{"", "method=OAUTHBEARER"}, // Dovecot offers both: OAUTHBEARER is preferred
	} {
		t.Run("sasl="+tt.sasl, func(t *testing.T) {
			before := strings.Count(d.Log(), tt.logged)
			a, _ := oauthAccount(t, d, tt.sasl, d.Issuer.MintCmd("alice", 0))
			page, err := a.List(listCtx(t), ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Messages) != 1 || page.Messages[0].Subject != "by token" {
				t.Fatalf("listed %+v", page.Messages)
			}
			// Dovecot's log process writes the login line after the
			// login has answered: under load (CI saw it) the line comes
			// later than the listing, so it is waited for.
			for deadline := time.Now().Add(20 * time.Second); strings.Count(d.Log(), tt.logged) <= before; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("dovecot.log has no new login with %s", tt.logged)
				}
			}
		})
	}
}

// A revoked token: refused, one fresh token fetched, refused again, and
// the account is auth_failed after exactly two runs of token_cmd (never a
// loop), saying what to do next; the token is in no error.
func TestDovecotOAuth2RevokedToken(t *testing.T) {
	d := imaptest.NewDovecotOAuth2(t)
	revoked := d.Issuer.Mint("alice")
	d.Issuer.ExpireAll()
	a, runs := oauthAccount(t, d, "", "printf '%s\\n' "+revoked)
	_, err := a.List(listCtx(t), ListOptions{})
	if conn.ClassOf(err) != conn.ClassAuth {
		t.Fatalf("class %s: %v", conn.ClassOf(err), err)
	}
	h := a.Health()
	if h.State != StateAuthFailed || !strings.Contains(h.LastError, "authorise unibox again") {
		t.Fatalf("state %s, last error %q", h.State, h.LastError)
	}
	if n := tokenRuns(t, runs); n != 2 {
		t.Fatalf("token_cmd ran %d times, want 2", n)
	}
	if strings.Contains(err.Error(), revoked) || strings.Contains(h.LastError, revoked) || strings.Contains(a.Stderr(), revoked) {
		t.Fatal("the token leaked into an error or the stderr tail")
	}
}

// serve-imap holds the token it was provisioned with, good for 2 s; it
// expires, then the server hangs up and serve-imap re-dials and is
// refused. The refusal reaches the app as class auth, token_cmd runs
// again, and the call that met the hang-up succeeds. A new child (after a
// crash) runs token_cmd again before it connects.
func TestDovecotOAuth2TokenExpiresThenHangUp(t *testing.T) {
	d := imaptest.NewDovecotOAuth2(t)
	a, runs := oauthAccount(t, d, "xoauth2", d.Issuer.MintCmd("alice", 2*time.Second))
	ctx := listCtx(t)
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	<-d.Issuer.LastExpired()
	d.Kick(t, "alice")
	d.Seed(t, "alice", "INBOX", []byte("From: b@example.org\r\nSubject: after the hang-up\r\n\r\nhi\r\n"))
	page, err := a.List(ctx, ListOptions{})
	if err != nil {
		t.Fatalf("after the token expired: %v", err)
	}
	if len(page.Messages) != 1 || a.Health().State != StateConnected {
		t.Fatalf("listed %d, state %s", len(page.Messages), a.Health().State)
	}
	if n := tokenRuns(t, runs); n != 2 {
		t.Fatalf("token_cmd ran %d times, want 2", n)
	}
	for _, pid := range imaptest.ChildPIDs() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatalf("after the child was killed: %v", err)
	}
	if n, connects := tokenRuns(t, runs), a.Status().Connects; n != 3 || connects != 2 {
		t.Fatalf("token_cmd ran %d times over %d connects, want 3 over 2", n, connects)
	}
}

// Dovecot cannot reach the token issuer: it answers NO [UNAVAILABLE], and
// the account cools down (class unavailable), not auth_failed: nothing is
// wrong with the token.
func TestDovecotOAuth2IssuerDown(t *testing.T) {
	d := imaptest.NewDovecotOAuth2(t)
	tok := d.Issuer.Mint("alice")
	d.Issuer.Down()
	a, _ := oauthAccount(t, d, "", "printf '%s\\n' "+tok)
	_, err := a.List(listCtx(t), ListOptions{})
	if c := conn.ClassOf(err); c != conn.ClassUnavailable {
		t.Fatalf("class %s: %v", c, err)
	}
	if st := a.Health().State; st == StateAuthFailed {
		t.Fatalf("state %s", st)
	}
}

// The built-in refresh against Dovecot: the app exchanges the refresh
// token at the issuer's token endpoint, and Dovecot accepts what it got.
func TestDovecotOAuth2BuiltInRefresh(t *testing.T) {
	d := imaptest.NewDovecotOAuth2(t)
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("refresh_token") != "rt-alice" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_grant"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, d.Issuer.Mint("alice"))
	}))
	defer endpoint.Close()
	a := openAccount(t, config.Account{Name: "Outlook", Kind: "imap", Host: d.Host(), Port: d.Port(), Security: "none",
		Username: "alice", Auth: config.AuthOAuth2,
		OAuth2: &config.OAuth2Refresh{TokenURL: endpoint.URL, ClientID: "unibox", RefreshTokenCmd: "printf rt-alice"}}, Options{})
	if _, err := a.List(listCtx(t), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if d.Issuer.Checked() == 0 {
		t.Fatal("dovecot never asked the issuer")
	}
}
