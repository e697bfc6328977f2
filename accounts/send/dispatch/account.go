package dispatch

import (
	"context"
	"time"

	"unibox/accounts/send/smtpsend"
	"unibox/model"
)

// Account is what dispatch needs of an account; *accounts.Account has it.
type Account interface {
	Name() string
	// Send submits one message (SMTP, or a third-party server's send
	// tool); beforeBody runs once, before the first byte of the body.
	Send(ctx context.Context, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error)
	// SentCopy says whether a copy goes to Sent, and whether to look for
	// the server's own first.
	SentCopy() SentCopy
	FindMessageID(ctx context.Context, folder, special, messageID string) (model.MessageID, bool, error)
	Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error)
	MarkAnswered(ctx context.Context, id model.MessageID) (model.ItemResult, error)
	MarkForwarded(ctx context.Context, id model.MessageID) (model.ItemResult, error)
	DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
}

// SentCopy is an account's save_sent, resolved.
type SentCopy struct {
	// Append: a copy is appended by us (save_sent auto or always, and the
	// server is not one known to save its own).
	Append bool
	// LookFirst: the server may have filed its own copy (save_sent auto):
	// look for the Message-ID in Sent, a few seconds after the send, and
	// append only when it is not there.
	LookFirst bool
	// Folder is sent_folder ("" : the special-use \Sent, then the usual
	// names, found by the provider).
	Folder string
}
