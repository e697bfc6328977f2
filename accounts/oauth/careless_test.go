package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/secret"
	"unibox/conn"
)

// A token endpoint that redirects gets no second request anywhere: on a
// 307 or 308 Go would send the body (the refresh token and the client
// secret) to the Location, another host. The error is config, and says
// why.
func TestSourceFollowsNoRedirect(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token":"stolen","token_type":"Bearer","expires_in":3600}`)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound, http.StatusMovedPermanently} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			var asked atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				http.Redirect(w, r, other.URL+"/token", code)
			}))
			defer srv.Close()
			tok, err := New(account(t, srv.URL, "rt-redirect-31", func(r *config.OAuth2Refresh) { r.ClientSecretCmd = "printf cs-redirect-42" }), nil).Token(context.Background())
			if err == nil || conn.ClassOf(err) != conn.ClassConfig || !strings.Contains(err.Error(), "redirect") || !strings.Contains(err.Error(), "oauth2_token_url") {
				t.Fatalf("token %q, %s: %v", tok, conn.ClassOf(err), err)
			}
			if asked.Load() != 1 || elsewhere.Load() != 0 {
				t.Fatalf("the endpoint was asked %d times, the redirect target %d times", asked.Load(), elsewhere.Load())
			}
		})
	}
}

// Of a refusal only an RFC 6749 error code is repeated: a careless
// endpoint's free text (an unknown code holding the request body, an
// error_description, a non-JSON body) is dropped, and the secrets the
// source read or was handed are in its box.
func TestSourceRepeatsOnlyTheErrorCode(t *testing.T) {
	const rt, cs = "rt-careless-5150", "cs-careless-6161"
	body := "client_id=unibox-test&client_secret=" + cs + "&grant_type=refresh_token&refresh_token=" + rt
	for _, tt := range []struct {
		name, answer, want string
		class              conn.ErrorClass
	}{
		{"unknown code", fmt.Sprintf(`{"error":"bad grant %s"}`, body), "(HTTP 400, an unknown error code)", conn.ClassAuth},
		{"description", fmt.Sprintf(`{"error":"invalid_request","error_description":"you sent %s"}`, body), "(HTTP 400, invalid_request)", conn.ClassAuth},
		{"form body", "error=" + strings.ReplaceAll(body, "&", "+"), "(HTTP 400, an unknown error code)", conn.ClassAuth},
		{"text body", "you sent " + body, "(HTTP 400, no error code)", conn.ClassAuth},
		{"busy", `{"error":"temporarily_unavailable","error_description":"` + body + `"}`, "(HTTP 400, temporarily_unavailable)", conn.ClassUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(tt.answer, "{") {
					w.Header().Set("Content-Type", "application/json")
				} else if strings.HasPrefix(tt.answer, "error=") {
					w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
				}
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, tt.answer)
			}))
			defer srv.Close()
			var box secret.Box
			_, err := New(account(t, srv.URL, rt, func(r *config.OAuth2Refresh) { r.ClientSecretCmd = "printf " + cs }), &box).Token(context.Background())
			if conn.ClassOf(err) != tt.class || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%s: %v, want %s and %q", conn.ClassOf(err), err, tt.class, tt.want)
			}
			for _, s := range []string{rt, cs, "you sent", "bad grant"} {
				if strings.Contains(err.Error(), s) {
					t.Fatalf("the error repeats %q: %v", s, err)
				}
			}
			if got := box.Redact(body); strings.Contains(got, rt) || strings.Contains(got, cs) {
				t.Fatalf("the box lacks the refresh token or the client secret: %q", got)
			}
		})
	}
}

// Each access token and a rotated refresh token are in the box too.
func TestSourceBoxesWhatItIsHanded(t *testing.T) {
	e := &endpoint{valid: "rt-1", rotateTo: "rt-rotated-7272"}
	srv := httptest.NewServer(e)
	defer srv.Close()
	var box secret.Box
	tok, err := New(account(t, srv.URL, "rt-1", nil), &box).Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := box.Redact(tok + " rt-rotated-7272"); got != "*** ***" {
		t.Fatalf("box.Redact = %q", got)
	}
}
