//go:build race

package store

// raceEnabled: under -race, modernc's SQLite runs ~25x slower, so the
// multi-process tests write fewer and smaller listings.
const raceEnabled = true
