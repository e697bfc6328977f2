package oauth

import "golang.org/x/oauth2"

// codes are the error codes of RFC 6749 (5.2, and 4.1.2.1's
// access_denied, server_error and temporarily_unavailable, which token
// endpoints send too): the only words of a token endpoint's refusal that
// unibox repeats.
var codes = map[string]bool{
	"invalid_request": true, "invalid_client": true, "invalid_grant": true, "unauthorized_client": true,
	"unsupported_grant_type": true, "invalid_scope": true,
	"access_denied": true, "server_error": true, "temporarily_unavailable": true,
}

// busy are the codes that say the endpoint, not the request, failed.
var busy = map[string]bool{"server_error": true, "temporarily_unavailable": true}

// errorCode is re's error code if RFC 6749 knows it.
func errorCode(re *oauth2.RetrieveError) string {
	switch {
	case codes[re.ErrorCode]:
		return re.ErrorCode
	case re.ErrorCode == "":
		return "no error code"
	}
	return "an unknown error code"
}

// status is re's HTTP status, 0 if it has none.
func status(re *oauth2.RetrieveError) int {
	if re.Response == nil {
		return 0
	}
	return re.Response.StatusCode
}
