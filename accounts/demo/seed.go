package demo

import (
	"sort"
	"time"
	"unibox/accounts/imapwire"

	"github.com/emersion/go-imap/v2"
)

// Seed is one message to append to a demo account.
type Seed struct {
	Folder   string      // "INBOX", "Archive", "Sent", "Trash", ...
	Raw      []byte      // full RFC 5322 message, CRLF line ends
	Flags    []imap.Flag // imap.FlagSeen, imap.FlagFlagged, imap.FlagAnswered
	Received time.Time   // IMAP internal date
}

// account is one demo mailbox: who owns it, how to log in, which folders
// it has and what is in them.
type account struct {
	name     string // "Work", "Personal", "Yahoo"
	key      string // short name used in Message-IDs
	owner    person // whose mailbox it is; owner.addr is also the login
	password string
	// folders maps every folder, INBOX included, to its special use.
	// Yahoo deliberately names its junk folder "Bulk" and its drafts
	// "Draft", as the real one does, so the demo shows that unibox goes by
	// special use rather than by name.
	folders map[string]string
	// messages gives the account's mail; it takes now only for content
	// that names a date, such as a calendar invite.
	messages func(now time.Time) []msg
}

// accounts lists the demo accounts. Their contents live in seed_work.go,
// seed_personal.go and seed_yahoo.go.
var accounts = []*account{
	{
		name: "Work", key: "work", password: "demo-work",
		owner: sam("work@demo.unibox", 60),
		folders: map[string]string{
			"INBOX": "", "Archive": imapwire.SpecialArchive, "Sent": imapwire.SpecialSent, "Drafts": imapwire.SpecialDrafts, "Trash": imapwire.SpecialTrash, "Junk": imapwire.SpecialJunk,
		},
		messages: workMessages,
	},
	{
		name: "Personal", key: "personal", password: "demo-personal",
		owner: sam("personal@demo.unibox", 60),
		folders: map[string]string{
			"INBOX": "", "Archive": imapwire.SpecialArchive, "Sent": imapwire.SpecialSent, "Drafts": imapwire.SpecialDrafts, "Trash": imapwire.SpecialTrash, "Junk": imapwire.SpecialJunk,
			"Receipts": "",
		},
		messages: personalMessages,
	},
	{
		name: "Yahoo", key: "yahoo", password: "demo-yahoo",
		owner: sam("yahoo@demo.unibox", 60),
		folders: map[string]string{
			"INBOX": "", "Archive": imapwire.SpecialArchive, "Sent": imapwire.SpecialSent, "Draft": imapwire.SpecialDrafts, "Trash": imapwire.SpecialTrash, "Bulk": imapwire.SpecialJunk,
		},
		messages: yahooMessages,
	},
}

// sam is the demo's user: one person with three addresses.
func sam(addr string, tz int) person { return person{"Sam Rivera", addr, tz} }

// Mailboxes returns each demo account's messages, keyed "Work", "Personal"
// and "Yahoo". Every date is relative to now, so a message shown as "2 hours
// ago" is always two hours old whenever the demo starts; the same now gives
// byte-identical messages. Within an account the seeds are ordered oldest
// first, so appending them in order gives UIDs that grow with the date, as
// on a real server.
func Mailboxes(now time.Time) map[string][]Seed {
	out := make(map[string][]Seed, len(accounts))
	for _, a := range accounts {
		msgs := a.messages(now)
		seeds := make([]Seed, len(msgs))
		for i, m := range msgs {
			seeds[i] = a.render(now, i, m)
		}
		sort.SliceStable(seeds, func(i, j int) bool { return seeds[i].Received.Before(seeds[j].Received) })
		out[a.name] = seeds
	}
	return out
}

// Folders lists each account's folders, INBOX included, with their special
// use: "archive", "trash", "sent", "drafts", "junk" or "" for none. A server
// creates INBOX by itself (memimap.AddUser does), so skip it when creating.
func Folders() map[string]map[string]string {
	out := make(map[string]map[string]string, len(accounts))
	for _, a := range accounts {
		f := make(map[string]string, len(a.folders))
		for name, use := range a.folders {
			f[name] = use
		}
		out[a.name] = f
	}
	return out
}

// Users returns the IMAP login of each account: user name and password.
// They guard nothing: the demo servers listen on loopback only and hold
// made-up mail.
func Users() map[string][2]string {
	out := make(map[string][2]string, len(accounts))
	for _, a := range accounts {
		out[a.name] = [2]string{a.owner.addr, a.password}
	}
	return out
}

// ownerName is the name an account's mail goes out under.
func ownerName(account string) string {
	for _, a := range accounts {
		if a.name == account {
			return a.owner.name
		}
	}
	return ""
}
