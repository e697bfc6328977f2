package serveimap

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"golang.org/x/net/idna"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model/review"
)

// sent_to answers the review screen's question "has this account ever
// written to x?" from the Sent folder: the folder is the account's own
// memory of what it sent, on every device it sends from.
//
// IMAP SEARCH TO/CC/BCC matches substrings ("ob@example.org" matches a
// message to "bob@example.org", and so would an attacker who picked it),
// so a hit is only a candidate: the candidates' envelopes are fetched and
// an address counts as known only when a whole recipient address is the
// same (review.AddressKey). Where the server has ESEARCH all the searches
// go out at once, so asking about 50 addresses costs one round trip, and
// the envelopes one more per round.
//
// A message counts only when its From is the account's own (the request
// carries them: from and aliases), confirmed on the envelope as whole
// addresses too: anyone's mail can land in Sent (another client's move, a
// filing rule), and a stranger's mail to evil@ filed there is no proof
// the account ever wrote to evil@. unibox's agent face refuses to move
// mail into Sent for the same reason; the two together are the proof.

const (
	// sentToPage is how many of an address's newest candidates one round
	// fetches; sentToRounds bounds the rounds. A candidate past them is
	// left unchecked: the address is then answered unknown, which shows
	// as "new", the safe side.
	sentToPage   = 20
	sentToRounds = 5
)

func (s *Server) sentTo(ctx context.Context, in imapwire.SentToIn) (imapwire.SentToOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.SentToOut{}, "", err
	}
	if err := checkSentTo(in.Addresses, in.Own); err != nil {
		return imapwire.SentToOut{}, "", withClass(conn.ClassTool, fmt.Errorf("sent_to: %w", err))
	}
	out := imapwire.SentToOut{Known: []string{}}
	err = a.read(ctx, func(c *imapclient.Client) error {
		folder, err := a.specialFolder(ctx, c, imapwire.SpecialSent)
		if err != nil {
			return err
		}
		out.Folder, out.Known = folder, []string{}
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil || sel.NumMessages == 0 {
			return err
		}
		cands, err := a.searchRecipients(ctx, c, in.Addresses)
		if err != nil {
			return err
		}
		known, err := a.confirmRecipients(ctx, c, in.Addresses, in.Own, cands)
		if err != nil {
			return err
		}
		for i, addr := range in.Addresses {
			if known[i] {
				out.Known = append(out.Known, addr)
			}
		}
		return nil
	})
	if err != nil {
		return imapwire.SentToOut{}, "", fmt.Errorf("sent_to %s: %w", in.Account, err)
	}
	return out, fmt.Sprintf("%d of %d addresses have mail in %s", len(out.Known), len(in.Addresses), out.Folder), nil
}

// checkSentTo refuses what is no address, naming the entry and the limit.
// Without own addresses no Sent message could count: that is refused
// too, rather than answered "nobody".
func checkSentTo(addrs, own []string) error {
	switch {
	case len(addrs) == 0:
		return fmt.Errorf("addresses: give at least one")
	case len(addrs) > imapwire.MaxSentToAddresses:
		return fmt.Errorf("addresses: %d given, at most %d", len(addrs), imapwire.MaxSentToAddresses)
	case len(own) == 0:
		return fmt.Errorf("own: give the account's own addresses (from, aliases): a Sent message counts only when its From is one")
	case len(own) > imapwire.MaxSentToAddresses:
		return fmt.Errorf("own: %d given, at most %d", len(own), imapwire.MaxSentToAddresses)
	}
	if err := checkAddresses("addresses", addrs); err != nil {
		return err
	}
	return checkAddresses("own", own)
}

// checkAddresses refuses an entry of field that is no mail address.
func checkAddresses(field string, addrs []string) error {
	for i, addr := range addrs {
		at := strings.LastIndexByte(addr, '@')
		switch {
		case len(addr) > 254:
			return fmt.Errorf("%s[%d]: %d bytes, at most 254", field, i, len(addr))
		case at <= 0 || at == len(addr)-1:
			return fmt.Errorf("%s[%d] %q: not a mail address", field, i, addr)
		case strings.ContainsFunc(addr, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' }):
			return fmt.Errorf("%s[%d] %q: holds a space or a control character", field, i, addr)
		}
	}
	return nil
}

// spellings is addr as a Sent copy may hold it: as given, and with its
// domain in the other IDNA form (a client may write either).
func spellings(addr string) []string {
	at := strings.LastIndexByte(addr, '@')
	local, domain := addr[:at], addr[at+1:]
	out := []string{addr}
	for _, conv := range []func(string) (string, error){idna.Lookup.ToASCII, idna.Lookup.ToUnicode} {
		if d, err := conv(domain); err == nil && d != "" && !strings.EqualFold(d, domain) {
			if s := local + "@" + d; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// recipientCriteria matches a message with any spelling of addr in To,
// Cc or Bcc (as a substring: IMAP has no other match).
func recipientCriteria(addr string) *imap.SearchCriteria {
	var crit *imap.SearchCriteria
	for _, s := range spellings(addr) {
		for _, key := range []string{"To", "Cc", "Bcc"} {
			c := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: key, Value: s}}}
			if crit == nil {
				crit = c
			} else {
				crit = &imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{*crit, *c}}}
			}
		}
	}
	return crit
}

