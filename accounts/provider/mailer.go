package provider

import (
	"context"
	"time"

	"unibox/conn"
	"unibox/model"
)

// Mailer is a provider that can do what sending needs of the mail server
// (unibox's IMAP provider; a third-party MCP server generally cannot).
// None of its writes is retried by any layer: an append whose connection
// dropped is looked up with FindIn, never sent again.
type Mailer interface {
	// Append stores raw in folder, or in the special folder ("sent",
	// "drafts") when folder is "". The id's UID is 0 when the server did
	// not say it (no UIDPLUS). An error that may have left it stored is
	// a *conn.Error with MaybeDone.
	Append(ctx context.Context, a *conn.Adapter, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error)
	// Delete removes exactly uids from folder (refused where that cannot
	// be done without removing others: no UIDPLUS), one result per uid.
	Delete(ctx context.Context, a *conn.Adapter, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
	// Part is attachment index of a message, counted as Body.Attachments.
	Part(ctx context.Context, a *conn.Adapter, id model.MessageID, index int) (model.Part, error)
	// FindIn looks a Message-ID up in folder, or in the special folder
	// ("archive", "trash", "sent", "drafts") when folder is "".
	FindIn(ctx context.Context, a *conn.Adapter, folder, special, messageID string) (model.MessageID, bool, error)
	// Mark sets (absolute, never a toggle) a mark on one message.
	Mark(ctx context.Context, a *conn.Adapter, id model.MessageID, mark Mark) (model.ItemResult, error)
}

// Mark is what sending sets on the original it answered: \Answered after
// a reply, $Forwarded after a forward. It is no triage action (model.Op):
// nobody undoes it from the inbox, and it is set once the message is
// sent, not optimistically.
type Mark int

const (
	MarkAnswered Mark = iota + 1
	MarkForwarded
)

func (m Mark) String() string {
	switch m {
	case MarkAnswered:
		return "answered"
	case MarkForwarded:
		return "forwarded"
	}
	return "unknown mark"
}

// SentChecker is a provider that can say whom the account has written
// to, from its Sent folder (serve-imap's sent_to). A third-party server
// generally cannot: the review screen then treats every recipient the
// outbox has no record of as new.
type SentChecker interface {
	// SentTo is the addresses of addrs (at most 50) that are a whole
	// recipient (To, Cc or Bcc) of a message in the Sent folder whose
	// From is one of own (the account's from and aliases), as given.
	SentTo(ctx context.Context, a *conn.Adapter, addrs, own []string) ([]string, error)
}

// Specials is where an account's special folders are, as its server
// resolves them ("" where it has none), and Walled: every folder that is
// Sent or Drafts by any sign (special-use, configuration, usual name),
// the folders whose mail the review screen takes as evidence.
type Specials struct {
	Archive, Trash, Sent, Drafts string
	Delimiter                    string // the hierarchy delimiter, "" when unknown
	Walled                       []string
}

// SpecialFinder is a provider that resolves every special folder at once
// on its server (serve-imap's special_folders).
type SpecialFinder interface {
	SpecialFolders(ctx context.Context, a *conn.Adapter) (Specials, error)
}

// PartSaver is a provider that writes an attachment straight into a file
// (serve-imap's save_part), so that a big part never crosses the pipe
// nor sits whole in memory.
type PartSaver interface {
	// SavePart writes attachment index of id, decoded, into the new file
	// dir/name; dir is a private folder (0700) the caller made. It
	// returns the attachment as the mail names it, with the bytes written.
	SavePart(ctx context.Context, a *conn.Adapter, id model.MessageID, index int, dir, name string) (model.Attachment, error)
}

// ActionChecker is a provider that knows, without asking its server,
// which triage actions it cannot do (a third-party MCP server without a
// move tool): a rule that needs one is refused for that account at load.
// A provider that is no ActionChecker can do them all.
type ActionChecker interface {
	// Cannot says why action cannot be done in folder ("" when it can).
	Cannot(action model.Action, folder string) string
}
