// Package accounts says what an account is, one job per file:
//
//   - account.go: the account handle: its resilient connection (conn) to
//     a provider child, and the operations the faces call (List, Search,
//     Get, Folders).
//   - open.go: the wiring: Open builds each account from the
//     provider.Spec its kind makes (imapprovider for IMAP, mcpprovider for
//     third-party MCP mail servers), with its store, history and the wake
//     watcher.
//   - health.go: Health, the one value every face renders: state and push
//     (named by conn and the provider, not spelt here), the constructor
//     HealthOf, and Watch, which follows it.
//   - words.go: Health and errors in words, one way per face (badge,
//     line, reason).
//   - fanout.go: one operation over all accounts, so that one dead
//     account never fails or slows the others.
//   - triage.go: writes, where one whose outcome is unknown is reconciled
//     by reading before anything is resent.
//   - cache.go: the account's part of the local store: what goes in, what
//     is read back without dialling, and the holds that keep a triage and
//     a gap's fill apart.
//   - sync.go: incremental sync into the store, and mending its gaps.
//   - events.go: the account's history (what it went through).
//   - mailer.go: what sending needs of the mail server: the copy in
//     Sent or Drafts (APPEND), a draft deleted, an attachment's bytes, a
//     Message-ID looked for, \Answered and $Forwarded. An APPEND's and a
//     get_part's bound grow with their size (conn.TransferTime, the rule
//     serve-imap's deadline follows too); the caps are the Spec's
//     provider.Limits (serve-imap's, from imapwire, for IMAP).
//   - sending.go: how the account sends (its from and aliases, SMTP or a
//     mapped send tool, save_sent); accounts/send/dispatch carries the
//     outbox out through it. A send's failure is the message's, never the
//     account's: a send tool's error answer is a conn.Request.RequestScoped
//     call's, and SMTP runs beside the account's session.
//   - handles.go: the feature handles, wired by Open from one list and
//     asked for with one accessor each (Sending, Snoozing, Unsubscribing,
//     Threads), so that a feature's operations are its handle's, not
//     Account's.
//   - sendmail.go: the mail-server calls Sending lends the outbox runner
//     (dispatch.Account) and an agent's drafts (drafting.Filer).
//   - snoozing.go: Snoozing, the account's part of the snooze schedule
//     (accounts/snooze keeps the schedule file).
//   - unsubscribing.go: Unsubscribing, a message's unsubscribe headers
//     and the attempts in the history (accounts/unsubscribe acts on them).
//   - threads.go, threadsync.go: Threads, conversations read from the
//     store, and the threading steps that follow a folder's sync.
//   - guard.go: its borders: inputs checked against model's limits,
//     errors scrubbed of secrets.
//   - faceconn.go: what the faces need of conn (error classes, Error,
//     ClassOf, TransferTime, Tail, ResultText), re-exported as aliases so
//     that nothing in ui/ imports conn.
//
// Beneath it, each in its own package: the config (config), the local
// store (store, the SQLite file every face reads first), the provider
// contract and its kinds (provider, imapprovider with serveimap and
// imapwire, mcpprovider), OAuth2 (oauth), the history file (history),
// the wake watcher (wake), private files (private), mail text (mailtext),
// the sending pipeline under send/ (drafting, the outbox on disk, the
// runner that sends, one SMTP submission: its doc draws a message's way
// from the key to Sent), SASL for IMAP and SMTP (saslauth),
// secret scrubbing (secret), the demo (demo) and test servers
// (testservers).
package accounts
