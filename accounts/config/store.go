package config

// Store is the [store] table: how much the local store remembers.
type Store struct {
	// CacheBodies keeps the body of every message opened while online, so
	// it can be read offline. Off by default: bodies are the bulk of mail
	// and the most private part of it.
	CacheBodies bool
	// CacheBodiesMaxMB caps the stored bodies; the bodies stored longest
	// ago are dropped first.
	CacheBodiesMaxMB int
}

// DefaultCacheBodiesMaxMB is the cap when cache_bodies is on.
const DefaultCacheBodiesMaxMB = 256

// storeTable decodes [store] over the defaults in s.
func storeTable(t *table, s Store) Store {
	if b, ok := t.boolean("cache_bodies"); ok {
		s.CacheBodies = b
	}
	if n, ok := t.integer("cache_bodies_max_mb"); ok {
		if n < 1 {
			t.errorf("cache_bodies_max_mb", "must be at least 1 (got %d); set cache_bodies = false to store no bodies", n)
		} else {
			s.CacheBodiesMaxMB = n
		}
	}
	t.finish()
	return s
}
