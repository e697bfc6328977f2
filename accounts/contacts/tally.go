package contacts

import (
	"time"

	"unibox/accounts/store"
	"unibox/model/contact"
	"unibox/model/review"
	"unibox/model/textsafe"
)

// tally adds up, per address across every account, what the person
// wrote to it and what it wrote to the person:
//
//   - a store row whose writer is one of the account's own addresses is
//     the person's writing (Sent); one whose writer is another address
//     (a message in Sent from someone else) counts for nothing;
//   - a row of what an address wrote counts as received, unless the
//     address is one of the person's own (their mail in Archive, say);
//   - an address in the outbox's record was written to at least once,
//     whether or not its copy in Sent is stored (save_sent = never, a
//     wiped cache).
//
// The address and the name are as the person last wrote them, else as
// received mail last did;
// the tier and the score follow contact's ranking.
func tally(sources []Source, rows store.Contacts, records []map[string]bool) []contact.Entry {
	allOwn := map[string]bool{}
	own := make([]map[string]bool, len(sources))
	for i, s := range sources {
		own[i] = map[string]bool{}
		for _, a := range s.Own {
			if k := review.AddressKey(a); k != "" {
				own[i][k], allOwn[k] = true, true
			}
		}
	}
	byKey := map[string]*seen{}
	get := func(k string) *seen {
		s := byKey[k]
		if s == nil {
			s = &seen{sentScore: contact.NoWeight, recvScore: contact.NoWeight}
			byKey[k] = s
		}
		return s
	}
	for i, src := range sources {
		for _, r := range rows.Rows[src.Key] {
			switch {
			case r.Writer == "" && !allOwn[r.Addr]:
				s := get(r.Addr)
				s.recvN += r.N
				s.recvScore = contact.LogAdd(s.recvScore, r.Score)
				s.recvAddr.offer(r.Address, r.Last)
				s.seenAt(r)
				s.recvName.offer(r.Name, r.NameAt)
			case r.Writer != "" && own[i][r.Writer]:
				s := get(r.Addr)
				s.sentN += r.N
				s.sentScore = contact.LogAdd(s.sentScore, r.Score)
				s.sentAddr.offer(r.Address, r.Last)
				s.seenAt(r)
				s.sentName.offer(r.Name, r.NameAt)
			}
		}
		for k := range records[i] {
			s := get(k)
			s.recorded = true
		}
	}
	out := make([]contact.Entry, 0, len(byKey))
	for k, s := range byKey {
		out = append(out, s.entry(k, rows.Bulk[k]))
	}
	return out
}

// seen is what is known of one address so far: the address and the
// name as the person last wrote them, and as received mail last did.
type seen struct {
	sentAddr, recvAddr newest
	last               time.Time
	sentN, recvN       int
	sentScore          float64
	recvScore          float64
	sentName, recvName newest
	recorded           bool // in the outbox's record
}

func (s *seen) seenAt(r store.Correspondent) {
	if r.Last.After(s.last) {
		s.last = r.Last
	}
}

// newest keeps the newest text offered that is not empty.
type newest struct {
	name string
	at   time.Time
}

func (n *newest) offer(name string, at time.Time) {
	if name != "" && (n.name == "" || !at.Before(n.at)) {
		n.name, n.at = name, at
	}
}

// receivedWeight is how much a received message counts beside a written
// one, for an address the person wrote to (log2: as much). Once the
// person has written to an address, its mail is a conversation going
// on: the one who just wrote is likeliest the one answered (a quarter
// weight missed the intended recipient 0.5 % more often in the replay).
const receivedWeight = 0

func (s *seen) entry(key string, bulk bool) contact.Entry {
	addr := s.sentAddr.name
	if addr == "" {
		addr = s.recvAddr.name
	}
	if addr == "" {
		addr = key // the outbox's record alone
	}
	e := contact.Entry{Contact: contact.Contact{Address: textsafe.Line(addr), Sent: s.sentN, Received: s.recvN, Last: s.last}}
	if s.recorded && e.Sent == 0 {
		e.Sent = 1 // the record says once at least, not how often
	}
	e.Name, e.NameWritten = s.sentName.name, s.sentName.name != ""
	if !e.NameWritten {
		e.Name = s.recvName.name
	}
	e.Name = textsafe.Line(e.Name)
	e.List = bulk || contact.IsRobot(key)
	switch {
	case e.List:
		e.Tier, e.Score = contact.TierBulk, contact.LogAdd(s.sentScore, s.recvScore)
	case e.Sent > 0:
		e.Tier, e.Score = contact.TierWritten, contact.LogAdd(s.sentScore, s.recvScore+receivedWeight)
	default:
		e.Tier, e.Score = contact.TierHeard, s.recvScore
	}
	return e
}
