package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// endpoint is a token endpoint on 127.0.0.1: it checks the refresh token
// and the scope, and answers with access tokens numbered by request.
type endpoint struct {
	mu       sync.Mutex
	requests []map[string]string
	valid    string // the refresh token it accepts
	rotateTo string // a new refresh token to hand out, if any
	fail     int    // HTTP status to fail with, if any
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = r.ParseForm()
	req := map[string]string{}
	for k := range r.PostForm {
		req[k] = r.PostForm.Get(k)
	}
	e.requests = append(e.requests, req)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case e.fail != 0:
		w.WriteHeader(e.fail)
		fmt.Fprint(w, `{"error":"temporarily_unavailable"}`)
	case req["refresh_token"] != e.valid:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"invalid_grant","error_description":"AADSTS70000: token expired"}`)
	default:
		out := map[string]any{"access_token": fmt.Sprintf("access-%d", len(e.requests)), "token_type": "Bearer", "expires_in": 3600}
		if e.rotateTo != "" {
			out["refresh_token"] = e.rotateTo
			e.valid = e.rotateTo
		}
		json.NewEncoder(w).Encode(out)
	}
}

func (e *endpoint) count() int { e.mu.Lock(); defer e.mu.Unlock(); return len(e.requests) }

func account(t *testing.T, url, refresh string, mod func(*config.OAuth2Refresh)) config.Account {
	r := &config.OAuth2Refresh{TokenURL: url, ClientID: "unibox-test", Scopes: []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "offline_access"},
		RefreshTokenCmd: "printf %s " + refresh}
	if mod != nil {
		mod(r)
	}
	return config.Account{Name: "Outlook", Auth: config.AuthOAuth2, OAuth2: r}
}

// Access tokens are fetched with the refresh token and the scopes, cached
// until near expiry, and fetched afresh when the server refused the cached
// one.
func TestSourceRefreshesAndCaches(t *testing.T) {
	e := &endpoint{valid: "rt-1"}
	srv := httptest.NewServer(e)
	defer srv.Close()
	s := New(account(t, srv.URL, "rt-1", nil), nil)
	ctx := context.Background()
	tok, err := s.Token(ctx)
	if err != nil || tok != "access-1" {
		t.Fatalf("first token %q, %v", tok, err)
	}
	if tok, _ := s.Token(ctx); tok != "access-1" || e.count() != 1 {
		t.Fatalf("a valid token was not reused: %q after %d requests", tok, e.count())
	}
	if tok, _ := s.Token(provider.WithFresh(ctx)); tok != "access-2" {
		t.Fatalf("a fresh token was asked for, got %q", tok)
	}
	req := e.requests[0]
	if req["grant_type"] != "refresh_token" || req["client_id"] != "unibox-test" || !strings.Contains(req["scope"], "IMAP.AccessAsUser.All") {
		t.Fatalf("refresh request %v", req)
	}
}

// A rotated refresh token goes to refresh_token_store_cmd on its stdin;
// without one, the account's details say once that it could not be kept.
func TestSourceRotation(t *testing.T) {
	e := &endpoint{valid: "rt-1", rotateTo: "rt-2"}
	srv := httptest.NewServer(e)
	defer srv.Close()
	stored := filepath.Join(t.TempDir(), "stored")
	s := New(account(t, srv.URL, "rt-1", func(r *config.OAuth2Refresh) { r.RefreshTokenStoreCmd = "cat > " + stored }), nil)
	if _, err := s.Token(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(stored); strings.TrimSpace(string(b)) != "rt-2" || len(s.Notes()) != 0 {
		t.Fatalf("stored %q, notes %v", b, s.Notes())
	}

	e2 := &endpoint{valid: "rt-1", rotateTo: "rt-9"}
	srv2 := httptest.NewServer(e2)
	defer srv2.Close()
	s2 := New(account(t, srv2.URL, "rt-1", nil), nil)
	for range 2 {
		if _, err := s2.Token(provider.WithFresh(context.Background())); err != nil {
			t.Fatal(err)
		}
	}
	if n := s2.Notes(); len(n) != 1 || !strings.Contains(n[0], "refresh_token_store_cmd") || strings.Contains(n[0], "rt-9") {
		t.Fatalf("notes %q", n)
	}
}

// A refused refresh token is auth with what to do next; an endpoint that
// fails or is not there is unavailable; the refresh token is in no error.
func TestSourceErrors(t *testing.T) {
	e := &endpoint{valid: "rt-other"}
	srv := httptest.NewServer(e)
	defer srv.Close()
	_, err := New(account(t, srv.URL, "rt-secret-77", nil), nil).Token(context.Background())
	if conn.ClassOf(err) != conn.ClassAuth || !strings.Contains(err.Error(), "invalid_grant") || strings.Contains(err.Error(), "rt-secret-77") {
		t.Fatalf("refused refresh token: %s: %v", conn.ClassOf(err), err)
	}
	down := &endpoint{valid: "rt-1", fail: http.StatusServiceUnavailable}
	srv2 := httptest.NewServer(down)
	defer srv2.Close()
	if _, err := New(account(t, srv2.URL, "rt-1", nil), nil).Token(context.Background()); conn.ClassOf(err) != conn.ClassUnavailable {
		t.Fatalf("failing endpoint: %s: %v", conn.ClassOf(err), err)
	}
	closed := fmt.Sprintf("http://127.0.0.1:%d/token", imaptest.ClosedPort(t))
	if _, err := New(account(t, closed, "rt-1", nil), nil).Token(context.Background()); conn.ClassOf(err) != conn.ClassUnavailable {
		t.Fatalf("no endpoint: %s: %v", conn.ClassOf(err), err)
	}
	if _, err := New(account(t, srv.URL, "", func(r *config.OAuth2Refresh) { r.RefreshTokenCmd = "false" }), nil).Token(context.Background()); conn.ClassOf(err) != conn.ClassConfig || !strings.Contains(err.Error(), "refresh_token_cmd") {
		t.Fatalf("failing refresh_token_cmd: %s: %v", conn.ClassOf(err), err)
	}
}

// A token endpoint that never answers costs the caller its own deadline,
// not forever, and the account's notes stay readable meanwhile.
func TestSourceSilentEndpoint(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	s := New(account(t, srv.URL, "rt-1", nil), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := s.Token(ctx); done <- err }()
	notes := make(chan []string, 1)
	go func() { notes <- s.Notes() }()
	select {
	case <-notes:
	case <-time.After(5 * time.Second):
		t.Fatal("Notes waited on a refresh")
	}
	select {
	case err := <-done:
		if c := conn.ClassOf(err); c != conn.ClassTimeout && c != conn.ClassUnavailable {
			t.Fatalf("silent endpoint: %s: %v", c, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Token outlived its caller's deadline")
	}
}
