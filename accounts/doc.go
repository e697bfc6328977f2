// Package accounts says what an account is, one job per file. This map
// names every file of the package and every package beneath it; a test
// (doc_test.go) fails when one is missing here or named but gone.
//
// # The account
//
//   - account.go: the account handle: its resilient connection (conn) to
//     a provider child, and the reads the faces call (List, Search, Get,
//     Folders).
//   - open.go: the wiring: Open builds each account from the
//     provider.Spec its kind makes (imapprovider for IMAP, mcpprovider for
//     third-party MCP mail servers), with its store, history and the wake
//     watcher.
//   - handles.go: the feature handles, wired by Open from one list and
//     asked for with one accessor each (Sending, Snoozing, Unsubscribing,
//     Threads, Stored, Watching, Counting), so that a feature's operations are its
//     handle's, not Account's.
//   - health.go: Health, the one value every face renders: state and push
//     (named by conn and the provider, not spelt here), the constructor
//     HealthOf, and Watch, which follows it.
//   - words.go: Health and errors in words, one way per face (badge,
//     line, reason).
//   - guard.go: its borders: inputs checked against model's limits,
//     errors scrubbed of secrets.
//   - faceconn.go: what the faces need of conn (error classes, Error,
//     ClassOf, TransferTime, Tail, ResultText), re-exported as aliases so
//     that nothing in ui/ imports conn.
//   - events.go: the account's history (what it went through), for the
//     details view, its log file and `unibox status --history`.
//   - drafts.go: DraftEvent, a draft's life (created, edited, sent,
//     discarded, by an agent or a person) in that history, made one line;
//     CalendarEvent, what became of an accepted invitation's add_cmd.
//
// # Reading, the store and triage
//
//   - fanout.go: one operation over all accounts, so that one dead
//     account never fails or slows the others.
//   - stored.go: the Stored and Watching handles: the store's pages and
//     the sync that fills it; the inbox's pushes and the folder followed.
//   - cache.go: the account's part of the local store: what goes in, what
//     is read back without dialling (Stored's Cached, CachedOlder,
//     CachedMatch), and the holds that keep a triage and a gap's fill
//     apart.
//   - sync.go: incremental sync into the store, and mending its gaps.
//   - searching.go: Search, a query answered from the store's index over
//     some accounts, and what the store could not answer for.
//   - bodyfetch.go, bodypace.go: the background body fetch
//     (Set.FetchBodies): the text of the mail cache_bodies asks for, newest
//     first, into the store's index, paced to body_fetch_kbps on an
//     injected clock, paused a minute by any failure, behind the person's
//     own calls (conn.Request.Background).
//   - follow.go: Follow, the one folder besides the inbox whose changes
//     are pushed (at most one more IMAP connection per account).
//   - triage.go: writes, where one whose outcome is unknown is reconciled
//     by reading before anything is resent.
//   - counting.go, countadjust.go: Counting, each folder's unread count,
//     the folder's own (the store's when it holds the whole folder, else
//     the server's folder_status), refreshed with each sync step and
//     adjusted by the account's own triage: what every face's count says.
//   - specials.go: Specials, where Sent, Drafts, Archive and Trash are,
//     and the folders agents' writes are kept out of (Walled).
//
// # The features
//
//   - sending.go: Sending, how the account sends (its from and aliases,
//     SMTP or a mapped send tool, save_sent); accounts/send/dispatch
//     carries the outbox out through it. A send's failure is the
//     message's, never the account's: a send tool's error answer is a
//     conn.Request.RequestScoped call's, and SMTP runs beside the
//     account's session.
//   - sendmail.go: the mail-server calls Sending lends the outbox runner
//     (dispatch.Account) and an agent's drafts (drafting.Filer), and the
//     largest part it fetches (drafting.PartSizer).
//   - mailer.go: what sending needs of the mail server: the copy in
//     Sent or Drafts (APPEND), a draft deleted, an attachment's bytes, a
//     Message-ID looked for, \Answered and $Forwarded. An APPEND's and a
//     get_part's bound grow with their size (conn.TransferTime, the rule
//     serve-imap's deadline follows too); the caps are the Spec's
//     provider.Limits (serve-imap's, from imapwire, for IMAP).
//   - known.go: whom the account has written to, for the review screen's
//     "new recipient" mark: its Sent folder (sent_to) and the outbox's
//     record, within KnownTimeout.
//   - contactsource.go: ContactSource, what the contacts index reads of
//     the account (its mailbox in the store, its own addresses).
//   - snoozing.go: Snoozing, the account's part of the snooze schedule
//     (accounts/snooze keeps the schedule file).
//   - ruling.go, ruleundo.go, ruleapply.go, ruledry.go: the rules acting
//     on new INBOX mail after a sync step, each action claimed once
//     (accounts/rulebook); UndoRule; ApplyRules on stored mail on
//     purpose; RulesDryRun, what they would do, from the store.
//   - screening.go, screendecide.go: the screener (screener =
//     "new_senders"): INBOX mail from new senders judged and held back
//     from the inbox (model/screener judges); Screener's Pending, LetIn
//     and ScreenOut, the person's decisions kept in rules.db.
//   - unsubscribing.go: Unsubscribing, a message's unsubscribe headers
//     and the attempts in the history (accounts/unsubscribe acts on them).
//   - threads.go, threadsync.go: Threads, conversations read from the
//     store, and the threading steps that follow a folder's sync.
//   - invitations.go: Stored's Events, the stored versions of a meeting
//     invitation's event (the update an invitation changes, the answer
//     sent), from the store alone.
//
// # The packages beneath
//
//   - config/: the TOML config: load, validate, name line and key.
//   - store/: the local store, the SQLite file every face reads first.
//   - provider/: the contract every kind of account implements: its Spec,
//     Limits (the special-folder kinds it speaks in are model's).
//   - imapprovider/: unibox's IMAP provider, the client half (starts
//     serve-imap).
//   - serveimap/: `unibox serve-imap`, the MCP server over go-imap/v2.
//   - imapwire/: what the two IMAP halves share: the tool names, the
//     special-folder kinds, the request and answer types, the limits.
//   - mcpprovider/: third-party MCP mail servers, mapped by tool names.
//   - oauth/: OAuth2: a refresh token exchanged for access tokens.
//   - saslauth/: XOAUTH2 and OAUTHBEARER for IMAP and SMTP.
//   - history/: the history file of what each account went through.
//   - wake/: notices sleep, a stop or a clock jump, so that accounts
//     probe at once.
//   - private/: keeps the store's and history's files the user's only.
//   - walmode/: switches a SQLite file to WAL while other processes open
//     it too (the store, the snooze schedule).
//   - atrest/: a process at rest (a pause after its last work) returns
//     its free memory: every serve-imap child, and the TUI.
//   - send/: the sending pipeline, from the draft to the copy in Sent
//     (drafting, outbox, dispatch, smtpsend); its doc draws a message's
//     way from the key to Sent.
//   - attach/: saves and opens attachments: a private folder, a safe
//     name, nothing overwritten or run.
//   - contacts/: the contacts index that completes recipients: a
//     contact.Book over the store's count of who wrote to whom, the
//     outbox's sent-to record and address_book_cmd.
//   - snooze/: when snoozed mail wakes: a schedule outside the cache,
//     each wake claimed once.
//   - rulebook/: rules.db: each rule's action on a message claimed once
//     across processes, the log undo reads, how far each inbox is ruled,
//     the screener's decisions, the agents' rule proposals.
//   - rulesfile/: writes the rules file (an accepted proposal appended):
//     atomic, under a lock, never over a change not shown.
//   - proposing/: agents propose rules, people decide: checked, capped,
//     refused when they would trash mail of someone written to.
//   - claimant/: which process holds a claim, and whether it still does
//     (the snooze schedule's and the rules').
//   - userdb/: opens the SQLite files of what only the user has, in
//     $XDG_DATA_HOME/unibox.
//   - unsubscribe/: List-Unsubscribe: DKIM-backed one-click, mailto, or
//     the link shown as text.
//   - calendaradd/: hands an invitation the person accepted to
//     [calendar] add_cmd: the event on stdin, a minimal environment, a
//     bound.
//   - procgroup/: a person's command (a password command, a notifier,
//     add_cmd) in a process group of its own, killed whole with its
//     context.
//   - mailtext/: hostile MIME, charsets and dates into readable text.
//   - secret/: the one rule that scrubs secrets from text.
//   - demo/: `--demo`: in-process IMAP servers with a mailbox each.
//   - testservers/: servers for tests, on loopback only (memimap,
//     imaptest, smtptest).
package accounts
