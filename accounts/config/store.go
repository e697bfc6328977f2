package config

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Store is the [store] table: how much the local store remembers.
type Store struct {
	// CacheBodies is which bodies the store keeps, for reading offline
	// and for full-text search: none, all, or those of mail newer than an
	// age, fetched in the background by the faces that keep running
	// (accounts/bodyfetch.go). Bodies are the bulk of mail and the most
	// private part of it; the default keeps the last 90 days.
	CacheBodies Bodies
	// CacheBodiesMaxMB caps the stored bodies; the bodies of the oldest
	// mail (by its date) are dropped first, their messages' rows kept.
	CacheBodiesMaxMB int
	// BodyFetchKBps is the most the background fetch reads per account
	// and second, in KiB: it shares the account's connection with the
	// person's own calls and its server with everyone.
	BodyFetchKBps int
}

// Defaults of [store].
const (
	DefaultCacheBodiesMaxMB = 500
	DefaultBodyFetchKBps    = 1024 // 1 MiB/s
	DefaultBodiesAge        = 90 * 24 * time.Hour
)

// BodyKeep is which bodies cache_bodies keeps.
type BodyKeep int

const (
	BodiesNone  BodyKeep = iota // cache_bodies = false: headers only (the zero value)
	BodiesNewer                 // the bodies of mail newer than Bodies.Age (the default)
	BodiesAll                   // cache_bodies = true
)

func (k BodyKeep) String() string {
	switch k {
	case BodiesNone:
		return "none"
	case BodiesNewer:
		return "newer"
	case BodiesAll:
		return "all"
	}
	return fmt.Sprintf("BodyKeep(%d)", int(k))
}

// Bodies is cache_bodies' value.
type Bodies struct {
	Keep BodyKeep
	Age  time.Duration // BodiesNewer: mail newer than this
}

// Stored reports whether any body is kept.
func (b Bodies) Stored() bool { return b.Keep != BodiesNone }

// Since is the oldest date whose mail's bodies are fetched in the
// background at now; zero for all.
func (b Bodies) Since(now time.Time) time.Time {
	if b.Keep != BodiesNewer {
		return time.Time{}
	}
	return now.Add(-b.Age)
}

// String is the value as the config writes it.
func (b Bodies) String() string {
	switch b.Keep {
	case BodiesNone:
		return "false"
	case BodiesAll:
		return "true"
	}
	if b.Age%(7*24*time.Hour) == 0 {
		return fmt.Sprintf("%dw", b.Age/(7*24*time.Hour))
	}
	return fmt.Sprintf("%dd", b.Age/(24*time.Hour))
}

// ageSyntax is an age in days or weeks: "90d", "12w".
var ageSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)([dw])$`) })

// parseBodies reads cache_bodies' value: a boolean or an age.
func parseBodies(v any) (Bodies, error) {
	const want = `true, false or an age like "90d" (days) or "12w" (weeks)`
	switch v := v.(type) {
	case bool:
		if v {
			return Bodies{Keep: BodiesAll}, nil
		}
		return Bodies{Keep: BodiesNone}, nil
	case string:
		m := ageSyntax().FindStringSubmatch(v)
		if m == nil {
			return Bodies{}, fmt.Errorf("%q is not %s", v, want)
		}
		n, err := strconv.Atoi(m[1])
		unit := 24 * time.Hour
		if m[2] == "w" {
			unit *= 7
		}
		if err != nil || n < 1 || n > 100*365 {
			return Bodies{}, fmt.Errorf("%q: the age must be from 1 day to 100 years", v)
		}
		return Bodies{Keep: BodiesNewer, Age: time.Duration(n) * unit}, nil
	}
	return Bodies{}, fmt.Errorf("must be %s, not %s", want, typeName(v))
}

// storeTable decodes [store] over the defaults in s.
func storeTable(t *table, s Store) Store {
	if v, ok := t.get("cache_bodies"); ok {
		if b, err := parseBodies(v); err != nil {
			t.errorf("cache_bodies", "%v", err)
		} else {
			s.CacheBodies = b
		}
	}
	if n, ok := t.integer("cache_bodies_max_mb"); ok {
		if n < 1 {
			t.errorf("cache_bodies_max_mb", "must be at least 1 (got %d); set cache_bodies = false to store no bodies", n)
		} else {
			s.CacheBodiesMaxMB = n
		}
	}
	if n, ok := t.integer("body_fetch_kbps"); ok {
		if n < 1 {
			t.errorf("body_fetch_kbps", "must be at least 1 (got %d); set cache_bodies = false to fetch no bodies", n)
		} else {
			s.BodyFetchKBps = n
		}
	}
	t.finish()
	return s
}
