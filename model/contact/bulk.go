package contact

import (
	"regexp"
	"strings"
	"sync"

	"unibox/model"
	"unibox/model/review"
)

// Mailing lists and robots rank last (TierBulk): nobody means them when
// typing a name. Two signs tell them: the address's local part
// (IsRobot), and a message's list headers where the store kept them
// (BulkAddresses, over an opened message's headers).

// robotParts are local parts (or their leading words) that only
// machines send from or are written to.
var robotParts = []string{
	"noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply", "dontreply",
	"mailer-daemon", "postmaster", "notification", "notifications", "notify", "bounce", "bounces",
	"newsletter", "newsletters", "alerts", "automated", "auto-confirm", "digest", "listserv", "majordomo",
}

// robotSuffixes end a list's administrative addresses (Mailman's
// list-bounces@, list-request@, list-owner@; sympa's -owner).
var robotSuffixes = []string{"-bounces", "-request", "-owner", "-unsubscribe", "-subscribe", "-noreply", "-notifications"}

// IsRobot reports whether addr's local part says a machine is behind it:
// noreply@, no-reply@, donotreply@, mailer-daemon@, notifications@,
// bounce@ and the like, "noreply+tag@" and "bounces-123@" too, and a
// list's -bounces or -request address.
func IsRobot(addr string) bool {
	local := addr
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		local = addr[:at]
	}
	local = strings.ToLower(local)
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i] // noreply+tag, bounces+xyz
	}
	for _, p := range robotParts {
		if local == p || strings.HasPrefix(local, p) && strings.ContainsRune("-_.0123456789", rune(local[len(p)])) {
			return true
		}
	}
	for _, s := range robotSuffixes {
		if strings.HasSuffix(local, s) {
			return true
		}
	}
	return false
}

// mailtoAddr is the address of a List-Post's <mailto:...> (RFC 2369).
var mailtoAddr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<mailto:([^>?\s]+)`) })

// listID is a List-Id's identifier (RFC 2919), the part in angle
// brackets.
var listID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<([^>\s]+)>`) })

// BulkAddresses are the address keys (review.AddressKey) a message's
// headers show to be a mailing list's or a bulk sender's:
//
//   - a List-Id names the list: its List-Post address, and any recipient
//     (or sender) whose address is the List-Id written as an address
//     ("dev.lists.example.org" is dev@lists.example.org), are the list;
//     From is a person posting to it and is not marked;
//   - without a List-Id, a List-Unsubscribe, "Precedence: bulk" or
//     "Precedence: list", or an Auto-Submitted other than "no" mark From:
//     a newsletter, a shop, a notification robot.
func BulkAddresses(headers []model.Header, from model.Address, to, cc []model.Address) []string {
	var id, post string
	bulk := false
	for _, h := range headers {
		v := strings.TrimSpace(h.Value)
		switch strings.ToLower(h.Name) {
		case "list-id":
			if m := listID().FindStringSubmatch(v); m != nil {
				id = strings.ToLower(m[1])
			} else if v != "" {
				id = strings.ToLower(v)
			}
		case "list-post":
			if m := mailtoAddr().FindStringSubmatch(v); m != nil {
				post = m[1]
			}
		case "list-unsubscribe":
			bulk = bulk || v != ""
		case "precedence":
			bulk = bulk || strings.EqualFold(v, "bulk") || strings.EqualFold(v, "list")
		case "auto-submitted":
			bulk = bulk || v != "" && !strings.EqualFold(v, "no")
		}
	}
	var out []string
	add := func(addr string) {
		if k := review.AddressKey(addr); k != "" && strings.Contains(k, "@") {
			out = append(out, k)
		}
	}
	if id == "" && post == "" {
		if bulk {
			add(from.Address)
		}
		return out
	}
	if post != "" {
		add(post)
	}
	if id != "" {
		for _, a := range append(append([]model.Address{from}, to...), cc...) {
			k := review.AddressKey(a.Address)
			if at := strings.LastIndexByte(k, '@'); at > 0 && k[:at]+"."+k[at+1:] == id {
				add(a.Address)
			}
		}
	}
	return out
}
