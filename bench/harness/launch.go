package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// figure is one measured quantity: its runs, printed as their median.
type figure struct {
	name string
	runs []time.Duration
}

func (f *figure) median() time.Duration {
	s := slices.Clone(f.runs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

const screenLimit = 30 * time.Second

// launch measures, run after run and program after program interleaved
// (so a slow minute of the machine hits both alike):
//   - cold: the first rows of a 3-account launch on an empty store
//     (unibox's first row of the unified inbox; aerc's first account's),
//     and for unibox every account's first row;
//   - warm: the same launch again on the store the cold one left;
//   - down: the first account's port refuses; how soon its badge (unibox)
//     or its error line (aerc) says so;
//   - list: `unibox list --json --limit 40` on one account, cold and warm;
//
// and the same for a baseline unibox (-baseline), in the same runs.
func launch(t *terminal, root string, o options) error {
	figs := map[string]*figure{}
	add := func(name string, d time.Duration) {
		if figs[name] == nil {
			figs[name] = &figure{name: name}
		}
		figs[name].runs = append(figs[name].runs, d)
	}
	closed, err := closedPort()
	if err != nil {
		return err
	}
	up := accountsFor(o.addr, 3, nil, "")
	down := accountsFor(o.addr, 3, map[int]bool{0: true}, closed)
	bins := []struct{ label, path string }{{"unibox", o.unibox}}
	if o.baseline != "" {
		bins = append(bins, struct{ label, path string }{"baseline", o.baseline})
	}
	for run := range o.runs {
		for _, b := range bins {
			h, err := newHome(root, b.label)
			if err != nil {
				return err
			}
			cfg, err := h.uniboxConfig(up)
			if err != nil {
				return err
			}
			for _, temp := range []string{"cold", "warm"} {
				first, all, err := uniboxRows(t, h, cfg, fmt.Sprintf("%s%s%d", b.label, temp, run), b.path)
				if err != nil {
					return err
				}
				add(b.label+" "+temp+" first rows", first)
				add(b.label+" "+temp+" all 3 accounts' rows", all)
			}
			d, err := uniboxDown(t, root, down, fmt.Sprintf("%sdown%d", b.label, run), b.path)
			if err != nil {
				return err
			}
			add(b.label+" down account's error", d)
			cold, warm, err := uniboxList(root, o, b.path)
			if err != nil {
				return err
			}
			add(b.label+" list --limit 40 cold", cold)
			add(b.label+" list --limit 40 warm", warm)
		}
		if o.aerc != "" {
			d, err := aercRows(t, root, up, fmt.Sprintf("a%d", run), o)
			if err != nil {
				return err
			}
			add("aerc first rows", d)
			d, err = aercDown(t, root, down, fmt.Sprintf("ad%d", run), o)
			if err != nil {
				return err
			}
			add("aerc down account's error", d)
		}
	}
	fmt.Printf("launch figures, median of %d runs (loopback Dovecot, %d messages per INBOX, %dx%d tmux; from exec)\n", o.runs, o.messages, t.width, t.height)
	var names []string
	for _, b := range bins {
		for _, f := range []string{"cold first rows", "cold all 3 accounts' rows", "warm first rows", "warm all 3 accounts' rows", "down account's error", "list --limit 40 cold", "list --limit 40 warm"} {
			names = append(names, b.label+" "+f)
		}
	}
	names = append(names, "aerc first rows", "aerc down account's error")
	for _, name := range names {
		if f := figs[name]; f != nil {
			fmt.Printf("  %-38s %7.1f ms  (runs: %s)\n", name, ms(f.median()), runList(f.runs))
		}
	}
	ratio := func(what, a, b string) {
		if fa, fb := figs[a], figs[b]; fa != nil && fb != nil {
			fmt.Printf("  %-52s %.2fx\n", what, ms(fa.median())/ms(fb.median()))
		}
	}
	for _, b := range bins {
		ratio(b.label+" cold first rows / aerc's:", b.label+" cold first rows", "aerc first rows")
		ratio(b.label+" warm first rows / aerc's:", b.label+" warm first rows", "aerc first rows")
		ratio(b.label+" down account's error / aerc's:", b.label+" down account's error", "aerc down account's error")
	}
	if o.baseline != "" {
		for _, f := range []string{"cold first rows", "cold all 3 accounts' rows", "warm first rows", "down account's error", "list --limit 40 cold", "list --limit 40 warm"} {
			ratio("unibox / baseline, "+f+":", "unibox "+f, "baseline "+f)
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func runList(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, fmt.Sprintf("%.0f", ms(d)))
	}
	return strings.Join(s, " ")
}

func uniboxRows(t *terminal, h home, cfg, name, bin string) (first, all time.Duration, err error) {
	p, err := t.run(name, append(h.env(), passwordEnv()...), bin, "--config", cfg)
	if err != nil {
		return 0, 0, err
	}
	defer p.stop()
	var names []string
	for _, u := range users {
		names = append(names, newest(u))
	}
	if first, err = p.waitFor("first row", screenLimit, containsAny(names...)); err != nil {
		return 0, 0, err
	}
	all, err = p.waitFor("every account's row", screenLimit, contains(names...))
	return first, all, err
}

func aercRows(t *terminal, root string, accts []account, name string, o options) (time.Duration, error) {
	return aercUntil(t, root, accts, name, o, "first row", newest(accts[0].user))
}

func aercDown(t *terminal, root string, accts []account, name string, o options) (time.Duration, error) {
	return aercUntil(t, root, accts, name, o, "connection refused", "connection refused")
}

// aercUntil runs aerc on accts in a home of its own and times text.
func aercUntil(t *terminal, root string, accts []account, name string, o options, what, text string) (time.Duration, error) {
	h, err := newHome(root, "aerc")
	if err != nil {
		return 0, err
	}
	if err := h.aercConfig(accts); err != nil {
		return 0, err
	}
	p, err := t.run(name, h.env(), o.aerc)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	return p.waitFor(what, screenLimit, containsAny(text))
}

// downBadge: the first account's badge in a state that says it is not
// reachable (reconnecting, cooling down, disconnected).
func downBadge(acct string) func(string) bool {
	return containsAny(acct+" ↻", acct+" ⏸", acct+" ○", acct+" ✗")
}

func uniboxDown(t *terminal, root string, accts []account, name, bin string) (time.Duration, error) {
	h, err := newHome(root, "unibox")
	if err != nil {
		return 0, err
	}
	cfg, err := h.uniboxConfig(accts)
	if err != nil {
		return 0, err
	}
	p, err := t.run(name, append(h.env(), passwordEnv()...), bin, "--config", cfg)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	return p.waitFor("down badge", screenLimit, downBadge(accts[0].name))
}

// uniboxList times `unibox list --json --limit 40` on one account, on an
// empty store and again on the store it left.
func uniboxList(root string, o options, bin string) (cold, warm time.Duration, err error) {
	h, err := newHome(root, "list")
	if err != nil {
		return 0, 0, err
	}
	cfg, err := h.uniboxConfig(accountsFor(o.addr, 1, nil, ""))
	if err != nil {
		return 0, 0, err
	}
	once := func() (time.Duration, error) {
		cmd := exec.Command(bin, "list", "--json", "--limit", "40", "--config", cfg)
		cmd.Env = append(h.env(), passwordEnv()...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("unibox list: %v: %s", err, out)
		}
		return time.Since(start), nil
	}
	if cold, err = once(); err != nil {
		return 0, 0, err
	}
	warm, err = once()
	return cold, warm, err
}
