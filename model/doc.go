// Package model holds unibox's plain domain types and pure logic: messages,
// folders, account status and the unified inbox. It imports nothing of ours
// and nothing of Bubble Tea, so every rule in it is testable in isolation.
package model
