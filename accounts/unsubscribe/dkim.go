package unsubscribe

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"
)

// verify checks the message's DKIM signatures (go-msgauth) for the one
// thing RFC 8058 asks: a valid signature that covers List-Unsubscribe and
// List-Unsubscribe-Post, from a domain aligned with From. A signature
// that is valid but leaves either header out proves nothing about the
// link: a forwarder could have added it. Nor does one that covers fewer
// instances of a field than the header holds (counts): DKIM signs the
// instances bottom up, so a field added above a signed one is unsigned
// while the check still passes.
func verify(msg io.Reader, lookupTXT func(string) ([]string, error), info Info, counts map[string]int) DKIM {
	if lookupTXT == nil {
		lookupTXT = net.LookupTXT
	}
	verifs, err := dkim.VerifyWithOptions(msg, &dkim.VerifyOptions{LookupTXT: lookupTXT, MaxVerifications: maxSignatures})
	_, _ = io.Copy(io.Discard, msg) // the library may stop early; the caller's stream ends here
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		return DKIM{Result: DKIMFail, Reason: "the signature header is unreadable: " + err.Error()}
	}
	if len(verifs) == 0 {
		return DKIM{Result: DKIMNone, Reason: "the message has no DKIM signature"}
	}
	best := DKIM{Result: DKIMFail}
	rank := -1 // how far the best failing signature got
	for _, v := range verifs {
		d := strings.ToLower(strings.TrimSuffix(v.Domain, "."))
		verdict, r := judge(v, d, info, counts)
		if r == 3 {
			return verdict
		}
		if r > rank {
			best, rank = verdict, r
		}
	}
	return best
}

// judge rates one signature: 0 invalid, 1 valid but misaligned, 2
// aligned but not covering every instance of the headers, 3 pass.
func judge(v *dkim.Verification, d string, info Info, counts map[string]int) (DKIM, int) {
	if v.Err != nil {
		res := DKIMFail
		if dkim.IsTempFail(v.Err) {
			res = DKIMTempError
		}
		return DKIM{Result: res, Domain: d, Reason: fmt.Sprintf("the signature of d=%s is not valid: %v", d, v.Err)}, 0
	}
	if info.FromDomain == "" {
		return DKIM{Result: DKIMFail, Domain: d, Reason: "the message has no single From address to align d= with"}, 1
	}
	if !aligned(d, info.FromDomain) {
		return DKIM{Result: DKIMFail, Domain: d, Reason: fmt.Sprintf("signed by d=%s, which is not aligned with the From domain %s", d, info.FromDomain)}, 1
	}
	for _, name := range once {
		switch signed := signs(v.HeaderKeys, name); {
		case signed == 0:
			return DKIM{Result: DKIMFail, Domain: d, Reason: fmt.Sprintf("the signature of d=%s does not cover %s", d, name)}, 2
		case signed < counts[name]:
			return DKIM{Result: DKIMFail, Domain: d, Reason: fmt.Sprintf("the signature of d=%s covers %d of the %d %s fields", d, signed, counts[name], name)}, 2
		}
	}
	return DKIM{Result: DKIMPass, Domain: d}, 3
}

// signs is how many instances of name the signature's h= covers (a name
// listed n times signs the bottom n instances, RFC 6376 5.4.2).
func signs(keys []string, name string) int {
	n := 0
	for _, k := range keys {
		if strings.EqualFold(strings.TrimSpace(k), name) {
			n++
		}
	}
	return n
}

// aligned is DMARC's relaxed alignment (RFC 7489 3.1.1): d= and the From
// domain have the same organizational domain (public suffix plus one
// label). Where that cannot be worked out (an IP, a bare suffix), only
// the same name aligns.
func aligned(d, from string) bool {
	if d == "" || from == "" {
		return false
	}
	if d == from {
		return true
	}
	od, err1 := publicsuffix.EffectiveTLDPlusOne(d)
	of, err2 := publicsuffix.EffectiveTLDPlusOne(from)
	return err1 == nil && err2 == nil && od == of
}
