// Package cli is unibox's face for scripts: `unibox list` (the unified
// inbox once, as a table or --json) and `unibox status` (a health probe
// per account). Partial results are results: the exit code says whether
// every account, some or none answered (see launch's exit codes).
package cli
