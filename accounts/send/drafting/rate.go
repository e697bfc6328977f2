package drafting

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultMaxPerHour is [agent] max_drafts_per_hour's default.
const DefaultMaxPerHour = 100

// ErrRateLimited is an agent over [agent] max_drafts_per_hour.
var ErrRateLimited = errors.New("too many agent drafts")

// The cap counts across every `unibox mcp` process of the user: each
// keeps no count of its own, but reads, trims and writes the times of
// the last hour's drafts in one file under an flock, so two agents
// drafting at once cannot both take the last slot.
const (
	rateFile = "rate.json" // account → times of its drafts in the last hour
	rateLock = "rate.lock"
)

// take counts one draft for account at now, or refuses it when the last
// hour already holds max.
func (w *Writer) take(account string, now time.Time) error {
	dir := filepath.Join(w.root, ledgerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("drafting: %w", err)
	}
	lf, err := os.OpenFile(filepath.Join(dir, rateLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("drafting: the draft count: %w", err)
	}
	defer lf.Close()
	if err := unix.Flock(int(lf.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("drafting: locking the draft count: %w", err)
	}
	defer unix.Flock(int(lf.Fd()), unix.LOCK_UN)
	times := map[string][]time.Time{}
	if data, err := os.ReadFile(filepath.Join(dir, rateFile)); err == nil {
		_ = json.Unmarshal(data, &times) // a damaged file counts from zero: it holds no mail
	}
	for acct, ts := range times { // only the last hour is kept
		kept := ts[:0]
		for _, t := range ts {
			if now.Sub(t) < time.Hour {
				kept = append(kept, t)
			}
		}
		if len(kept) == 0 {
			delete(times, acct)
		} else {
			times[acct] = kept
		}
	}
	if n := len(times[account]); n >= w.max {
		next := times[account][0].Add(time.Hour).Sub(now).Round(time.Second)
		return fmt.Errorf("%w: %d drafts for this account in the last hour, the limit is %d ([agent] max_drafts_per_hour); the next is possible in %s",
			ErrRateLimited, n, w.max, next)
	}
	times[account] = append(times[account], now.UTC())
	data, err := json.Marshal(times)
	if err != nil {
		return err
	}
	return writeAtomic(dir, rateFile, data)
}
