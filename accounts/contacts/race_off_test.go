//go:build !race

package contacts

const raceEnabled = false
