// Package drafting writes drafts the one way both faces use: the TUI when
// a person starts a reply, and `unibox mcp` when an agent drafts one. A
// draft is built by model/compose from the message it answers, signed
// with the signature of the address it goes out from (the account's
// Signature), kept as a local draft (accounts/send/outbox), and, for an
// agent, also filed in the account's Drafts folder, where a person
// reviews and sends it.
//
// Who wrote a draft is decided here, by a local ledger under the outbox's
// root (agent-drafts/<draft id>.json: its Message-ID, the sha256 of its
// text, when and for which account), never by a header in the message:
// any client can forge or strip a header. A draft is the agent's only
// while its text still hashes to what the ledger says; once a person
// edits it, it is the person's, and an agent can no longer discard it.
//
// A draft in a Drafts folder that no local draft stands for is the
// person's only when a record says it was postponed from here (Postponed,
// drafts-written/: its UID and Message-ID); any other is Found: a
// stranger's mail moved there, or another machine's draft. Nobody here
// vouches for it, and a local draft opened from it stays Found
// (outbox.Draft.Found).
//
// Agents are also held to limits a person is not: what they write is
// checked for characters that would make the review differ from what is
// sent (Check), and their drafts per account per hour are capped, across
// every process sharing the root (the rate file, under flock).
//
// For the TUI: drafting.Start builds and saves what a person starts;
// NewWriter(box, cfg.Agent.MaxDraftsPerHour).Listed() lists the local
// drafts with Author (Agent or Person) and Queued; Answered(local) counts
// the drafts answering each message; ServerOnly and DraftsFolder pick a
// Drafts folder's messages no local draft stands for; Record notes a
// person's edit, send or discard in the account's history and ends the
// agent's claim; Stamp changes whenever any process changes a draft.
package drafting
