package oauth

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// scopeOnRefresh adds the account's scopes to refresh requests, which
// x/oauth2 sends without them (Microsoft's endpoint wants them).
type scopeOnRefresh struct {
	scopes []string
	next   http.RoundTripper
}

func (t scopeOnRefresh) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.scopes) == 0 || req.Body == nil || req.Method != http.MethodPost {
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(body))
	if err == nil && form.Get("grant_type") == "refresh_token" && form.Get("scope") == "" {
		form.Set("scope", strings.Join(t.scopes, " "))
		body = []byte(form.Encode())
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return t.next.RoundTrip(r)
}