// searchRecipients is each address's candidate uids, newest first.
// With ESEARCH every SEARCH is written before the first answer is read
// (one round trip): its answers carry their command's tag. Plain SEARCH
// answers do not: Dovecot sent "* SEARCH 1", "* SEARCH 1", "* SEARCH 2"
// for three pipelined searches before any tagged OK, and go-imap gave all
// three to the oldest command still pending, so the other addresses got
// none. Without ESEARCH they go one at a time.
func (a *account) searchRecipients(ctx context.Context, c *imapclient.Client, addrs []string) ([][]imap.UID, error) {
	cands := make([][]imap.UID, len(addrs))
	collect := func(i int, data *imap.SearchData) {
		cands[i] = data.AllUIDs()
		slices.SortFunc(cands[i], func(x, y imap.UID) int { return int(int64(y) - int64(x)) })
	}
	if !c.Caps().Has(imap.CapESearch) {
		for i, addr := range addrs {
			err := a.cmd(ctx, c, func() error {
				data, err := c.UIDSearch(recipientCriteria(addr), nil).Wait()
				if err == nil {
					collect(i, data)
				}
				return err
			})
			if err != nil {
				return nil, err
			}
		}
		return cands, nil
	}
	err := a.cmd(ctx, c, func() error {
		cmds := make([]*imapclient.SearchCommand, len(addrs))
		for i, addr := range addrs {
			cmds[i] = c.UIDSearch(recipientCriteria(addr), &imap.SearchOptions{ReturnAll: true})
		}
		var first error
		for i, cmd := range cmds {
			data, err := cmd.Wait()
			if err != nil {
				first = cmp.Or(first, err)
				continue
			}
			collect(i, data)
		}
		return first
	})
	return cands, err
}

// confirmRecipients fetches the candidates' envelopes, newest first, a
// page per address per round, until each address is found among the
// whole recipients of a message from own or its candidates (or rounds)
// run out.
func (a *account) confirmRecipients(ctx context.Context, c *imapclient.Client, addrs, own []string, cands [][]imap.UID) ([]bool, error) {
	known := make([]bool, len(addrs))
	keys := make([]string, len(addrs))
	for i, addr := range addrs {
		keys[i] = review.AddressKey(addr)
	}
	ownKeys := map[string]bool{}
	for _, addr := range own {
		ownKeys[review.AddressKey(addr)] = true
	}
	for round := 0; round < sentToRounds; round++ {
		var set imap.UIDSet
		for i := range addrs {
			if known[i] {
				continue
			}
			from := min(round*sentToPage, len(cands[i]))
			for _, u := range cands[i][from:min(from+sentToPage, len(cands[i]))] {
				set.AddNum(u)
			}
		}
		if len(set) == 0 {
			break
		}
		rcpt := map[imap.UID]map[string]bool{}
		err := a.fetchEach(ctx, c, set, &imap.FetchOptions{UID: true, Envelope: true}, func(b *imapclient.FetchMessageBuffer) {
			if b.Envelope == nil || !fromOwn(b.Envelope.From, ownKeys) {
				return
			}
			m := map[string]bool{}
			for _, list := range [][]imap.Address{b.Envelope.To, b.Envelope.Cc, b.Envelope.Bcc} {
				for _, ad := range list {
					if !ad.IsGroupStart() && !ad.IsGroupEnd() {
						m[review.AddressKey(ad.Addr())] = true
					}
				}
			}
			rcpt[b.UID] = m
		})
		if err != nil {
			return nil, err
		}
		for i := range addrs {
			from := min(round*sentToPage, len(cands[i]))
			for _, u := range cands[i][from:min(from+sentToPage, len(cands[i]))] {
				if rcpt[u][keys[i]] {
					known[i] = true
					break
				}
			}
		}
	}
	return known, nil
}

// fromOwn reports whether from names a sender and every address in it is
// one of own (by review.AddressKey): a From that adds a stranger beside
// the account's address is not the account's mail alone.
func fromOwn(from []imap.Address, own map[string]bool) bool {
	n := 0
	for _, ad := range from {
		if ad.IsGroupStart() || ad.IsGroupEnd() {
			continue
		}
		if !own[review.AddressKey(ad.Addr())] {
			return false
		}
		n++
	}
	return n > 0
}
