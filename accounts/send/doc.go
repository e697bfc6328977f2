// Package send is the sending pipeline's home; it holds no code, only
// this map. A message goes from a key press to Sent through four
// packages, each written to disk before the next step begins, so that a
// process killed anywhere resumes at the step it reached and a message
// is delivered once, or is "unknown", never twice:
//
//	drafting/  writes a draft the one way both faces use; who wrote it
//	outbox/    drafts and outbox entries on disk, claimed under flock
//	dispatch/  carries each entry out: SMTP, the copy in Sent, the flag
//	smtpsend/  one SMTP submission, at most once
//
// # A person's reply, from r to \Answered
//
//	r in a message          ui/tui/writing.go     StartComposeCmd (ui/tui/compose/mailroom.go)
//	  │                                           drafting.Start (drafting/build.go)
//	  ▼                                           Box.NewDraft (outbox/draft.go)
//	draft file              drafts/<id>.eml + drafts/<id>.json, before any editor runs
//	  │ the editor          editCmd, readDraftCmd (ui/tui/compose/mailroom.go)
//	  │ Attach: lines       drafting.Attach (drafting/attach.go): each file checked
//	  │                     (drafting/attachfile.go) and copied, 0600, into
//	  │                     drafts/<id>.files/ (outbox/files.go) when first read
//	  │ y on the review     ui/tui/compose/composer.go, queueCmd (ui/tui/compose/mailroom.go)
//	  ▼                                           Box.Enqueue (outbox/entry.go)
//	outbox entry            outbox/<id>.json (queued, SendAt = now + send_delay),
//	  │                     <id>.wire (what SMTP sends), <id>.saved (Sent's copy)
//	  │ Runner.Kick         one worker per account (dispatch/runner.go: work, pass)
//	  ▼                                           Box.Claim (outbox/claim.go)
//	dispatch                advance (dispatch/steps.go), one step at a time:
//	  │ send                Account.Send (accounts/sending.go, the envelope sender checked)
//	  │                     → the provider's Spec.Send (accounts/imapprovider/send.go;
//	  │                       a third-party MCP account's send tool: accounts/mcpprovider/send.go)
//	  ▼                     → smtpsend.SendRetrying (smtpsend/retry.go) → Send (smtpsend/smtpsend.go)
//	SMTP                    "sending" on disk in BeforeBody, after DATA's 354;
//	  │                     250 to the dot → sent; cut after the body → unknown (a person decides);
//	  │                     nothing sent (4xx, connect) → queued with backoff; 5xx → failed
//	  │ save                Account.FindMessageID, Account.Append (accounts/mailer.go)
//	  ▼
//	Sent copy               saved (SentFolder, SentUID in the entry)
//	  │ flag                Account.DeleteMessages (the postponed draft in Drafts),
//	  ▼                     Account.MarkAnswered or MarkForwarded (accounts/mailer.go)
//	\Answered               done → Claim.Remove (outbox/undo.go): entry and draft off the disk
//
// One Mailroom for every face (ui/launch/mailroom.go): the outbox, the
// drafts and the drafting.Writer, opened the one way. Who dispatches: the
// faces that open it with launch.OpenMailroom, which gives them a
// Runner. The TUI runs it for its life (ui/tui/run.go, openMailroom);
// `unibox send` enqueues one entry and waits on Runner.Deliver
// (ui/cli/send.go); `unibox sync` sends what is due once with
// Runner.DeliverDue (ui/cli/syncsend.go). Each runs Box.Recover first: an
// entry a dead process left "sending" becomes unknown, never sent again
// on its own. The drafts view (D) sends an unknown or failed entry again
// only on a person's key (Claim.Decide).
//
// One discard for a person's x and an agent's discard_draft:
// drafting.Writer.Drop (drafting/discard.go), the copy in Drafts first,
// kept unless the server confirms it gone (DropServerCopy). One postpone
// (the TUI's p): drafting.Writer.Postpone (drafting/postpone.go) files
// the copy the way an agent's is filed, never twice (fileCopy).
//
// # An agent's draft: it joins at the draft and stops there
//
//	draft_reply, draft_new  ui/agent/drafts.go    Writer.Reply, Writer.New (drafting/agent.go)
//	  │                                           Check (drafting/check.go), the hourly cap (drafting/rate.go)
//	  ▼
//	draft file + ledger     drafts/<id>.*, agent-drafts/<id>.json (drafting/ledger.go)
//	  │                     and a copy filed in the account's Drafts (APPEND)
//	  ▼
//	a person                D lists it as the agent's; enter opens it in the review;
//	                        only a person's y puts it in the outbox (the path above)
//
// Agents never send: `unibox mcp` opens its Mailroom with
// launch.OpenDrafting, which has no Runner, and has no tool that
// enqueues (ui/agent/nosend_test.go reads its source for it);
// discard_draft (Writer.Discard) takes back only a draft whose text
// still hashes to what the ledger says.
package send
