package thread

import (
	"time"

	"unibox/model"
)

// Message is what threading reads of one stored message (one row: a copy
// in one folder of one account).
type Message struct {
	// Key is the row. Adding a Key again replaces that row's version
	// (see the package doc); without a usable Message-ID it is also the
	// message's identity.
	Key model.MessageID
	// MessageID, InReplyTo and References are the raw ids, with or
	// without <>, References in header order (model.MsgIDList splits a
	// header value); ids that are not ids are skipped (see the package
	// doc).
	MessageID  string
	InReplyTo  string
	References []string
	// Subject decides whether In-Reply-To and References join (they do
	// only when the subjects agree; see the package doc), and with
	// Options.BySubject groups unlinked messages.
	Subject string
	// Date orders a thread's messages (Order); threading ignores it.
	Date time.Time
}

// Options are the threading choices that change which messages are one
// thread; a Threader keeps them for its life (change one: rebuild).
type Options struct {
	// BySubject is `[ui] thread_by_subject`: root-level messages with the
	// same base subject are one thread.
	BySubject bool
}

// Alias says thread Old is now part of thread New: every row the caller
// stored with thread_id Old belongs to New.
type Alias struct{ Old, New string }

// Change is what one Add did: the thread the message is in now, and the
// thread ids it retired (sorted by Old; none in the common case, at most
// one per id the message names, and one per other thread renamed because
// it came to share, or stopped sharing, a root id: New is then that
// thread's id, not ThreadID). The store writes the row's thread_id,
// one alias row per Alias, and deletes the alias whose Old is ThreadID if
// there is one (a retired id that is live again).
type Change struct {
	ThreadID string
	Aliases  []Alias
}
