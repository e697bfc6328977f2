//go:build race

package contacts

// raceEnabled: under -race, modernc's SQLite runs ~25x slower, so the
// replay replays fewer messages.
const raceEnabled = true
