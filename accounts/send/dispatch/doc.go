// Package dispatch carries the outbox's entries out: each through SMTP at
// most once, then its copy into Sent, then the answered or forwarded flag
// on the message it answers, and only then off the disk. Every step is
// written into the entry (accounts/send/outbox) before the next begins, so a
// process killed at any point resumes at the right step, and an entry
// whose sending was cut after its body went out is "unknown": it waits
// for a person, never for a retry.
//
// Each account has its own worker: a dead SMTP server holds up that
// account's mail only. Workers are driven by the entries' timestamps
// (send_delay, backoff), never by a UI loop: the TUI suspends its own
// loop while an editor runs, and the outbox must keep its times then.
package dispatch
