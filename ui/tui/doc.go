// Package tui is unibox's Bubble Tea face: a root model that only routes
// (keys, account results, connection events) to components that each own
// one part of the screen. It never touches a transport.
package tui
