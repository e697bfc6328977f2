package config

import (
	"os"
	"sync"
	"time"

	"unibox/model/rules"
)

// RulesWatch is the rules in force for a running face: read at start,
// and again whenever the rules file has changed (its size or time) when
// asked, so a face notices an edit at its next sync. A file that no longer
// parses keeps the last good rules, and says why until it is fixed.
type RulesWatch struct {
	cfg *Config
	now func() time.Time

	mu    sync.Mutex
	stamp fileStamp
	rules []rules.Rule
	err   error
}

type fileStamp struct {
	size int64
	mod  time.Time
	ok   bool
}

func stampOf(path string) fileStamp {
	if path == "" {
		return fileStamp{}
	}
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{size: st.Size(), mod: st.ModTime(), ok: true}
}

// WatchRules reads cfg's rules now; a broken file gives no rules and its
// error (Current says it again).
func WatchRules(cfg *Config) *RulesWatch {
	w := &RulesWatch{cfg: cfg, now: time.Now}
	w.stamp = stampOf(cfg.RulesPath())
	w.rules, w.err = cfg.LoadRules(w.now())
	return w
}

// Current is the rules in force, and why the file's text is not (nil
// while it parses).
func (w *RulesWatch) Current() ([]rules.Rule, error) {
	if w == nil {
		return nil, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if st := stampOf(w.cfg.RulesPath()); st != w.stamp {
		w.stamp = st
		list, err := w.cfg.LoadRules(w.now())
		if err == nil {
			w.rules = list
		}
		w.err = err
	}
	return w.rules, w.err
}
