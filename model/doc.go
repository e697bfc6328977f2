// Package model holds unibox's plain domain types and pure logic:
// messages, folders and the ids that address them, the unified inbox,
// triage with its optimistic effect, rollback and undo, how an unknown
// outcome is settled by what reading showed (Decide), and the limits on
// what a face may send. An account's status is not here: it is accounts'
// Health. model imports nothing of ours and nothing of Bubble Tea, so
// every rule in it is testable in isolation.
package model
