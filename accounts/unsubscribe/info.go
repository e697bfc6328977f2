package unsubscribe

// Info is what serve-imap learnt of one message's unsubscribe headers:
// the parsed options and the DKIM verdict on them. It crosses the MCP pipe
// as unsubscribe_info's answer.
type Info struct {
	// From is the message's single From address ("" when it has none or
	// several: then nothing can align with it).
	From       string `json:"from"`
	FromDomain string `json:"from_domain"`
	// Options are List-Unsubscribe's URIs in the header's order.
	Options []Option `json:"options"`
	// OneClickHeader: List-Unsubscribe-Post is exactly
	// "List-Unsubscribe=One-Click" (RFC 8058 section 3.1).
	OneClickHeader bool `json:"one_click_header"`
	DKIM           DKIM `json:"dkim"`
	// Problems are why a URI was not taken (too long, not a URI), for
	// the screen.
	Problems []string `json:"problems,omitempty"`
	// Unsafe are why the header block itself forbids acting on it: a
	// line the signature check reads otherwise than as "name: value", or
	// From, List-Unsubscribe or List-Unsubscribe-Post given more than
	// once (an attacker's copy on top of a signed mail). Decide then
	// only shows the links.
	Unsafe []string `json:"unsafe,omitempty"`
}

// Option is one URI of List-Unsubscribe.
type Option struct {
	Scheme string `json:"scheme"` // "https", "http", "mailto" or another, lower case
	URI    string `json:"uri"`
}

// DKIM is the verdict on the signatures of the message, as far as
// unsubscribing is concerned.
type DKIM struct {
	// Result: "pass" (a valid signature covering From, List-Unsubscribe
	// and List-Unsubscribe-Post, with d= aligned to the From domain),
	// "none" (no signature), "fail" (signatures, none of which does all
	// that), "temperror" (the key could not be fetched).
	Result string `json:"result"`
	Domain string `json:"domain,omitempty"` // d= of the passing signature, or of the best failing one
	Reason string `json:"reason,omitempty"` // why it is not "pass"
}

// DKIM results.
const (
	DKIMPass      = "pass"
	DKIMNone      = "none"
	DKIMFail      = "fail"
	DKIMTempError = "temperror"
)

// OneClickValue is the only List-Unsubscribe-Post value RFC 8058 defines,
// and the body the POST sends.
const OneClickValue = "List-Unsubscribe=One-Click"
