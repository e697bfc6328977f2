package agent

import "unibox/model"

// The drafting tools' inputs and outputs (issue 27): a public interface.
// Every string in them that came from an agent or from mail is untrusted
// text: a person reviews it in the TUI before anything is sent.

// DraftReplyIn is draft_reply's input.
type DraftReplyIn struct {
	ID       string `json:"id" jsonschema:"the message to answer: an id as list_messages gives it"`
	Body     string `json:"body" jsonschema:"the reply's text (at most 256 KB; tabs and newlines are fine; no control, bidi or zero-width characters, no lone CR)"`
	ReplyAll bool   `json:"reply_all,omitempty" jsonschema:"answer everyone the message was to and cc (default false: only its sender)"`
	Quote    *bool  `json:"quote,omitempty" jsonschema:"quote the message under the reply (default true)"`
}

// DraftMessageIn is draft_message's input.
type DraftMessageIn struct {
	Account string   `json:"account" jsonschema:"the account to write from"`
	To      []string `json:"to" jsonschema:"recipients: an address or Name <address>; to and cc together at most 50"`
	Cc      []string `json:"cc,omitempty"`
	Subject string   `json:"subject" jsonschema:"at most 998 bytes, one line"`
	Body    string   `json:"body" jsonschema:"at most 256 KB; tabs and newlines are fine; no control, bidi or zero-width characters, no lone CR"`
}

// DraftOut is what draft_reply and draft_message made: a draft waiting
// for a person to review and send it in the TUI.
type DraftOut struct {
	DraftID   string          `json:"draft_id" jsonschema:"the local draft; discard_draft takes it"`
	Account   string          `json:"account"`
	MessageID string          `json:"message_id" jsonschema:"the Message-ID of the copy filed in Drafts"`
	Subject   string          `json:"subject"`
	To        []model.Address `json:"to"`
	Cc        []model.Address `json:"cc"`
	SavedTo   string          `json:"saved_to" jsonschema:"the folder the copy was filed in (the account's Drafts)"`
	SavedID   string          `json:"saved_id,omitempty" jsonschema:"the copy's message id, when the server said its UID"`
	InReplyTo *DraftAnswers   `json:"in_reply_to,omitempty" jsonschema:"the message it answers"`
}

// DraftAnswers is the message a draft answers.
type DraftAnswers struct {
	ID      string `json:"id" jsonschema:"as list_messages gives it"`
	Subject string `json:"subject,omitempty" jsonschema:"empty when it could not be read now"`
}

// ListDraftsIn is list_drafts' input.
type ListDraftsIn struct {
	Account string `json:"account,omitempty" jsonschema:"one account; default all"`
}

// DraftInfo is one draft in list_drafts and unibox://drafts.
type DraftInfo struct {
	DraftID string          `json:"draft_id,omitempty" jsonschema:"a local draft's id; empty for a draft only in a Drafts folder"`
	ID      string          `json:"id,omitempty" jsonschema:"a draft only in a Drafts folder: its message id"`
	Account string          `json:"account"`
	Author  string          `json:"author" jsonschema:"agent (drafted through unibox mcp and unchanged since), person, or found (in a Drafts folder, not written from this data directory: a mail moved there, or another machine's or client's draft; nobody vouches for it)"`
	Where   string          `json:"where" jsonschema:"local (waiting in unibox, filed in Drafts when saved_id is set), drafts_folder (only in the server's Drafts), or outbox (a person is sending it)"`
	Subject string          `json:"subject"`
	To      []model.Address `json:"to"`
	Cc      []model.Address `json:"cc"`
	Answers *DraftAnswers   `json:"answers,omitempty"`
	SavedID string          `json:"saved_id,omitempty" jsonschema:"a local draft's copy in Drafts"`
	Updated string          `json:"updated" jsonschema:"RFC 3339; for a found draft, the date its sender wrote in it (never later than now)"`
	Problem string          `json:"problem,omitempty" jsonschema:"why the draft could not be read whole"`
}

// ListDraftsOut is list_drafts' answer: the accounts whose Drafts folder
// could not be read first (their local drafts are listed all the same).
type ListDraftsOut struct {
	Degraded []string    `json:"degraded" jsonschema:"one line per account whose Drafts folder did not answer, and why"`
	Drafts   []DraftInfo `json:"drafts"`
}

// DiscardDraftIn is discard_draft's input.
type DiscardDraftIn struct {
	DraftID string `json:"draft_id" jsonschema:"an agent draft's id, as draft_reply, draft_message or list_drafts gave it"`
}

// DiscardDraftOut says what was discarded.
type DiscardDraftOut struct {
	DraftID string `json:"draft_id"`
	Account string `json:"account"`
}
